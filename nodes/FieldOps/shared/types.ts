import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

export type CustomOperation = (this: IExecuteFunctions) => Promise<INodeExecutionData[][]>;

/** One resource of the node: its option in the Resource list, its fields, and any operations run as code. */
export interface ResourceModule {
	name: string;
	value: string;
	description: string;
	properties: INodeProperties[];
	/** Operations that need code (batching, streaming, pagination with a limit), by operation value. */
	customOperations?: Record<string, CustomOperation>;
}
