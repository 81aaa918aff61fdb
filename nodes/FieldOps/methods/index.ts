import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { nodeError } from '../transport/errors';
import { timeZoneNames, WORKFLOW_ZONE } from '../parameters/zones';
import { ownCompanyId, projectSummary, type ProjectSummary } from '../lookups/projects';
import { label, matches, opening, page, readList } from './pages';
import { searchChapters, searchParentWorkOrders, searchUnits, searchWorkOrders } from './workOrders';

const byNumber = (a: ProjectSummary, b: ProjectSummary) =>
	String(a.projectNumber ?? '').localeCompare(String(b.projectNumber ?? ''), undefined, { numeric: true });

/** Project summaries of a lookup route, read under any of their plausible field names (L1), in number order. */
const summaries = (projects: IDataObject[]) => projects.map(projectSummary).sort(byNumber);

/**
 * Every project the client can reach (its company and subsidiaries, active or not), the same set with or without a
 * search: the lookup list without one, the service's own search when the user types; 100 per page.
 */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const projects = filter
		? await readList(this, 'project', {
				method: 'GET',
				path: '/api/projects/search',
				qs: { searchString: filter, activeOnly: false },
			})
		: await readList(
				this,
				'project',
				{ method: 'GET', path: '/api/projects', qs: { activeInactiveAll: 2 } },
				opening(filter, paginationToken),
			);
	const results: INodeListSearchItems[] = summaries(projects)
		.filter((p) => p.id !== undefined)
		.map((p) => ({
			name: label(p.projectNumber ?? p.id, p.name, p.active === false ? '(inactive)' : ''),
			value: String(p.id),
		}));
	return page(results, paginationToken);
}

/**
 * The companies the client can reach: its own (the company of its project list) first, then every other company
 * a reachable project belongs to. The API names no company, so each is shown by some of its projects.
 */
export async function searchCompanies(
	this: ILoadOptionsFunctions,
	_filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	let own: string;
	try {
		own = await ownCompanyId(this);
	} catch (error) {
		throw nodeError(this.getNode(), error);
	}
	const projects = await readList(
		this,
		'project',
		{ method: 'GET', path: '/api/projects', qs: { activeInactiveAll: 2 } },
		opening(undefined, paginationToken),
	);
	const numbers = new Map<string, string[]>([[own, []]]);
	for (const project of summaries(projects)) {
		if (project.companyId === undefined) continue;
		const known = numbers.get(project.companyId) ?? [];
		known.push(String(project.projectNumber ?? ''));
		numbers.set(project.companyId, known);
	}
	const some = (projectNumbers: string[]) =>
		`projects ${projectNumbers.slice(0, 3).join(', ')}${projectNumbers.length > 3 ? ', …' : ''}`;
	const results = [...numbers].map(([companyId, projectNumbers]) => ({
		name:
			companyId !== own
				? `Company of ${some(projectNumbers)}`
				: projectNumbers.length > 0
					? `Your own company (${some(projectNumbers)})`
					: 'Your own company',
		value: companyId,
	}));
	return page(results, paginationToken);
}

export async function searchMachines(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const machines = await readList(
		this,
		'machine',
		{ method: 'GET', path: '/api/v4/integration/machines' },
		opening(filter, paginationToken),
	);
	const results = machines
		.filter((m) => matches(filter, m.machineNumber, m.name, m.registrationNumber))
		.map((m) => ({
			name: label(m.machineNumber, m.name, m.isEquipment ? '(equipment)' : ''),
			value: String(m.id),
		}));
	return page(results, paginationToken);
}

/**
 * Employees (v5), by the service's own search when the user types; the value is the employee number, the
 * identifier of every v5 path and a way the spec lets a project name its foreman and leader.
 */
export async function searchEmployees(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const employees = filter
		? await readList(this, 'employee', {
				method: 'GET',
				path: '/api/v5/integration/employees/search',
				qs: { query: filter },
			})
		: await readList(
				this,
				'employee',
				{ method: 'GET', path: '/api/v5/integration/employees' },
				opening(filter, paginationToken),
			);
	const results = employees
		.filter((e) => e.employeeNumber !== undefined && e.employeeNumber !== null)
		.map((e) => ({
			name: label(String(e.employeeNumber), [e.firstName, e.lastName].filter(Boolean).join(' ') || e.name),
			value: String(e.employeeNumber),
		}));
	return page(results, paginationToken);
}

/** The machine types configured for the company (GET /api/MachineType). */
export async function getMachineTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const types = await readList(this, 'machine type', { method: 'GET', path: '/api/MachineType' }, true);
	return types
		.map((type) => ({
			name: type.name ? `${String(type.name)} (${String(type.typeId)})` : String(type.typeId),
			value: String(type.typeId),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Time Zone (Report, from node version 1.3): first the workflow's zone by name, then every zone. n8n answers this
 * list without the workflow's settings, so the name shown is n8n's default zone; a zone set under Workflow
 * Settings → Timezone is the one the node uses, and the canvas subtitle names it.
 */
export async function getTimeZones(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const zone = this.getTimezone();
	return [
		{
			name: `The workflow’s time zone (now: ${zone})`,
			value: WORKFLOW_ZONE,
			description: 'Workflow Settings → Timezone, else n8n’s default time zone',
		},
		...timeZoneNames().map((name) => ({ name, value: name })),
	];
}

export const listSearch = {
	searchProjects,
	searchCompanies,
	searchWorkOrders,
	searchParentWorkOrders,
	searchUnits,
	searchChapters,
	searchMachines,
	searchEmployees,
};
export const loadOptions = { getMachineTypes, getTimeZones };
