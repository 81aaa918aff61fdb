import type { ILoadOptionsFunctions, INodeListSearchItems, INodeListSearchResult } from 'n8n-workflow';

import { apiRequest } from '../shared/transport';

type Row = Record<string, unknown>;

const matches = (filter: string | undefined, ...values: unknown[]) =>
	!filter || values.some((v) => typeof v === 'string' && v.toLowerCase().includes(filter.toLowerCase()));

const label = (...parts: unknown[]) => parts.filter((p) => typeof p === 'string' && p !== '').join(' – ');

/** Projects of the company; the service's own search when the user types. */
export async function searchProjects(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const projects = filter
		? await apiRequest<Row[]>(this, {
				method: 'GET',
				url: '/api/projects/search',
				qs: { searchString: filter, activeOnly: false },
			})
		: await apiRequest<Row[]>(this, { method: 'GET', url: '/api/v4/integration/projects' });
	const results: INodeListSearchItems[] = projects.map((p) => ({
		name: label(p.projectNumber, p.name),
		value: String(p.id),
	}));
	return { results };
}

/** Work orders of the project chosen in the same node. */
export async function searchWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
): Promise<INodeListSearchResult> {
	const project = this.getCurrentNodeParameter('project', { extractValue: false }) as
		| { mode?: string; value?: string }
		| undefined;
	if (!project?.value) return { results: [] };
	const url =
		project.mode === 'projectNumber'
			? `/api/v4/integration/tasks/by-project-number/${encodeURIComponent(project.value)}`
			: `/api/v4/integration/tasks/project/${encodeURIComponent(project.value)}`;
	const workOrders = await apiRequest<Row[]>(this, { method: 'GET', url, what: 'project' });
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
	const machines = await apiRequest<Row[]>(this, { method: 'GET', url: '/api/v4/integration/machines' });
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
		? await apiRequest<Row[]>(this, {
				method: 'GET',
				url: '/api/v5/integration/employees/search',
				qs: { query: filter },
			})
		: await apiRequest<Row[]>(this, { method: 'GET', url: '/api/v5/integration/employees' });
	return {
		results: employees.map((e) => ({
			name: label(String(e.employeeNumber ?? ''), [e.firstName, e.lastName].filter(Boolean).join(' ')),
			value: String(e.employeeNumber),
		})),
	};
}
