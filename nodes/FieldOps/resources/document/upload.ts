import { NodeOperationError, type IBinaryData, type IDataObject, type IExecuteFunctions, type IN8nHttpFullResponse, type INodeExecutionData } from 'n8n-workflow';

import { CREDENTIAL_TYPE } from '../../shared/constants';
import { asNodeError, fieldOpsApiError } from '../../shared/errors';
import { itemContext } from '../../shared/locators';
import { ensureFreshToken } from '../../shared/token';
import { apiBaseUrl } from '../../shared/transport';
import { filePart, multipartBody, type FilePart } from './multipart';
import { documentsPath } from './target';

/** A file name for a binary that has none, from its MIME type (the API needs a name for every file). */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'text/plain': 'txt',
	'text/csv': 'csv',
	'application/zip': 'zip',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

export function fileNameOf(binary: IBinaryData, property: string): string {
	if (binary.fileName) return binary.fileName;
	const extension = binary.fileExtension ?? EXTENSIONS[binary.mimeType] ?? 'bin';
	return `${property}.${extension}`;
}

/** Which binary properties of the item to send. */
function propertiesOf(context: IExecuteFunctions, item: INodeExecutionData, itemIndex: number): string[] {
	const mode = context.getNodeParameter('binarySource', itemIndex, 'single') as string;
	const available = Object.keys(item.binary ?? {});
	const wanted =
		mode === 'all'
			? available
			: String(context.getNodeParameter('binaryPropertyName', itemIndex, 'data'))
					.split(',')
					.map((name) => name.trim())
					.filter(Boolean);
	const missing = wanted.filter((name) => !available.includes(name));
	if (wanted.length === 0 || missing.length > 0) {
		throw new NodeOperationError(context.getNode(), wanted.length === 0 ? 'The item has no file to upload' : `The item has no file in "${missing.join('", "')}"`, {
			description: available.length ? `Its files are in: ${available.join(', ')}.` : 'The item carries no binary data at all: check the node before this one.',
			itemIndex,
		});
	}
	return wanted;
}

/**
 * Upload: every chosen binary of an item goes as one `file` part of ONE multipart request, with its name and
 * MIME type; files of the filesystem binary mode are streamed from disk, never held in memory. The token is
 * renewed first when close to expiry, so the files are not sent twice because of an expired token.
 */
export async function uploadDocuments(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const output: INodeExecutionData[] = [];
	const items = this.getInputData();
	const baseURL = await apiBaseUrl(this, 'core');
	for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
		try {
			const parts: FilePart[] = [];
			for (const property of propertiesOf(this, items[itemIndex], itemIndex)) {
				parts.push(await filePart(this, itemIndex, property, fileNameOf(this.helpers.assertBinaryData(itemIndex, property), property)));
			}
			const options = this.getNodeParameter('options', itemIndex, {}) as IDataObject;
			const qs: IDataObject = {};
			if (options.section) qs.section = options.section;
			if (options.replaceExistingFilesWithSameName) qs.replaceExistingFilesWithSameName = true;
			const single = itemContext(this, itemIndex);
			const url = await documentsPath(single);
			await ensureFreshToken(this);
			const response = (await this.helpers.httpRequestWithAuthentication.call(this, CREDENTIAL_TYPE, {
				method: 'POST',
				baseURL,
				url,
				qs,
				body: multipartBody(parts),
				// No redirects: the token stays with the Core API, and the redirect client would keep the whole body in memory to resend it.
				disableFollowRedirect: true,
				returnFullResponse: true,
				ignoreHttpStatusErrors: { ignore: true, except: [401] },
			})) as IN8nHttpFullResponse;
			if (response.statusCode >= 400) throw fieldOpsApiError(this.getNode(), response.statusCode, response.body, 'document', itemIndex);
			const body = typeof response.body === 'string' ? (JSON.parse(response.body) as IDataObject) : (response.body as IDataObject);
			output.push({ json: body, pairedItem: { item: itemIndex } });
		} catch (error) {
			if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
			output.push({ json: { error: (error as Error).message }, error: error as NodeOperationError, pairedItem: { item: itemIndex } });
		}
	}
	return [output];
}
