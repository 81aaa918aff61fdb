import type { IBinaryData, IDataObject, IExecuteFunctions, IN8nHttpFullResponse, INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';
import { asNodeError, fieldOpsApiError } from './errors';
import { ensureFreshToken } from './token';
import { apiBaseUrl } from './transport';

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

/**
 * Whether `url` lies under the credential's Core API address. File links come from API responses; a link to
 * any other place never gets the access token.
 */
export async function isCoreApiUrl(context: IExecuteFunctions, url: string): Promise<boolean> {
	let target: URL;
	let core: URL;
	try {
		target = new URL(url);
		core = new URL(`${await apiBaseUrl(context, 'core')}/`);
	} catch {
		return false;
	}
	return target.origin === core.origin && target.pathname.startsWith(core.pathname);
}

/** The text of a streamed error answer (small), so its message can be shown. */
async function streamText(body: unknown): Promise<string | undefined> {
	if (!body || typeof (body as AsyncIterable<Buffer>)[Symbol.asyncIterator] !== 'function') return undefined;
	let text = '';
	for await (const chunk of body as AsyncIterable<Buffer | string>) text += chunk.toString();
	return text;
}

/** Downloads an authenticated file URL of the Core API into n8n's binary store, streamed. */
export async function downloadCoreFile(
	context: IExecuteFunctions,
	url: string,
	fallbackName: string,
	itemIndex: number,
	what = 'file',
): Promise<IBinaryData> {
	await ensureFreshToken(context);
	const response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, {
		method: 'GET',
		url,
		encoding: 'stream',
		returnFullResponse: true,
		// A redirect to another host (file storage) must not carry the access token.
		sendCredentialsOnCrossOriginRedirect: false,
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
	})) as IN8nHttpFullResponse;
	if (response.statusCode >= 400) {
		throw fieldOpsApiError(context.getNode(), response.statusCode, await streamText(response.body), what, itemIndex);
	}
	const fileName = fileNameFromDisposition(response.headers['content-disposition']) ?? fallbackName;
	const contentType = String(response.headers['content-type'] ?? '')
		.split(';')[0]
		.trim();
	const mimeType = contentType && contentType !== 'application/octet-stream' ? contentType : undefined;
	return await context.helpers.prepareBinaryData(response.body as Buffer, fileName, mimeType);
}

/**
 * One download per input item (Document → Download, Lookup → Download File): the bytes into the item's binary
 * property, only what describes the file in json. With Continue On Fail a failed item carries its error and
 * the other files are still downloaded.
 */
export async function downloadPerItem(
	context: IExecuteFunctions,
	locate: (itemIndex: number) => Promise<{ url: string; fallbackName: string; what?: string; json: IDataObject }>,
): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	for (let itemIndex = 0; itemIndex < context.getInputData().length; itemIndex++) {
		try {
			const { url, fallbackName, what, json } = await locate(itemIndex);
			const property = context.getNodeParameter('binaryPropertyName', itemIndex, 'data') as string;
			const binary = await downloadCoreFile(context, url, fallbackName, itemIndex, what);
			output.push({
				json: { ...json, fileName: binary.fileName, mimeType: binary.mimeType, fileSize: binary.fileSize },
				binary: { [property]: binary },
				pairedItem: { item: itemIndex },
			});
		} catch (error) {
			if (!context.continueOnFail()) throw asNodeError(context.getNode(), error, itemIndex);
			output.push({ json: { error: (error as Error).message }, error: error as NodeOperationError, pairedItem: { item: itemIndex } });
		}
	}
	return [output];
}
