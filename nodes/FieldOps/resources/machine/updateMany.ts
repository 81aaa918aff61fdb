import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { batchSizeField, runBatched } from '../../operations/batch';
import { notice, on, shown } from '../../parameters/field';
import type { Item } from '../../items/items';
import { machineLocator } from '../../parameters/locators';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { bulkAnswerCheck, isItemised, itemisedOutcomes } from './bulk';
import { MACHINES, ONE_MACHINE, updateFields } from './common';
import { savedOutcomes } from './saved';

const UPDATE_ARRAY = `${MACHINES}/update/array`;
/** Set through Update ESG only, or stamped by Field Ops: never sent back. */
const NOT_SENT_BACK = new Set([
	'createdDateTime',
	'modifiedDateTime',
	'fuelConsumptionRate',
	'fuelConsumptionUnit',
	'fuelType',
]);

/** Which machine each item updates: by default the item's own `id`; a machine number is looked up. */
const machineOfItem = shown(
	on('machine', 'updateMany'),
	machineLocator({
		as: 'id',
		to: 'body',
		extra: {
			default: { mode: 'id', value: '={{ $json.id }}' },
			description: 'The machine each item updates: by default the item’s ID field; or its machine number',
		},
	}),
);
const batchSize = shown(on('machine', 'updateMany'), batchSizeField());
const readFirst = shown(
	on('machine', 'updateMany'),
	notice(
		'updateManyNotice',
		'Each machine is read first and sent complete with your changes, so fields you do not set keep their values.',
	),
);

/**
 * [M2] The spec does not say whether an element of update/array patches or replaces the machine: each is
 * sent complete (read, then the item's changes on top), which is right either way. The machine's other plain
 * values are sent back as read (the equipment link too, whose name the spec does not show).
 */
async function completeMachine(context: IExecuteFunctions, item: Item): Promise<IDataObject> {
	const changes = (await fromFields([machineOfItem, updateFields], item)).body;
	const current = await sendJson<IDataObject>(context, {
		method: 'GET',
		path: ONE_MACHINE,
		params: { machine: { label: 'Machine', value: changes.id } },
		what: 'machine',
		itemIndex: item.index,
	});
	return withChanges(current, changes);
}

/** The machine as read, its plain values kept, with the changes (and its `id`) on top: a complete element [M2]. */
export function withChanges(current: unknown, changes: IDataObject): IDataObject {
	const kept: IDataObject = {};
	for (const [name, value] of Object.entries(current && typeof current === 'object' ? current : {}))
		if (!NOT_SENT_BACK.has(name) && value !== null && typeof value !== 'object') kept[name] = value;
	return { ...kept, ...changes };
}

/** One update/array request: each element's outcome, however the answer itemises it [M1]. */
export async function sendUpdateArray(context: IExecuteFunctions, elements: IDataObject[]) {
	const answer = await sendJson(context, {
		method: 'PUT',
		path: UPDATE_ARRAY,
		body: elements,
		what: 'machine',
		check: bulkAnswerCheck('Machine → Update Many'),
	});
	return isItemised(answer) ? itemisedOutcomes(answer, elements) : savedOutcomes(answer, elements);
}

export const updateMany: CodeOperation = {
	name: 'Update Many',
	value: 'updateMany',
	action: 'Update many machines',
	description: 'Update one machine per input item, sending them in batches (one request per batch)',
	returns: 'one item per input item: the saved machine, or why it was not saved',
	fields: [machineOfItem, readFirst, updateFields, batchSize],
	requests: [
		{ method: 'GET', path: ONE_MACHINE },
		{ method: 'PUT', path: UPDATE_ARRAY },
	],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine',
			buildElement: async (item) => await completeMachine(context, item),
			send: async (elements) => await sendUpdateArray(context, elements),
		}),
};
