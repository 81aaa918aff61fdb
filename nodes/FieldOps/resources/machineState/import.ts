import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import {
	batchSizeField,
	runBatched,
	type ItemOutcome,
	refusedEntries,
	withoutEntry,
} from '../../operations/batch';
import { describeErrors, settle } from '../../transport/errors';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { MACHINE_STATES, RECORD_FIELDS } from './common';
import { on, shown } from '../../parameters/field';

const IMPORT = `${MACHINE_STATES}/import`;

/** The refused records of an import answer, by index (`{imported, failed: [{index, …}]}`); an empty answer: all in. */
function outcomes(answer: unknown, elements: IDataObject[]): ItemOutcome[] {
	const failed =
		(answer && typeof answer === 'object' ? (answer as { failed?: unknown }).failed : undefined) ?? [];
	const byIndex = new Map((Array.isArray(failed) ? failed : []).map((f: IDataObject) => [f.index, f]));
	return elements.map((element, index) => {
		const failure = byIndex.get(index);
		if (!failure) return { ok: true, json: { ...element, imported: true } };
		const message =
			describeErrors((failure.errors as never[]) ?? []).join('; ') || String(failure.message ?? 'refused');
		return { ok: false, message };
	});
}

/**
 * One POST per batch. [S3] A 400 naming some records refuses the whole import (a 400 saves nothing): those
 * records fail, the others are sent again once, so one bad record does not block the rest.
 */
async function sendBatch(context: IExecuteFunctions, elements: IDataObject[]): Promise<ItemOutcome[]> {
	const post = async (batch: IDataObject[]) =>
		await sendJson(context, {
			api: 'machineState',
			method: 'POST',
			path: IMPORT,
			body: batch,
			what: 'machine-state record',
		});
	const first = await settle(async () => await post(elements));
	if ('value' in first) return outcomes(first.value, elements);
	const byEntry = refusedEntries(first.error, elements.length);
	if (!byEntry) throw first.error;
	const retry = elements.flatMap((element, position) => (byEntry.has(position) ? [] : [element]));
	const retried = retry.length > 0 ? outcomes(await post(retry), retry) : [];
	let next = 0;
	return elements.map((_, position) => {
		const details = byEntry.get(position);
		if (!details) return retried[next++];
		return { ok: false, message: describeErrors(details.map(withoutEntry)).join('; ') || 'refused' };
	});
}

export const importStates: CodeOperation = {
	name: 'Import',
	value: 'import',
	action: 'Import machine (excavator) states',
	description: 'Send one record per input item, in batches (one request per batch)',
	returns: 'one item per input item: imported, or why not',
	fields: [...RECORD_FIELDS, shown(on('machineState', 'import'), batchSizeField(10_000))],
	requests: [{ api: 'machineState', method: 'POST', path: IMPORT }],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine-state record',
			buildElement: async (item) => (await fromFields(RECORD_FIELDS, item)).body,
			send: async (elements) => await sendBatch(context, elements),
		}),
};
