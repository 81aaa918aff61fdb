import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { bodyField, optionsCollection, type Field } from '../../shared/fields';
import { asItems, forEachItem, type Item } from '../../shared/items';
import { fromFields, type CodeOperation } from '../../shared/operation';
import { sendJson, timeoutField, timeoutOf } from '../../shared/transport';
import { DOCUMENT_REQUESTS, documentsOf, TARGET_FIELDS } from './fields';
import { filePart, multipartBody, type FilePart } from './multipart';

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

const binarySource: Field = {
	property: {
		displayName: 'Files to Upload',
		name: 'binarySource',
		type: 'options',
		options: [
			{
				name: 'All Files of the Item',
				value: 'all',
				description: 'Every binary property, e.g. all e-mail attachments',
			},
			{
				name: 'Named Fields',
				value: 'single',
				description: 'One binary property, or several separated by commas',
			},
		],
		default: 'single',
	},
};

const binaryPropertyName: Field = {
	property: {
		displayName: 'Input Binary Field(s)',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		displayOptions: { show: { binarySource: ['single'] } },
		placeholder: 'e.g. data or attachment_0, attachment_1',
		hint: 'The name of the binary field holding the file; several separated by commas',
	},
};

const options = optionsCollection('Options', 'options', [
	bodyField(
		'Replace Existing Files With Same Name',
		'replaceExistingFilesWithSameName',
		'boolean',
		'Whether a file with the same name on the page is replaced instead of kept beside the new one',
		{},
		'query',
	),
	{
		...bodyField(
			'Section',
			'section',
			'string',
			'Name of the page (section) on the information page. Empty: the default Documents page for a project; for a work order Field Ops picks the work order’s number or short description.',
			{},
			'query',
		),
		value: (raw) => (raw === '' ? undefined : raw),
	},
]);

/** Which binary properties of the item to send. */
function propertiesOf(item: Item, input: INodeExecutionData): string[] {
	const available = Object.keys(input.binary ?? {});
	const wanted =
		item.param('binarySource') === 'all'
			? available
			: String(item.param('binaryPropertyName') ?? 'data')
					.split(',')
					.map((name) => name.trim())
					.filter(Boolean);
	const missing = wanted.filter((name) => !available.includes(name));
	if (wanted.length === 0 || missing.length > 0) {
		throw item.refuse(
			wanted.length === 0
				? 'The item has no file to upload'
				: `The item has no file in "${missing.join('", "')}"`,
			available.length
				? `Its files are in: ${available.join(', ')}.`
				: 'The item carries no binary data at all: check the node before this one.',
		);
	}
	return wanted;
}

/**
 * Upload: every chosen binary of an item goes as one `file` part of ONE multipart request, with its name and
 * MIME type; files of the filesystem binary mode are streamed from disk, never held in memory.
 */
export const upload: CodeOperation = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload documents or e-mail attachments',
	description: 'Upload the files of each item (e.g. e-mail attachments) to a project or work order',
	fields: [...TARGET_FIELDS, binarySource, binaryPropertyName, options, timeoutField],
	requests: DOCUMENT_REQUESTS('POST'),
	execute: async (context) => {
		const inputs = context.getInputData();
		return await forEachItem(
			context,
			async (item) => {
				const parts: FilePart[] = [];
				for (const property of propertiesOf(item, inputs[item.index])) {
					const binary = context.helpers.assertBinaryData(item.index, property);
					parts.push(await filePart(context, item.index, property, fileNameOf(binary, property)));
				}
				const { qs } = await fromFields([options], item);
				const body = await sendJson<IDataObject>(context, {
					method: 'POST',
					...(await documentsOf(item)),
					qs,
					body: multipartBody(parts),
					what: 'document',
					itemIndex: item.index,
					timeoutMs: timeoutOf(item),
					// Only the upload result counts as success (a redirect, a web page or nothing is not one).
					expect: 'json',
					check: (answer) =>
						answer && typeof answer === 'object' && !Array.isArray(answer)
							? undefined
							: 'Field Ops answered the upload with something other than an upload result',
				});
				return asItems(body);
			},
			{ writes: { what: 'upload', done: 'uploaded' } },
		);
	},
};
