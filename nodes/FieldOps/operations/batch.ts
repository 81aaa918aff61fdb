import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { failureDetails, nodeError } from '../transport/errors';
import type { Field } from '../parameters/field';
import { Item, itemName } from '../items/items';

export type ItemOutcome =
	| { ok: true; json: IDataObject }
	| { ok: false; message: string; description?: string };

export interface BatchSpec {
	/** Builds the request element for one input item; throwing marks only that item as failed (no request). */
	buildElement(item: Item): IDataObject | Promise<IDataObject>;
	/** Sends one batch in ONE request and answers one outcome per element, in order. */
	send(elements: IDataObject[]): Promise<ItemOutcome[]>;
	/** What an item is, for messages ("machine"). */
	what: string;
}

export const DEFAULT_BATCH_SIZE = 100;

/** The "Batch Size" option of batched operations. */
export function batchSizeField(max = 1000): Field {
	const property: INodeProperties = {
		displayName: 'Batch Size',
		name: 'batchSize',
		type: 'number',
		default: DEFAULT_BATCH_SIZE,
		typeOptions: { minValue: 1, maxValue: max },
		description: 'How many input items are sent in one request. Each item still gets its own result.',
	};
	return { property };
}

/** The node's Batch Size (read once per run, the same for every item); the default where it is not a whole number of 1 or more. */
export function batchSizeOf(context: IExecuteFunctions): number {
	const raw = Number(context.getNodeParameter('batchSize', 0, DEFAULT_BATCH_SIZE));
	return Number.isInteger(raw) && raw >= 1 ? raw : DEFAULT_BATCH_SIZE;
}

/**
 * Runs a batched operation: input items are sent in batches of `batchSize`, one request per batch, and each
 * output item is the result of its own input item (paired). A failed item does not fail the others: with
 * "Continue On Fail" it becomes an error item, otherwise the node stops at the first failure after the
 * whole batch was sent, saying how many others were saved.
 */
export async function runBatched(
	context: IExecuteFunctions,
	spec: BatchSpec,
): Promise<INodeExecutionData[][]> {
	const items = context.getInputData();
	const batchSize = batchSizeOf(context);
	const outcomes: ItemOutcome[] = new Array(items.length);

	for (let start = 0; start < items.length; start += batchSize) {
		const elements: IDataObject[] = [];
		const indexes: number[] = [];
		for (let itemIndex = start; itemIndex < Math.min(start + batchSize, items.length); itemIndex++) {
			try {
				elements.push(await spec.buildElement(new Item(context, itemIndex)));
				indexes.push(itemIndex);
			} catch (error) {
				const failure = nodeError(context.getNode(), error, itemIndex);
				outcomes[itemIndex] = {
					ok: false,
					message: failure.message,
					description: failure.description ?? undefined,
				};
			}
		}
		if (elements.length === 0) continue;
		try {
			const results = await spec.send(elements);
			indexes.forEach((itemIndex, position) => {
				outcomes[itemIndex] = results[position] ?? {
					ok: false,
					message: `Field Ops returned no result for this ${spec.what}`,
				};
			});
		} catch (error) {
			// The whole request failed (network, 401, 5xx): every item of this batch failed the same way.
			const failure = nodeError(context.getNode(), error);
			if (!context.continueOnFail()) throw failure;
			for (const itemIndex of indexes)
				outcomes[itemIndex] = {
					ok: false,
					message: failure.message,
					description: failure.description ?? undefined,
				};
		}
	}

	const succeeded = outcomes.filter((o) => o.ok).length;
	const failure = (itemIndex: number, outcome: Extract<ItemOutcome, { ok: false }>) =>
		new NodeOperationError(
			context.getNode(),
			`${spec.what[0].toUpperCase()}${spec.what.slice(1)} of ${itemName(itemIndex, items.length)} failed: ${outcome.message}`,
			{
				itemIndex,
				description: [
					outcome.description,
					succeeded > 0 ? `The other ${succeeded} item(s) were saved.` : undefined,
				]
					.filter(Boolean)
					.join('\n'),
			},
		);
	if (!context.continueOnFail()) {
		const failedIndex = outcomes.findIndex((outcome) => !outcome.ok);
		const failed = outcomes[failedIndex];
		if (failed && !failed.ok) throw failure(failedIndex, failed);
	}
	return [
		outcomes.map((outcome, itemIndex) => {
			if (outcome.ok) return { json: outcome.json, pairedItem: { item: itemIndex } };
			const error = failure(itemIndex, outcome);
			return { json: { error: error.message }, error, pairedItem: { item: itemIndex } };
		}),
	];
}

/** A 400 refusal of a whole batch, read per entry (the operations that map it onto their items). */

export interface EntryDetail {
	code?: string;
	field?: string;
	message?: string;
}

/** The entry position an error points at, when its field names one (`[2].employeeNumber`, `certificates[2]…`, `2.employeeNumber`). */
export function entryOf(detail: EntryDetail): number | undefined {
	const match = /(?:^|\[)(\d+)(?:\]|\.)/.exec(detail.field ?? '');
	return match ? Number(match[1]) : undefined;
}

/**
 * The entries a 400 refusal of a whole batch names, with their details; undefined when the error is not such a
 * refusal or names no entry (then every entry failed for the same reason).
 */
export function refusedEntries(error: unknown, count: number): Map<number, EntryDetail[]> | undefined {
	if (!(error instanceof NodeApiError) || String(error.httpCode) !== '400') return undefined;
	const byEntry = new Map<number, EntryDetail[]>();
	for (const detail of failureDetails(error)) {
		const entry = entryOf(detail);
		if (entry !== undefined && entry < count) byEntry.set(entry, [...(byEntry.get(entry) ?? []), detail]);
	}
	return byEntry.size > 0 ? byEntry : undefined;
}

/** A detail's field without its entry prefix (`[2].endTime` → `endTime`). */
export const withoutEntry = (detail: EntryDetail): EntryDetail => ({
	...detail,
	field: detail.field?.replace(/^.*?\]?\./, ''),
});
