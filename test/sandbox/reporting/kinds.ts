import type { Rng } from '../rng';
import { COMPANY_IDS } from '../seed';
import type { Machine, Person, Project, Task, World } from '../state';
import { guid, type FeedRecord, type KindDefinition, type RecordSeed } from './store';

/**
 * Record shapes of the registration feeds. Where the spec shows the fields (absences, machine registrations,
 * checklists/incidents: id + pdfUrl) they are used as named; the shapes it does not show (time registrations,
 * payroll lines) are this sandbox's choice, kept here in one place (see reporting/README.md).
 */

const DAY = 86_400_000;
/** Seeded records are spread over this many days before the clock. */
export const SEED_SPAN_DAYS = 60;
/** Seeded history ends this long before the clock, so "from now" sees only activity made after start. */
export const SEED_QUIET_MS = 10 * 60_000;

interface Pools {
	companies: string[];
	projects: Map<string, Project[]>;
	tasks: Map<string, Task[]>;
	people: Map<string, Person[]>;
	machines: Map<string, Machine[]>;
}

function pools(world: World): Pools {
	return world.state('reporting-pools', () => {
		const group = <T extends { companyId: string }>(items: Iterable<T>) => {
			const map = new Map<string, T[]>();
			for (const item of items) map.set(item.companyId, [...(map.get(item.companyId) ?? []), item]);
			return map;
		};
		const tasks = new Map<string, Task[]>();
		for (const task of world.tasks.values())
			tasks.set(task.projectId, [...(tasks.get(task.projectId) ?? []), task]);
		return {
			companies: [...world.companies.keys()],
			projects: group(world.projects.values()),
			tasks,
			people: group(world.people.values()),
			machines: group([...world.machines.values()].filter((m) => !m.isEquipment)),
		};
	});
}

/** Most activity is the main company's; some is its subsidiary's and some another company's. */
function pickCompany(rng: Rng): string {
	const roll = rng.next();
	return roll < 0.7 ? COMPANY_IDS.main : roll < 0.85 ? COMPANY_IDS.subsidiary : COMPANY_IDS.other;
}

interface Context {
	companyId: string;
	project: Project;
	task: Task | undefined;
	person: Person;
	dateMs: number;
	createdMs: number;
}

function context(seed: RecordSeed): Context {
	const { world, rng } = seed;
	const nowMs = seed.index === undefined ? seed.nowMs : seed.nowMs - SEED_QUIET_MS;
	const p = pools(world);
	const explicit = seed.projectId ? world.projects.get(seed.projectId) : undefined;
	// Field activity without a project happens in the main company (the one the admin client sees).
	const companyId = explicit?.companyId ?? (seed.index === undefined ? COMPANY_IDS.main : pickCompany(rng));
	const project = explicit ?? rng.pick(p.projects.get(companyId) ?? [...world.projects.values()]);
	const projectTasks = p.tasks.get(project.id) ?? [];
	const person = rng.pick(p.people.get(companyId) ?? [...world.people.values()]);
	// Seeded records lie in the past; field activity happens now.
	const dateMs = seed.index === undefined ? nowMs : nowMs - rng.next() * SEED_SPAN_DAYS * DAY;
	const createdMs = seed.index === undefined ? nowMs : Math.min(nowMs, dateMs + rng.int(0, 8) * 3_600_000);
	return {
		companyId,
		project,
		task: projectTasks.length ? rng.pick(projectTasks) : undefined,
		person,
		dateMs,
		createdMs,
	};
}

function base(seed: RecordSeed, c: Context, data: Record<string, unknown>, dateMs = c.dateMs): FeedRecord {
	// A tenth of the seeded records were edited some time after they were created.
	const edited = seed.index !== undefined && seed.rng.chance(0.1);
	const modifiedMs = edited
		? Math.min(seed.nowMs - SEED_QUIET_MS, c.createdMs + seed.rng.next() * 5 * DAY)
		: c.createdMs;
	return {
		id: guid(seed.rng),
		companyId: c.companyId,
		projectId: c.project.id,
		dateMs,
		createdMs: c.createdMs,
		modifiedMs,
		deletedMs: null,
		pdfFileId: null,
		data,
	};
}

const siteDays = new Map<string, Intl.DateTimeFormat>();
/** The day of an instant at the sites (their time zone, default UTC): what a day-based record's `date` holds. */
function day(world: World, ms: number): string {
	const zone = world.ctx.siteTimeZone ?? 'UTC';
	let format = siteDays.get(zone);
	if (!format) siteDays.set(zone, (format = new Intl.DateTimeFormat('en-CA', { timeZone: zone })));
	return format.format(ms);
}
const personName = (person: Person) => `${person.firstName} ${person.lastName}`;

