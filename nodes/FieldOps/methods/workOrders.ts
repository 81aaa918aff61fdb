import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { FieldOpsFailure, nodeError } from '../transport/errors';
import { expectRecord, locatorValue } from '../lookups/records';
import { sendJson } from '../transport/transport';
import { label, matches, opening, page, readList } from './pages';

const TASKS = '/api/v4/integration/tasks';

/**
 * The project the lists of a work-order field are about: the Project chosen in the node, or (a work order given
 * by ID, where the node asks for no project) the project of that work order, read once.
 */
async function projectOfEditor(context: ILoadOptionsFunctions): Promise<{ mode: string; value: string }> {
	const project = locatorValue(context.getCurrentNodeParameter('project', { extractValue: false }));
	if (project.value) return project;
	const workOrder = locatorValue(context.getCurrentNodeParameter('workOrder', { extractValue: false }));
	if (workOrder.value && workOrder.mode !== 'externalId' && !workOrder.value.startsWith('=')) {
		try {
			const task = expectRecord(
				await sendJson(context, {
					method: 'GET',
					path: `${TASKS}/{id}`,
					params: { id: { label: 'Work Order', value: workOrder.value } },
					what: 'work order',
				}),
				'work order',
			);
			if (typeof task.projectId === 'string' && task.projectId) return { mode: 'id', value: task.projectId };
		} catch (error) {
			throw nodeError(context.getNode(), error);
		}
	}
	throw nodeError(
		context.getNode(),
		new FieldOpsFailure(
			'Choose the Project first',
			'This list shows the work orders of the project chosen above (or of the work order given by ID).',
		),
	);
}

/** The work orders of that project (read when a list opens, see readList). */
async function workOrdersOfEditor(context: ILoadOptionsFunctions, fresh: boolean): Promise<IDataObject[]> {
	const { mode, value } = await projectOfEditor(context);
	return await readList(
		context,
		'work order',
		{
			method: 'GET',
			path: mode === 'projectNumber' ? `${TASKS}/by-project-number/{project}` : `${TASKS}/project/{project}`,
			params: { project: { label: 'Project', value } },
		},
		fresh,
	);
}

/** Work orders of the project chosen in the same node. */
export async function searchWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const workOrders = await workOrdersOfEditor(this, opening(filter, paginationToken));
	return page(
		workOrders
			.filter((w) => matches(filter, w.name, w.externalId, w.workDescriptionShort))
			.map((w) => ({ name: label(w.externalId, w.name), value: String(w.id) })),
		paginationToken,
	);
}

/** Work orders of the project that can hold sub-orders: those marked as parents first, then the others. */
export async function searchParentWorkOrders(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const workOrders = (await workOrdersOfEditor(this, opening(filter, paginationToken))).filter((w) =>
		matches(filter, w.name, w.externalId, w.workDescriptionShort),
	);
	const parentsFirst = [
		...workOrders.filter((w) => w.isParent === true),
		...workOrders.filter((w) => w.isParent !== true),
	];
	return page(
		parentsFirst.map((w) => ({
			name: label(w.externalId, w.name, w.isParent === true ? '(parent)' : ''),
			value: String(w.id),
		})),
		paginationToken,
	);
}

/**
 * The values of one field already used on the project's work orders, most used first. Field Ops lists no units
 * or chapters (the spec names no such route), so these are the ones its own work orders show.
 */
function inUse(field: string) {
	return async function (
		this: ILoadOptionsFunctions,
		filter?: string,
		paginationToken?: string,
	): Promise<INodeListSearchResult> {
		const counts = new Map<string, number>();
		for (const workOrder of await workOrdersOfEditor(this, opening(filter, paginationToken))) {
			const value = workOrder[field];
			if ((typeof value === 'string' && value !== '') || typeof value === 'number')
				counts.set(String(value), (counts.get(String(value)) ?? 0) + 1);
		}
		const results: INodeListSearchItems[] = [...counts]
			.filter(([value]) => matches(filter, value))
			.sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
			.map(([value, count]) => ({
				name: `${value} (on ${count} work order${count === 1 ? '' : 's'})`,
				value,
			}));
		return page(results, paginationToken);
	};
}

export const searchUnits = inUse('unitId');
export const searchChapters = inUse('chapterId');
