import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { failureDetails, nodeError } from '../transport/errors';

// Lookups several items need (the project of a work order): once per node run, not once per item.
const runMemo = new WeakMap<IExecuteFunctions, Map<string, Promise<unknown>>>();

/** One input item of an execution: its parameters, by the item's own index. */
export class Item {
	private readonly memo = new Map<string, Promise<unknown>>();

	constructor(
		readonly context: IExecuteFunctions,
		readonly index: number,
	) {}

	/** The parameter as n8n resolved it for this item (resource locators whole); null when it is not set or not shown. */
	param<T = unknown>(name: string): T | null {
		const value = this.context.getNodeParameter(name, this.index, null, { extractValue: false }) as
			| T
			| undefined;
		return value === undefined ? null : value;
	}

	/** An error about this item's input, naming the field: nothing was sent. */
	refuse(message: string, description?: string): NodeOperationError {
		return new NodeOperationError(this.context.getNode(), message, { description, itemIndex: this.index });
	}

	/** Computes a value once per item (a lookup several fields need). */
	async once<T>(key: string, compute: () => Promise<T>): Promise<T> {
		let value = this.memo.get(key) as Promise<T> | undefined;
		if (!value) {
			value = compute();
			this.memo.set(key, value);
		}
		return await value;
	}

	/** Computes a value once per node run, for every item that needs it; a failure is tried again by the next item. */
	async shared<T>(key: string, compute: () => Promise<T>): Promise<T> {
		let memo = runMemo.get(this.context);
		if (!memo) runMemo.set(this.context, (memo = new Map()));
		let value = memo.get(key) as Promise<T> | undefined;
		if (!value) {
			value = compute();
			memo.set(key, value);
			value.catch(() => memo.delete(key));
		}
		return await value;
	}
}

/** Records as output items (pairing is added by {@link forEachItem}). */
export const asItems = (records: IDataObject | IDataObject[]): INodeExecutionData[] =>
	(Array.isArray(records) ? records : [records]).map((json) => ({ json }));

export interface ItemLoopOptions {
	/** Each item changes data in Field Ops: a failure says which items were done before it ("saved", "deleted"). */
	writes?: { what: string; done: string };
	/** The labels of the operation's fields by the API's names for them, to name fields in the API's errors. */
	labels?: Record<string, string>;
}

/** The user's number of an item: n8n counts from 0, people (and our messages) from 1. */
export const itemNumber = (index: number) => index + 1;

/**
 * An item as a message names it: by the user's number; among several items also by n8n's index, because n8n's
 * editor appends "[item <index>]" to a message that does not contain "item <index>".
 */
export const itemName = (index: number, count: number) =>
	count > 1 ? `item ${itemNumber(index)} (n8n: item ${index})` : `item ${itemNumber(index)}`;

const IDENTIFYING = [
	'externalId',
	'machineNumber',
	'projectNumber',
	'employeeNumber',
	'certificateType',
	'name',
];

/** A saved record in a few words: its number or name, and its ID. */
function describeRecord(json: IDataObject | undefined): string {
	if (!json) return '';
	const key = IDENTIFYING.find((name) => typeof json[name] === 'string' && json[name] !== '');
	const parts = [key ? String(json[key]) : '', typeof json.id === 'string' ? `ID ${json.id}` : ''];
	return parts.filter(Boolean).join(', ');
}

function range(numbers: number[]): string {
	if (numbers.length === 1) return `Item ${numbers[0]} was`;
	const consecutive = numbers.every((n, i) => i === 0 || n === numbers[i - 1] + 1);
	return consecutive
		? `Items ${numbers[0]}–${numbers[numbers.length - 1]} were`
		: `Items ${numbers.join(', ')} were`;
}

/** What was done before a failure, and how to go on without doing it twice. */
function partialSaveNote(
	writes: { what: string; done: string },
	done: Array<{ index: number; json?: IDataObject }>,
	failed: number,
) {
	const numbers = done.map((entry) => itemNumber(entry.index));
	const first = describeRecord(done[0].json);
	const last = done.length > 1 ? describeRecord(done[done.length - 1].json) : '';
	const which = last ? ` (first: ${first || '?'}; last: ${last})` : first ? ` (${writes.what} ${first})` : '';
	return [
		`${range(numbers)} ${writes.done} before this failure${which}; item ${itemNumber(failed)} and the items after it were not sent.`,
		`Running the node again sends ${numbers.length === 1 ? 'that item' : 'those items'} again. To continue, fix item ${itemNumber(failed)} and run only it and the items after it, or set the node’s Settings → On Error to "Continue" so that every item that can be ${writes.done} is, and the failed ones are listed.`,
	].join('\n');
}

/** An API name used for a field in a text, replaced by the field's label ("externalId" → "External ID"). */
function withLabels(text: string, fields: string[], labels: Record<string, string>): string {
	return fields.reduce((result, field) => {
		if (!labels[field]) return result;
		const name = new RegExp(`\\b${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g');
		return result.replace(name, labels[field]);
	}, text);
}

/**
 * The error of one item as the user reads it: fields by their labels, the item by its number (from 1, also where
 * n8n's own helpers or editor would write "[item 0]"), and what was already done.
 */
function describeFailure(
	context: IExecuteFunctions,
	error: unknown,
	index: number,
	options: ItemLoopOptions,
	done: Array<{ index: number; json?: IDataObject }>,
) {
	const failure = nodeError(context.getNode(), error, index);
	const fields = failureDetails(error)
		.map((detail) => detail.field)
		.filter((field): field is string => typeof field === 'string' && field !== '');
	const labels = options.labels ?? {};
	let message = withLabels(failure.message, fields, labels).replace(/\s*\[item \d+[^\]]*\]/g, '');
	let description = withLabels(failure.description ?? '', fields, labels);
	// The item is named by the user's number (from 1); n8n keeps its own index (from 0). n8n's editor appends
	// "[item <index>]" to a message that does not contain "item <index>": the message says both, n8n's marked.
	const count = context.getInputData().length;
	if (count > 1) message = `${message} [${itemName(index, count)}]`;
	failure.context.itemIndex = index;
	if (options.writes && done.length > 0)
		description = [description, partialSaveNote(options.writes, done, index)].filter(Boolean).join('\n\n');
	failure.message = message;
	failure.description = description || null;
	return failure;
}

/**
 * Runs `work` for every input item, in order, and pairs each output with its item. A failed item stops the node
 * (saying which items were already written), or with Continue On Fail becomes an error item while the others go on.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	work: (item: Item) => Promise<INodeExecutionData[]>,
	options: ItemLoopOptions = {},
): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const done: Array<{ index: number; json?: IDataObject }> = [];
	const count = context.getInputData().length;
	for (let index = 0; index < count; index++) {
		try {
			const entries = await work(new Item(context, index));
			for (const entry of entries) output.push({ ...entry, pairedItem: { item: index } });
			done.push({ index, json: entries[0]?.json });
		} catch (error) {
			const failure = describeFailure(context, error, index, options, done);
			if (!context.continueOnFail()) throw failure;
			output.push({ json: { error: failure.message }, error: failure, pairedItem: { item: index } });
		}
	}
	return [output];
}