const STANDARD = new Set(['ProjectId', 'CompanyId']);

/** [F…] Other plausible names of the fields the spec does not show, served by the `alt` variant. */
const TIME_ALT_NAMES = {
	employeeName: 'userName',
	taskName: 'workOrderName',
	date: 'workDate',
	startDateTime: 'startTime',
	stopDateTime: 'endTime',
	hours: 'qty',
	approved: 'isApproved',
	comment: 'note',
	modifiedDateTime: 'lastModifiedDateTime',
	createdDateTime: 'createdAt',
};
const PAYROLL_ALT_NAMES = {
	employeeName: 'userName',
	employeeNumber: 'payrollNumber',
	department: 'departmentName',
	taskName: 'workOrderName',
	date: 'workDate',
	wageCode: 'wageTypeCode',
	wageCodeName: 'wageTypeName',
	quantity: 'qty',
	unit: 'unitName',
	approvedPayroll: 'approvedForPayroll',
	externalDim01: 'externalDimension1',
	modifiedDateTime: 'lastModifiedDateTime',
	createdDateTime: 'createdAt',
};
const CHECKLIST_ALT_NAMES = {
	templateName: 'checklistName',
	createdByUserName: 'createdByName',
	status: 'state',
	modifiedDateTime: 'lastModifiedDateTime',
	createdDateTime: 'createdAt',
};
/** Incident registrations' other plausible names (the trigger's Simplify and the Report read them all). */
const INCIDENT_ALT_NAMES = {
	title: 'name',
	description: 'text',
	severity: 'priority',
	reportedByUserName: 'reportedByName',
	status: 'state',
	modifiedDateTime: 'lastModifiedDateTime',
	createdDateTime: 'createdAt',
};

function timeRegistration(seed: RecordSeed): FeedRecord {
	const c = context(seed);
	const hours = seed.hours ?? seed.rng.int(2, 20) / 2;
	// Field activity with its hours given starts at the activity's moment; others in the morning.
	const start =
		seed.hours !== undefined
			? c.dateMs
			: Math.floor(c.dateMs / DAY) * DAY + 6 * 3_600_000 + seed.rng.int(0, 8) * 1_800_000;
	return base(seed, c, {
		companyId: c.companyId,
		projectId: c.project.id,
		projectNumber: c.project.projectNumber,
		projectName: c.project.name,
		taskId: c.task?.id ?? null,
		taskName: c.task?.name ?? null,
		userId: c.person.identityId,
		employeeNumber: c.person.employeeNumber,
		employeeName: personName(c.person),
		date: day(seed.world, start),
		startDateTime: new Date(start).toISOString(),
		stopDateTime: new Date(start + hours * 3_600_000).toISOString(),
		hours,
		approved: seed.rng.chance(0.6),
		comment: seed.rng.chance(0.2) ? 'Ventet på betongbil' : null,
	});
}

const WAGE_CODES = [
	['100', 'Ordinær lønn', 'hours'],
	['120', 'Overtid 50 %', 'hours'],
	['300', 'Diett', 'days'],
	['310', 'Kilometergodtgjørelse', 'km'],
] as const;

function payrollLine(extended: boolean) {
	return (seed: RecordSeed): FeedRecord => {
		const c = context(seed);
		const [wageCode, wageCodeName, unit] = seed.rng.pick(WAGE_CODES);
		const data: Record<string, unknown> = {
			companyId: c.companyId,
			employeeNumber: c.person.employeeNumber,
			userId: c.person.identityId,
			projectId: c.project.id,
			projectNumber: c.project.projectNumber,
			date: day(seed.world, c.dateMs),
			wageCode,
			quantity: unit === 'km' ? seed.rng.int(5, 120) : seed.rng.int(1, 16) / 2,
			unit,
			approvedPayroll: seed.rng.chance(0.5),
		};
		if (extended) {
			Object.assign(data, {
				wageCodeName,
				employeeName: personName(c.person),
				department: c.person.employments[0]?.department ?? null,
				projectName: c.project.name,
				externalProjectNumber: c.project.externalProjectNumber ?? null,
				taskId: c.task?.id ?? null,
				taskName: c.task?.name ?? null,
				externalDim01: c.task?.externalDim01 ?? null,
			});
		}
		return base(seed, c, data);
	};
}

const ABSENCE_TYPES = [
	['a1', 'S01', 'Egenmelding'],
	['a2', 'S02', 'Sykmelding'],
	['a3', 'F01', 'Ferie'],
	['a4', 'B01', 'Sykt barn'],
] as const;

