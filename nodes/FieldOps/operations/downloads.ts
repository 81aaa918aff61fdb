import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { forEachItem, type Item } from '../items/items';
import type { Field } from '../parameters/field';
import { timeoutOf } from '../parameters/limits';
import { downloadFile } from '../transport/download';
import type { ApiRequest } from '../transport/transport';

export interface FileToDownload {
	request: Pick<ApiRequest, 'path' | 'params' | 'qs' | 'what'>;
	fallbackName: string;
	/** What describes the file in the output item's json. */
	json: IDataObject;
}

/**
 * One download per input item (Document → Download, Lookup → Download File): the bytes into the item's binary
 * property, only what describes the file in json.
 */
export async function downloadPerItem(
	context: IExecuteFunctions,
	locate: (item: Item) => Promise<FileToDownload>,
): Promise<INodeExecutionData[][]> {
	return await forEachItem(context, async (item) => {
		const { request, fallbackName, json } = await locate(item);
		const property = String(item.param('binaryPropertyName') ?? 'data');
		const timeoutMs = timeoutOf(item);
		const binary = await downloadFile(
			context,
			{ ...request, itemIndex: item.index, timeoutMs },
			fallbackName,
		);
		return [
			{
				json: { ...json, fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize },
				binary: { [property]: binary },
			},
		];
	});
}

/** "Put File In Field": the binary property a download goes to. */
export const putFileInField = (description: string): Field => ({
	property: {
		displayName: 'Put File In Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		description,
	},
});
