import type { IDataObject, IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { FieldOpsFailure, nodeError, settle, shortText } from '../../transport/errors';
import { bodyField, optionsCollection, type Field, on, shown } from '../../parameters/field';
import { forEachItem, type Item } from '../../items/items';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import { DOCUMENT_REQUESTS, documentsOf, fileTimeout, TARGET_FIELDS } from './common';
import { fileNameOf, filePart, multipartBody, type ItemFile } from './multipart';
import { timeoutOf } from '../../parameters/limits';

export { fileNameOf };

const SOURCE_OPTIONS = [
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
];

/** Files to Upload: every file of the item from node version 1.1; version 1 keeps the field named "data". */
const binarySources: Field[] = (
	[
		[1, 'single'],
		[{ _cnd: { gte: 1.1 } }, 'all'],
	] as const
).map(([version, value]) => ({
	property: {
		displayName: 'Files to Upload',
		name: 'binarySource',
		type: 'options',
		options: SOURCE_OPTIONS,
		default: value,
		displayOptions: { show: { '@version': [version] } },
	} as INodeProperties,
}));

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

/** What an item without any file gives: not an error (an e-mail without attachments), and it says so. */
export const NO_ATTACHMENT = {
	noAttachment: true,
	message: 'No attachment: the item has no file, so nothing was uploaded',
};

/** Which binary properties of the item to send; none when the item carries no file at all. */
function propertiesOf(item: Item, input: INodeExecutionData): string[] {
	const available = Object.keys(input.binary ?? {});
	if (available.length === 0) return [];
	const wanted =
		item.param('binarySource') === 'all'
			? available
			: String(item.param('binaryPropertyName') ?? 'data')
					.split(',')
					.map((name) => name.trim())
					.filter(Boolean);
	const missing = wanted.filter((name) => !available.includes(name));
	if (wanted.length === 0 || missing.length > 0)
		throw item.refuse(
			wanted.length === 0
				? 'Input Binary Field(s) is empty'
				: `The item has no file in "${missing.join('", "')}"`,
			`Its files are in: ${available.join(', ')}. Name those, or choose Files to Upload: All Files of the Item.`,
		);
	return wanted;
}

/** The upload result for one file, or a failure in the service's words: `successful: false` is never a success. */
function acceptedOrFailure(answer: IDataObject): IDataObject {
	const said = shortText(answer.message);
	if (answer.successful === false || answer.successful === 'false')
		throw new FieldOpsFailure(
			`Field Ops did not accept the file${said ? `: ${said}` : ''}`,
			'Field Ops answered the upload with "successful: false" and created no document.',
		);
	return answer;
}

const listed = (names: string[]) => names.map((name) => `"${name}"`).join(', ');

/** A failed file as the user reads it: which file, why, and (when the node stops) what else of the item was sent. */
function fileFailure(
	error: unknown,
	file: ItemFile,
	uploaded: string[],
	unsent: string[],
	stopping: boolean,
) {
	const { message, description, httpCode } = error as {
		message?: string;
		description?: string | null;
		httpCode?: string | number | null;
	};
	const parts = [
		description ?? '',
		stopping && uploaded.length ? `Uploaded before it from this item: ${listed(uploaded)}.` : '',
		stopping && unsent.length ? `Not sent: ${listed(unsent)}.` : '',
	];
	return new FieldOpsFailure(
		`"${file.name}" was not uploaded: ${message ?? 'unknown error'}`,
		parts.filter(Boolean).join('\n\n'),
		httpCode === undefined || httpCode === null || httpCode === '' ? undefined : Number(httpCode),
	);
}

/** What names a file in the output: the name it was sent under, its property, and its own name if that differed. */
const describe = (file: ItemFile): IDataObject => ({
	fileName: file.name,
	binaryPropertyName: file.property,
	...(file.originalName !== undefined && file.originalName !== file.name
		? { originalFileName: file.originalName }
		: {}),
});

async function uploadItem(context: IExecuteFunctions, item: Item, input: INodeExecutionData) {
	const properties = propertiesOf(item, input);
	if (properties.length === 0) return [{ json: { ...NO_ATTACHMENT } }];
	const files = properties.map((property) => {
		const binary = context.helpers.assertBinaryData(item.index, property);
		return { property, binary, name: fileNameOf(binary, property), originalName: binary.fileName };
	});
	// Where the files go: a project that cannot be found fails every file of the item.
	const target = await settle(async () => ({
		documents: await documentsOf(item),
		qs: (await fromFields([options], item)).qs,
		timeoutMs: timeoutOf(item),
	}));
	const results: INodeExecutionData[] = [];
	const uploaded: string[] = [];
	for (const [position, file] of files.entries()) {
		const sent =
			'error' in target
				? target
				: await settle(async () => {
						const { documents, qs, timeoutMs } = target.value;
						const answer = await sendJson<IDataObject>(context, {
							method: 'POST',
							...documents,
							qs,
							body: multipartBody([await filePart(context, item.index, file)]),
							what: 'document',
							itemIndex: item.index,
							timeoutMs,
							// Only the upload result counts as success (a redirect, a web page or nothing is not one).
							expect: 'json',
							check: (body) =>
								body && typeof body === 'object' && !Array.isArray(body)
									? undefined
									: 'Field Ops answered the upload with something other than an upload result',
						});
						return acceptedOrFailure(answer);
					});
		if ('value' in sent) {
			results.push({ json: { ...describe(file), ...sent.value } });
			uploaded.push(file.name);
			continue;
		}
		const stopping = !context.continueOnFail();
		const unsent = files.slice(position + 1).map((later) => later.name);
		const failure = fileFailure(sent.error, file, uploaded, unsent, stopping);
		if (stopping) throw failure;
		// One error item per file, which file and why under `details`: n8n keeps an item of only `error` and `details`
		// whole and routes it to the error output beside the input item's fields (an item carrying an n8n error object
		// would be cut down to its message).
		const error = nodeError(context.getNode(), failure, item.index);
		const details = describe(file);
		if (error.description) details.description = error.description;
		if ('httpCode' in error && error.httpCode) details.httpCode = error.httpCode;
		results.push({ json: { error: error.message, details } });
	}
	return results;
}

/**
 * Upload: every chosen binary of an item, each file in its own request with its own name and type, one result
 * per file. An item without files passes as "no attachment". A refused file fails the item (saying what of it was
 * uploaded), or with Continue On Fail becomes an error item naming the file while the others go on.
 */
export const upload: CodeOperation = {
	name: 'Upload',
	value: 'upload',
	action: 'Upload documents or e-mail attachments',
	description: 'Upload the files of each item (e.g. e-mail attachments) to a project or work order',
	fields: [
		...TARGET_FIELDS,
		...[...binarySources, binaryPropertyName, options].map((field) => shown(on('document', 'upload'), field)),
		fileTimeout,
	],
	requests: DOCUMENT_REQUESTS('POST'),
	execute: async (context) => {
		const inputs = context.getInputData();
		return await forEachItem(context, async (item) => await uploadItem(context, item, inputs[item.index]), {
			writes: { what: 'upload', done: 'uploaded' },
		});
	},
};