function absence(seed: RecordSeed): FeedRecord {
	const c = context(seed);
	const [absenceTypeId, absenceTypeCode, absenceTypeName] = seed.rng.pick(ABSENCE_TYPES);
	const record = base(seed, c, {
		companyId: c.companyId,
		date: day(seed.world, c.dateMs),
		qty: seed.rng.pick([7.5, 7.5, 3.75]),
		absenceTypeId,
		absenceTypeCode,
		absenceTypeName,
		userId: c.person.identityId,
		employeeNumber: c.person.employeeNumber,
		projectId: seed.rng.chance(0.5) ? c.project.id : null,
		approved: seed.rng.chance(0.7),
		approvedPayroll: seed.rng.chance(0.5),
		locked: seed.rng.chance(0.3),
		sensitive: {
			sickLeaveReason: absenceTypeCode.startsWith('S') ? 'Influensa' : null,
			childName: absenceTypeCode === 'B01' ? 'Emma' : null,
			childBirthDate: absenceTypeCode === 'B01' ? '2019-04-12' : null,
		},
	});
	record.projectId = record.data.projectId as string | null;
	return record;
}

/** Another company's operator (a subcontractor) on a tenth of the machine registrations. */
function machineRegistration(seed: RecordSeed): FeedRecord {
	const c = context(seed);
	const machines = pools(seed.world).machines.get(c.companyId) ?? [];
	const machine = seed.rng.pick(machines);
	const foreign = seed.rng.chance(0.1);
	const driverCompanyId = foreign
		? c.companyId === COMPANY_IDS.other
			? COMPANY_IDS.main
			: COMPANY_IDS.other
		: c.companyId;
	const driver = foreign ? seed.rng.pick(pools(seed.world).people.get(driverCompanyId) ?? []) : c.person;
	const hours = seed.rng.int(1, 10);
	// Whole minutes: machines report in batches, so several registrations share one exact stop time.
	const stopMs = Math.floor(c.dateMs / 60_000) * 60_000;
	const record = base(
		seed,
		c,
		{
			machineId: machine?.id ?? null,
			machineName: machine?.name ?? null,
			machineTypeName: machine?.typeId ?? null,
			resourceNumber: machine?.machineNumber ?? null,
			projectCompanyName: seed.world.companies.get(c.companyId)?.name ?? null,
			projectName: c.project.name,
			projectNumber: c.project.projectNumber,
			projectExternalNumber: c.project.externalProjectNumber ?? null,
			driverCompanyId,
			driverCompanyName: seed.world.companies.get(driverCompanyId)?.name ?? null,
			driverName: driver ? personName(driver) : null,
			driverId: driver?.identityId ?? null,
			startDateTime: new Date(stopMs - hours * 3_600_000).toISOString(),
			stopDateTime: new Date(stopMs).toISOString(),
			qty: hours,
			approved: seed.rng.chance(0.5),
			createdById: c.person.identityId,
			createdByName: personName(c.person),
			modifiedById: c.person.identityId,
			modifiedByName: personName(c.person),
		},
		stopMs,
	);
	return record;
}

const CHECKLIST_TEMPLATES = ['Sikker jobbanalyse', 'Daglig maskinkontroll', 'Stillaskontroll', 'Graveplan'];
const INCIDENT_TITLES = ['Nestenulykke ved graving', 'Skade på kabel', 'Fallende gjenstand', 'Oljesøl'];

function checklist(machine: boolean) {
	return (seed: RecordSeed): FeedRecord => {
		const c = context(seed);
		const m = machine ? seed.rng.pick(pools(seed.world).machines.get(c.companyId) ?? []) : undefined;
		return base(seed, c, {
			companyId: c.companyId,
			projectId: c.project.id,
			projectNumber: c.project.projectNumber,
			...(machine ? { machineId: m?.id ?? null, machineName: m?.name ?? null } : {}),
			templateName: seed.rng.pick(CHECKLIST_TEMPLATES),
			createdByUserId: c.person.identityId,
			createdByUserName: personName(c.person),
			status: 'draft',
			sections: [
				{ title: 'Generelt', attachments: [], images: [] },
				{ title: 'Sikkerhet', attachments: [], images: [] },
			],
		});
	};
}

function incident(machine: boolean) {
	return (seed: RecordSeed): FeedRecord => {
		const c = context(seed);
		const m = machine ? seed.rng.pick(pools(seed.world).machines.get(c.companyId) ?? []) : undefined;
		return base(seed, c, {
			companyId: c.companyId,
			projectId: c.project.id,
			projectNumber: c.project.projectNumber,
			...(machine ? { machineId: m?.id ?? null, machineName: m?.name ?? null } : {}),
			title: seed.rng.pick(INCIDENT_TITLES),
			description: 'Registrert fra feltet',
			severity: seed.rng.pick(['low', 'medium', 'high']),
			reportedByUserId: c.person.identityId,
			reportedByUserName: personName(c.person),
			status: 'draft',
		});
	};
}

