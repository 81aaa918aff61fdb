import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { batchSizeField, batchSizeOf, type ItemOutcome } from '../../operations/batch';
import { on, shown, notice } from '../../parameters/field';
import { FieldOpsFailure, settle } from '../../transport/errors';
import { LOOKUP_PATHS } from '../../lookups/records';
import { recordId } from '../../lookups/numbers';
import { fromFields, type CodeOperation } from '../../operations/operation';
import {
	byKeyNumber,
	fieldsForUpsert,
	numberKey,
	onlyChangesField,
	runUpsert,
	type UpsertSpec,
	type Written,
} from '../../operations/upsert';
import { sendCreateArray } from './createMany';
import { MACHINES, NEW_MACHINE_FIELDS } from './common';
import { sendUpdateArray, withChanges } from './updateMany';

const ON = on('machine', 'upsert');
const CREATE_ARRAY = `${MACHINES}/create/array`;
const UPDATE_ARRAY = `${MACHINES}/update/array`;

/** Create's fields: the machine number is the key; the company says where a new machine goes. */
const FIELDS = fieldsForUpsert(ON, NEW_MACHINE_FIELDS, {
	keys: {
		machineNumber: {
			displayName: 'Machine Number to Match On',
			description:
				'The machine number that identifies the machine or equipment (unique within its company): the machine with this number is updated; if there is none, a new one is created with it',
			placeholder: 'e.g. M120',
		},
	},
	createOnly: {
		companyId:
			'The company the machine belongs to: a new machine is created in it, and an existing one is looked for in it. Empty: your own company.',
	},
});
const KEY = FIELDS.find((field) => field.property.name === 'machineNumber') ?? FIELDS[0];

/**
 * A bulk outcome as a write's result. "Saved, but the answer does not say which" (`success: null`) is not a success:
 * the item must not say created or updated [M1].
 */
function written(outcome: ItemOutcome | undefined): Written {
	if (!outcome) return { ok: false, error: new FieldOpsFailure('Field Ops gave no result for this machine') };
	if (!outcome.ok) return { ok: false, error: new FieldOpsFailure(outcome.message, outcome.description) };
	const { success, result, ...record } = outcome.json;
	if (success !== true)
		return {
			ok: false,
			error: new FieldOpsFailure(
				String(result ?? 'Field Ops did not say whether it saved this machine'),
				'Run the node again: it finds what was saved and writes only what still differs.',
			),
		};
	return { ok: true, record, id: recordId(record) };
}

/** The entries in batches of the node's Batch Size, one request per batch; a failed request fails its batch. */
async function inBatches<E>(
	context: IExecuteFunctions,
	entries: E[],
	send: (elements: IDataObject[]) => Promise<ItemOutcome[]>,
	element: (entry: E) => IDataObject,
): Promise<Written[]> {
	const size = batchSizeOf(context);
	const results: Written[] = [];
	for (let start = 0; start < entries.length; start += size) {
		const batch = entries.slice(start, start + size);
		const sent = await settle(async () => await send(batch.map(element)));
		results.push(
			...batch.map((_, position) =>
				'error' in sent ? { ok: false as const, error: sent.error } : written(sent.value[position]),
			),
		);
	}
	return results;
}

const spec: UpsertSpec = {
	what: 'machine',
	fields: FIELDS,
	createOnly: ['companyId'],
	keyOf: async (item) => numberKey(item, KEY, 'machine', true),
	lookUp: byKeyNumber('machineNumber', {
		what: 'machine',
		list: { path: MACHINES },
		byNumber: { path: LOOKUP_PATHS.machineByNumber, param: 'machineNumber', label: 'Machine' },
		numberOf: (record) => record.machineNumber,
	}),
	createBody: async ({ item }) => (await fromFields(FIELDS, item)).body,
	create: async (context, entries) =>
		await inBatches(
			context,
			entries,
			async (elements) => await sendCreateArray(context, elements),
			(entry) => entry.body,
		),
	// update/array takes the complete machine: as read, with the changes on top [M2].
	update: async (context, entries) =>
		await inBatches(
			context,
			entries,
			async (elements) => await sendUpdateArray(context, elements),
			({ record, changes }) => withChanges(record, { ...changes, id: record.id }),
		),
	idOf: (record) => recordId(record),
};

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a machine',
	description: 'Create a new machine, or update the current one if it already exists (upsert)',
	returns:
		'one item per input item: result (created, updated or unchanged), the machine’s id, changedFields, and the machine as Field Ops holds it; or the error',
	fields: [
		KEY,
		shown(
			ON,
			notice(
				'upsertNotice',
				'A machine with this number gets the fields below that differ from Field Ops (empty fields are left alone); without one, a new machine is created. New and changed machines are sent in batches (one request per batch).',
			),
		),
		...FIELDS.filter((field) => field !== KEY),
		onlyChangesField(ON),
		shown(ON, batchSizeField()),
	],
	requests: [
		{ method: 'GET', path: MACHINES },
		{ method: 'GET', path: LOOKUP_PATHS.machineByNumber },
		{ method: 'POST', path: CREATE_ARRAY },
		{ method: 'PUT', path: UPDATE_ARRAY },
	],
	execute: async (context) => await runUpsert(context, spec),
};
