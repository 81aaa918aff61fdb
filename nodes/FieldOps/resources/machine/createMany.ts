import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { batchSizeField, runBatched } from '../../operations/batch';
import { settle } from '../../transport/errors';
import { notice, on, shown } from '../../parameters/field';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { bulkAnswerCheck, isItemised, itemisedOutcomes } from './bulk';
import { MACHINES, NEW_MACHINE_FIELDS } from './common';
import { savedOutcomes } from './saved';

const CREATE_ARRAY = `${MACHINES}/create/array`;
const batchSize = shown(on('machine', 'createMany'), batchSizeField());
const onePerItem = shown(
	on('machine', 'createMany'),
	notice(
		'createManyNotice',
		'Makes one machine per input item: give the fields from the input (drag them in, or an expression such as {{ $json.number }}). The items are sent in batches; each gets its own result.',
	),
);

/** The machines as listed now, to name the ids of a bare answer [M1]; nothing when the list cannot be read. */
async function machinesNow(context: IExecuteFunctions): Promise<IDataObject[]> {
	const read = await settle(
		async () => await sendJson(context, { method: 'GET', path: MACHINES, what: 'machine' }),
	);
	return 'value' in read && Array.isArray(read.value) ? (read.value as IDataObject[]) : [];
}

/** One create/array request: each element's outcome, however the answer itemises it [M1]. */
export async function sendCreateArray(context: IExecuteFunctions, elements: IDataObject[]) {
	const answer = await sendJson(context, {
		method: 'POST',
		path: CREATE_ARRAY,
		body: elements,
		what: 'machine',
		check: bulkAnswerCheck('Machine → Create Many'),
	});
	if (isItemised(answer)) return itemisedOutcomes(answer, elements);
	// A bare list: ids do not say which machine they are, the list does (by machine number).
	const named =
		Array.isArray(answer) &&
		answer.length === elements.length &&
		answer.every((entry: IDataObject) => entry?.machineNumber !== undefined);
	return savedOutcomes(answer, elements, Array.isArray(answer) && !named ? await machinesNow(context) : []);
}

export const createMany: CodeOperation = {
	name: 'Create Many',
	value: 'createMany',
	action: 'Create one machine per input item',
	description: 'Create one machine per input item, sending them in batches (one request per batch)',
	returns: 'one item per input item: the saved machine with its ID, or why it was not saved',
	fields: [onePerItem, ...NEW_MACHINE_FIELDS, batchSize],
	requests: [
		{ method: 'POST', path: CREATE_ARRAY },
		{ method: 'GET', path: MACHINES },
	],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine',
			buildElement: async (item) => (await fromFields(NEW_MACHINE_FIELDS, item)).body,
			send: async (elements) => await sendCreateArray(context, elements),
		}),
};
