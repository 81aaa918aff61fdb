import { requiredField, type Field, on, shown } from '../../parameters/field';
import { downloadPerItem, putFileInField } from '../../operations/downloads';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { timeoutField } from '../../parameters/limits';

const FILE = '/api/file/{fileReferenceId}';
const fileReferenceId = shown(
	on('lookup', 'downloadFile'),
	requiredField(
		'File Reference ID',
		'fileReferenceId',
		'string',
		'The ID of the file: fileReference.ID of an upload, the last part of a pdfUrl, or for an image record the ID in its download URL (…/api/file/<ID>)',
		{},
		'path',
	),
);
const maxDimension: Field = shown(on('lookup', 'downloadFile'), {
	property: {
		displayName: 'Size',
		name: 'maxDimension',
		type: 'options',
		default: '',
		options: [
			{ name: 'Large', value: '1980', description: 'At most 1980 pixels on the longest side' },
			{ name: 'Medium', value: '640', description: 'At most 640 pixels on the longest side' },
			{ name: 'Original', value: '', description: 'The file as it was uploaded' },
			{ name: 'Thumbnail', value: '128', description: 'At most 128 pixels on the longest side' },
		],
		description: 'For images: which size to download (other files are always sent whole)',
	},
	to: 'query',
	as: 'MaxDimension',
	value: (raw) => (raw === '' ? undefined : raw),
});
const timeout = shown(on('lookup', 'downloadFile'), timeoutField);
const binaryPropertyName = shown(
	on('lookup', 'downloadFile'),
	putFileInField('Name of the binary property the file goes to'),
);

export const downloadFile: CodeOperation = {
	name: 'Download File',
	value: 'downloadFile',
	action: 'Download a file',
	description: 'Download an image, PDF or document by its file reference ID into a binary property',
	returns: 'the file in a binary property, and its file reference ID',
	fields: [fileReferenceId, maxDimension, binaryPropertyName, timeout],
	requests: [{ method: 'GET', path: FILE }],
	execute: async (context) =>
		await downloadPerItem(context, async (item) => {
			const { params, qs } = await fromFields([fileReferenceId, maxDimension], item);
			const id = String(params.fileReferenceId.value);
			return {
				request: { path: FILE, params, qs },
				fallbackName: `file-${id}`,
				json: { fileReferenceId: id, maxDimension: qs.MaxDimension ?? null },
			};
		}),
};
