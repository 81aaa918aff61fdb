import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { nodeError } from './errors';

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
}

/** Records as output items (pairing is added by {@link forEachItem}). */
export const asItems = (records: IDataObject | IDataObject[]): INodeExecutionData[] =>
	(Array.isArray(records) ? records : [records]).map((json) => ({ json }));

/**
 * Runs `work` for every input item, in order, and pairs each output with its item. A failed item stops the node,
 * or with Continue On Fail becomes an error item while the others go on.
 */
export async function forEachItem(
	context: IExecuteFunctions,
	work: (item: Item) => Promise<INodeExecutionData[]>,
): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const count = context.getInputData().length;
	for (let index = 0; index < count; index++) {
		try {
			for (const entry of await work(new Item(context, index)))
				output.push({ ...entry, pairedItem: { item: index } });
		} catch (error) {
			const failure = nodeError(context.getNode(), error, index);
			if (!context.continueOnFail()) throw failure;
			output.push({ json: { error: failure.message }, error: failure, pairedItem: { item: index } });
		}
	}
	return [output];
}
