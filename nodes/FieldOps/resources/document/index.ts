import type { IDataObject, IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { projectLocator, workOrderLocator } from '../../shared/locators';
import { codeOperation, operation } from '../../shared/routing';
import type { ResourceModule } from '../../shared/types';
import { downloadDocuments } from './download';
import { documentsPath } from './target';
import { uploadDocuments } from './upload';

const show = (operations: string[], extra: Record<string, string[]> = {}) => ({ show: { resource: ['document'], operation: operations, ...extra } });
const ALL = ['delete', 'download', 'list', 'upload'];

/** The path of the chosen project or work order (the declarative operations' URL is filled here). */
async function documentsUrl(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	requestOptions.url = `${await documentsPath(this)}${requestOptions.url}`;
	return requestOptions;
}

/** List: one item per section page, or one per file with "Split Into Files". */
async function splitIntoFiles(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	if (!this.getNodeParameter('splitIntoFiles', false)) return items;
	return items.flatMap((item) =>
		((item.json.files as IDataObject[] | undefined) ?? []).map((file) => ({
			json: { section: item.json.section, pageExternalId: item.json.pageExternalId, ...file },
			pairedItem: item.pairedItem,
		})),
	);
}

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['document'] } },
		options: [
			operation({ name: 'Delete', value: 'delete', action: 'Delete a document', description: 'Delete a document from a project or work order', method: 'DELETE', path: '/:fileReferenceId', preSend: [documentsUrl] }),
			codeOperation({ name: 'Download', value: 'download', action: 'Download a document', description: 'Download a document into a binary property, with its original name' }),
			operation({ name: 'List', value: 'list', action: 'List documents', description: 'List the document pages (sections) of a project or work order', method: 'GET', path: '', preSend: [documentsUrl], postReceive: [splitIntoFiles] }),
			codeOperation({ name: 'Upload', value: 'upload', action: 'Upload documents', description: 'Upload the files of each item (e.g. e-mail attachments) to a project or work order' }),
		],
		default: 'upload',
	},
	{
		displayName: 'Attach To',
		name: 'documentTarget',
		type: 'options',
		options: [
			{ name: 'Project', value: 'project' },
			{ name: 'Work Order', value: 'workOrder', description: 'Documents land in the project’s folder, in a section named after the work order by default' },
		],
		default: 'project',
		displayOptions: show(ALL),
	},
	projectLocator({ displayOptions: show(ALL) }),
	workOrderLocator({ displayOptions: show(ALL, { documentTarget: ['workOrder'] }) }),
	{
		displayName: 'Files to Upload',
		name: 'binarySource',
		type: 'options',
		options: [
			{ name: 'All Files of the Item', value: 'all', description: 'Every binary property, e.g. all e-mail attachments' },
			{ name: 'Named Fields', value: 'single', description: 'One binary property, or several separated by commas' },
		],
		default: 'single',
		displayOptions: show(['upload']),
	},
	{
		displayName: 'Input Binary Field(s)',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		displayOptions: show(['upload'], { binarySource: ['single'] }),
		placeholder: 'e.g. data or attachment_0, attachment_1',
		hint: 'The name of the binary field holding the file; several separated by commas',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['upload']),
		options: [
			{ displayName: 'Replace Existing Files With Same Name', name: 'replaceExistingFilesWithSameName', type: 'boolean', default: false, description: 'Whether a file with the same name on the page is replaced instead of kept beside the new one' },
			{ displayName: 'Section', name: 'section', type: 'string', default: '', description: 'Name of the page (section) on the information page. Empty: "Documents" for a project, the work order’s number for a work order.' },
		],
	},
	{
		displayName: 'File Reference ID',
		name: 'fileReferenceId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['delete', 'download']),
		description: 'The ID of the document (fileReference.ID of an upload, or fileReferenceId from List)',
	},
	{
		displayName: 'Put File In Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		displayOptions: show(['download']),
		description: 'Name of the binary property the document goes to',
	},
	{
		displayName: 'Split Into Files',
		name: 'splitIntoFiles',
		type: 'boolean',
		default: false,
		displayOptions: show(['list']),
		description: 'Whether to output one item per file instead of one per page',
	},
];

export const documentResource: ResourceModule = {
	name: 'Document',
	value: 'document',
	description: 'Upload, list, download and delete documents of projects and work orders',
	properties,
	customOperations: { upload: uploadDocuments, download: downloadDocuments },
};
