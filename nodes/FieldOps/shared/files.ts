import type { IBinaryData, IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import type { Field } from './fields';
import { forEachItem, type Item } from './items';
import { readSettings } from './settings';
import { send, type ApiRequest } from './transport';

/** The file name a Content-Disposition header carries (RFC 6266/5987 `filename*` preferred). */
export function fileNameFromDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
	if (extended) {
		try {
			return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
		} catch {
			// fall through to the plain filename
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
	return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

/** Whether a link from an answer lies under one of the credential's addresses (only those get the token). */
export async function isOwnUrl(context: IExecuteFunctions, url: string): Promise<boolean> {
	return (await readSettings(context)).isOwn(url);
}

/** A file of the Field Ops API (a path, or a link from an answer) into n8n's binary store, streamed. */
export async function downloadFile(
	context: IExecuteFunctions,
	request: Pick<ApiRequest, 'path' | 'params' | 'qs' | 'url' | 'what' | 'itemIndex' | 'timeoutMs'>,
	fallbackName: string,
): Promise<IBinaryData> {
	const response = await send(context, { method: 'GET', what: 'file', ...request, expect: 'stream' });
	const fileName = fileNameFromDisposition(response.headers['content-disposition']) ?? fallbackName;
	const contentType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	const mimeType = contentType && contentType !== 'application/octet-stream' ? contentType : undefined;
	return await context.helpers.prepareBinaryData(response.body as Buffer, fileName, mimeType);
}

export interface FileToDownload {
	request: Pick<ApiRequest, 'path' | 'params' | 'qs' | 'what' | 'timeoutMs'>;
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
		const binary = await downloadFile(context, { ...request, itemIndex: item.index }, fallbackName);
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
