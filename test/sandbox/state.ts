import type { Scope } from './http';
import type { VirtualClock } from './clock';
import type { Rng } from './rng';
import type { Variant } from './variant';

/**
 * The sandbox's in-memory world. Shared entities (companies, projects, work orders, machines, people) are
 * declared here because every API reads them; each API keeps its own extra state in its folder.
 * Entities keep every field the API accepted, so `[field: string]: unknown` carries the rest.
 */

export interface Company {
	id: string;
	name: string;
	/** Parent company in a company structure (subsidiaries); `null` for a top-level company. */
	parentId: string | null;
	/** The road-reference pilot feature: images get `roadReference` enriched a few seconds after upload. */
	roadReferenceFeature: boolean;
}

export interface SandboxClient {
	clientId: string;
	clientSecret: string;
	name: string;
	companyId: string;
	scopes: Scope[];
	administrator: boolean;
}

export interface Project {
	id: string;
	companyId: string;
	projectNumber: string;
	name: string;
	active: boolean;
	/** Id of the template work order (set in the web back office; `POST /__sandbox/template`). */
	templateTaskId?: string;
	/** The linked company customer (core/customers.ts); set through `customerNumber`. */
	customerId?: string | null;
	createdDateTime: string;
	modifiedDateTime: string;
	[field: string]: unknown;
}

export interface Task {
	id: string;
	companyId: string;
	projectId: string;
	externalId: string;
	name: string;
	active: boolean;
	isTemplate: boolean;
	createdDateTime: string;
	modifiedDateTime: string;
	[field: string]: unknown;
}

export interface MachineType {
	typeId: string;
	name: string;
	companyId: string;
}

export interface Machine {
	id: string;
	companyId: string;
	machineNumber: string;
	name: string;
	typeId: string | null;
	isEquipment: boolean;
	active: boolean;
	/** Equipment is linked to a parent machine. */
	parentMachineId: string | null;
	createdDateTime: string;
	modifiedDateTime: string;
	[field: string]: unknown;
}

export interface Employment {
	id: string;
	startDate: string;
	endDate: string | null;
	department: string | null;
	mainProjectNumber: string | null;
	/** 0 = Disabled, 1 = Enabled, 2 = Variable */
	payroll: number;
}

export interface UserTag {
	userTagId: string;
	tagId: string;
	applicableFromDate: string | null;
	applicableToDate: string | null;
}

export interface TagDefinition {
	tagId: string;
	tagName: string;
	companyId: string;
	isPayrollTag: boolean;
}

/**
 * One person's profile in one company. Users v4 and employees v5 are two views of it: v4 addresses it by
 * `identityId`/`companyProfileId`, v5 by `employeeNumber`.
 */
export interface Person {
	identityId: string;
	companyProfileId: string;
	companyId: string;
	employeeNumber: string;
	firstName: string;
	lastName: string;
	/** Work phone, the login user name (v4 `mobileWork`, v5 `phone`). */
	phone: string;
	email: string | null;
	birthDate: string;
	disabled: boolean;
	employments: Employment[];
	tags: UserTag[];
	/** Project companies (other companies of the structure) the person is enabled or disabled in. */
	projectCompanies: { companyId: string; enabled: boolean; userGroupId: string | null }[];
	createdDateTime: string;
	modifiedDateTime: string;
	[field: string]: unknown;
}

export interface WorldContext {
	seed: number;
	rng: Rng;
	clock: VirtualClock;
	scale: number;
	/** The choices where the spec is silent (variant.ts). */
	variant: Variant;
	/** The time zone of the sites: a day-based record's `date` is its day there (default UTC). */
	siteTimeZone?: string;
}

export class World {
	readonly companies = new Map<string, Company>();
	readonly clients: SandboxClient[] = [];
	readonly projects = new Map<string, Project>();
	readonly tasks = new Map<string, Task>();
	readonly machineTypes: MachineType[] = [];
	readonly machines = new Map<string, Machine>();
	readonly people = new Map<string, Person>();
	readonly tagDefinitions: TagDefinition[] = [];
	/** Per-API extra state, owned by each API's folder. */
	readonly extra = new Map<string, unknown>();

	constructor(readonly ctx: WorldContext) {}

	get rng(): Rng {
		return this.ctx.rng;
	}

	get clock(): VirtualClock {
		return this.ctx.clock;
	}

	get variant(): Variant {
		return this.ctx.variant;
	}

	/** A GUID-shaped id, deterministic for the seed and the order of calls. */
	newId(): string {
		const h = this.rng.hex(32);
		return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
	}

	/** Per-API state, created on first use and dropped on reset. */
	state<T>(key: string, create: () => T): T {
		if (!this.extra.has(key)) this.extra.set(key, create());
		return this.extra.get(key) as T;
	}

	/** The company and all companies below it in its structure. */
	companyTree(companyId: string): string[] {
		const ids = [companyId];
		for (let i = 0; i < ids.length; i++) {
			for (const company of this.companies.values()) {
				if (company.parentId === ids[i]) ids.push(company.id);
			}
		}
		return ids;
	}

	/** Whether a caller of `callerCompanyId` may see data of `companyId` (own company or a subsidiary). */
	canAccessCompany(callerCompanyId: string, companyId: string): boolean {
		return this.companyTree(callerCompanyId).includes(companyId);
	}

	peopleOf(companyId: string): Person[] {
		return [...this.people.values()].filter((p) => p.companyId === companyId);
	}
}
