import type { IDataObject } from 'n8n-workflow';

import { batchSizeField, runBatched, type ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';
import { fromFields, type CodeOperation } from '../../shared/operation';
import { sendJson } from '../../shared/transport';
import { MACHINE_STATES, RECORD_FIELDS } from './fields';

const IMPORT = `${MACHINE_STATES}/import`;

/** The refused records of an import answer, by index (sandbox README: `{imported, failed: [{index, …}]}`). */
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

export const importStates: CodeOperation = {
	name: 'Import',
	value: 'import',
	action: 'Import machine-state records',
	description: 'Send one record per input item, in batches (one request per batch)',
	fields: [...RECORD_FIELDS, batchSizeField(10_000)],
	requests: [{ api: 'machineState', method: 'POST', path: IMPORT }],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine-state record',
			buildElement: async (item) => (await fromFields(RECORD_FIELDS, item)).body,
			send: async (elements) =>
				outcomes(
					await sendJson(context, {
						api: 'machineState',
						method: 'POST',
						path: IMPORT,
						body: elements,
						what: 'machine-state record',
					}),
					elements,
				),
		}),
};