/** A field edit bumps a number or a flag, as a foreman correcting a registration would. */
function bump(field: string) {
	return (record: FeedRecord, rng: Rng) => {
		const value = record.data[field];
		record.data[field] =
			typeof value === 'number'
				? value + 0.5
				: typeof value === 'boolean'
					? !value
					: `${String(value ?? '')} (endret ${rng.int(1, 99)})`;
	};
}

const privacy = (
	record: FeedRecord,
	served: Record<string, unknown>,
	{ world, callerCompanyId }: { world: World; callerCompanyId: string },
) => {
	// People of a company outside the caller's structure are not disclosed.
	const { driverCompanyId } = record.data as { driverCompanyId: string };
	delete served.driverCompanyId;
	if (!world.canAccessCompany(callerCompanyId, driverCompanyId)) {
		// [R12] "Returned empty": empty strings, or null.
		const blank = world.variant.privacyBlank === 'emptyString' ? '' : null;
		Object.assign(served, {
			driverName: blank,
			driverId: blank,
			createdById: blank,
			createdByName: blank,
			modifiedById: blank,
			modifiedByName: blank,
		});
	}
};

export const KINDS: KindDefinition[] = [
	{
		kind: 'time-registrations',
		path: '/v1/time-registrations',
		tombstones: false,
		pdf: false,
		groupTies: false,
		filters: STANDARD,
		altNames: TIME_ALT_NAMES,
		create: timeRegistration,
		edit: bump('hours'),
	},
	{
		kind: 'payroll-lines',
		path: '/v1/payroll-lines',
		tombstones: false,
		pdf: false,
		groupTies: false,
		filters: STANDARD,
		altNames: PAYROLL_ALT_NAMES,
		create: payrollLine(false),
		edit: bump('quantity'),
	},
	{
		kind: 'payroll-lines-extended',
		path: '/v1/payroll-lines-extended',
		tombstones: false,
		pdf: false,
		groupTies: false,
		filters: STANDARD,
		altNames: PAYROLL_ALT_NAMES,
		create: payrollLine(true),
		edit: bump('quantity'),
	},
	{
		kind: 'absence-registrations',
		path: '/v1/absence-registrations',
		tombstones: true,
		pdf: true,
		groupTies: false,
		filters: new Set([
			'ProjectId',
			'CompanyId',
			'Approved',
			'ApprovedPayroll',
			'Locked',
			'IncludeSensitiveData',
		]),
		create: absence,
		edit: bump('approved'),
		render: (record, served, { world, includeSensitiveData }) => {
			delete served.sensitive;
			// [R13] The sensitive fields beside the others, or in one nested object.
			if (includeSensitiveData && world.variant.sensitiveFields === 'flat')
				Object.assign(served, record.data.sensitive);
			else if (includeSensitiveData) served.sensitiveData = { ...(record.data.sensitive as object) };
		},
	},
	{
		kind: 'machine-registrations',
		path: '/v1/machine-registrations',
		tombstones: true,
		pdf: false,
		groupTies: true,
		filters: new Set(),
		create: machineRegistration,
		edit: bump('qty'),
		render: privacy,
	},
	{
		kind: 'checklist-registrations',
		path: '/v1/checklist-registrations',
		tombstones: false,
		pdf: true,
		groupTies: false,
		filters: STANDARD,
		altNames: CHECKLIST_ALT_NAMES,
		create: checklist(false),
		edit: bump('templateName'),
	},
	{
		kind: 'machine-checklist-registrations',
		path: '/v1/machine-checklist-registrations',
		tombstones: false,
		pdf: true,
		groupTies: false,
		filters: STANDARD,
		altNames: CHECKLIST_ALT_NAMES,
		create: checklist(true),
		edit: bump('templateName'),
	},
	{
		kind: 'incident-registrations',
		path: '/v1/incident-registrations',
		tombstones: false,
		pdf: true,
		groupTies: false,
		filters: STANDARD,
		altNames: INCIDENT_ALT_NAMES,
		create: incident(false),
		edit: bump('description'),
	},
	{
		kind: 'machine-incident-registrations',
		path: '/v1/machine-incident-registrations',
		tombstones: false,
		pdf: true,
		groupTies: false,
		filters: STANDARD,
		altNames: INCIDENT_ALT_NAMES,
		create: incident(true),
		edit: bump('description'),
	},
];
