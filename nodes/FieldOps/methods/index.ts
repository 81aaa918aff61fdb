import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
	INodePropertyOptions,
} from 'n8n-workflow';

import { FieldOpsFailure, nodeError } from '../shared/errors';
import { expectList, locatorValue, ownCompanyId } from '../shared/lookups';
import { projectSummary, type ProjectSummary } from '../shared/summaries';
import { sendJson, type ApiRequest } from '../shared/transport';

const matches = (filter: string | undefined, ...values: unknown[]) =>
	!filter || values.some((v) => typeof v === 'string' && v.toLowerCase().includes(filter.toLowerCase()));

const label = (...parts: unknown[]) => parts.filter((p) => typeof p === 'string' && p !== '').join(' – ');

async function list(
	context: ILoadOptionsFunctions,
	what: string,
	request: ApiRequest,
): Promise<IDataObject[]> {
	try {
		return expectList(await sendJson(context, { what, ...request }), what);
	} catch (error) {
		throw nodeError(context.getNode(), error);
	}
}

const byNumber = (a: ProjectSummary, b: ProjectSummary) =>
	String(a.projectNumber ?? '').localeCompare(String(b.projectNumber ?? ''), undefined, { numeric: true });

/** Project summaries of a lookup route, read under any of their plausible field names (L1), in number order. */
const summaries = (projects: IDataObject[]) => projects.map(projectSummary).sort(byNumber);

/**
 * Every project the client can reach (its company and subsidiaries, active or not), the same set with or without a
 * search: the lookup list without one, the service's own search when the user types.
 */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const projects = filter
		? await list(this, 'project', {
				method: 'GET',
				path: '/api/projects/search',
				qs: { searchString: filter, activeOnly: false },
			})
		: await list(this, 'project', { method: 'GET', path: '/api/projects', qs: { activeInactiveAll: 2 } });
	const results: INodeListSearchItems[] = summaries(projects)
		.filter((p) => p.id !== undefined)
		.map((p) => ({
			name: label(p.projectNumber ?? p.id, p.name, p.active === false ? '(inactive)' : ''),
			value: String(p.id),
		}));
	return { results };
}

/**
 * The companies the client can reach: its own (the company of its project list) first, then every other company
 * a reachable project belongs to. The API names no company, so each is shown by some of its projects.
 */
export async function searchCompanies(this: ILoadOptionsFunctions): Promise<INodeListSearchResult> {
	let own: string;
	try {
		own = await ownCompanyId(this);
	} catch (error) {
		throw nodeError(this.getNode(), error);
	}
	const projects = await list(this, 'project', {
		method: 'GET',
		path: '/api/projects',
		qs: { activeInactiveAll: 2 },
	});
	const numbers = new Map<string, string[]>([[own, []]]);
	for (const project of summaries(projects)) {
		if (project.companyId === undefined) continue;
		const known = numbers.get(project.companyId) ?? [];
		known.push(String(project.projectNumber ?? ''));
		numbers.set(project.companyId, known);
	}
	const some = (projectNumbers: string[]) =>
		`projects ${projectNumbers.slice(0, 3).join(', ')}${projectNumbers.length > 3 ? ', …' : ''}`;
	return {
		results: [...numbers].map(([companyId, projectNumbers]) => ({
			name:
				companyId !== own
					? `Company of ${some(projectNumbers)}`
					: projectNumbers.length > 0
						? `Your own company (${some(projectNumbers)})`
						: 'Your own company',
			value: companyId,
		})),
	};
}

/** Work orders of the project chosen in the same node. */
export async function searchWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const { mode, value } = locatorValue(this.getCurrentNodeParameter('project', { extractValue: false }));
	if (!value)
		throw nodeError(
			this.getNode(),
			new FieldOpsFailure(
				'Choose the Project first',
				'This list shows the work orders of the project chosen above.',
			),
		);
	const workOrders = await list(this, 'work order', {
		method: 'GET',
		path:
			mode === 'projectNumber'
				? '/api/v4/integration/tasks/by-project-number/{project}'
				: '/api/v4/integration/tasks/project/{project}',
		params: { project: { label: 'Project', value } },
	});
	return {
		results: workOrders
			.filter((w) => matches(filter, w.name, w.externalId, w.workDescriptionShort))
			.map((w) => ({ name: label(w.externalId, w.name), value: String(w.id) })),
	};
}

export async function searchMachines(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const machines = await list(this, 'machine', { method: 'GET', path: '/api/v4/integration/machines' });
	return {
		results: machines
			.filter((m) => matches(filter, m.machineNumber, m.name, m.registrationNumber))
			.map((m) => ({
				name: label(m.machineNumber, m.name, m.isEquipment ? '(equipment)' : ''),
				value: String(m.id),
			})),
	};
}

/** Employees (v5); the value is the employee number, the identifier of every v5 path. */
export async function searchEmployees(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const employees = filter
		? await list(this, 'employee', {
				method: 'GET',
				path: '/api/v5/integration/employees/search',
				qs: { query: filter },
			})
		: await list(this, 'employee', { method: 'GET', path: '/api/v5/integration/employees' });
	return {
		results: employees.map((e) => ({
			name: label(String(e.employeeNumber ?? ''), [e.firstName, e.lastName].filter(Boolean).join(' ')),
			value: String(e.employeeNumber),
		})),
	};
}

/** The machine types configured for the company (GET /api/MachineType). */
export async function getMachineTypes(this: ILoadOptionsFunctions): Promise<INodePropertyOptions[]> {
	const types = await list(this, 'machine type', { method: 'GET', path: '/api/MachineType' });
	return types
		.map((type) => ({
			name: type.name ? `${String(type.name)} (${String(type.typeId)})` : String(type.typeId),
			value: String(type.typeId),
		}))
		.sort((a, b) => a.name.localeCompare(b.name));
}

export const listSearch = {
	searchProjects,
	searchCompanies,
	searchWorkOrders,
	searchMachines,
	searchEmployees,
};
export const loadOptions = { getMachineTypes };
