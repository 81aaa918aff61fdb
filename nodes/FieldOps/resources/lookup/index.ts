import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { downloadPerItem } from '../../shared/files';
import { returnAllOrLimit } from '../../shared/fields';
import { projectLocator } from '../../shared/locators';
import { codeOperation, operation } from '../../shared/routing';
import { apiBaseUrl } from '../../shared/transport';
import type { CustomOperation, ResourceModule } from '../../shared/types';

const show = (operations: string[]) => ({ show: { resource: ['lookup'], operation: operations } });

const activeInactiveAll: INodeProperties = {
	displayName: 'Status',
	name: 'activeInactiveAll',
	type: 'options',
	default: 0,
	options: [
		{ name: 'Active', value: 0 },
		{ name: 'All', value: 2 },
		{ name: 'Inactive', value: 1 },
	],
	displayOptions: show(['getProjects', 'getProjectWorkOrders']),
	description: 'Which ones to list',
	routing: { send: { type: 'query', property: 'activeInactiveAll', value: '={{ $value === 0 ? undefined : $value }}' } },
};

/** Download File: the bytes into a binary property, with the file's own name and type. */
const downloadFile: CustomOperation = async function (this: IExecuteFunctions) {
	const base = await apiBaseUrl(this, 'core');
	return await downloadPerItem(this, async (itemIndex) => {
		const id = String(this.getNodeParameter('fileReferenceId', itemIndex)).trim();
		const size = this.getNodeParameter('maxDimension', itemIndex, '') as string;
		const url = `${base}/api/file/${encodeURIComponent(id)}${size ? `?MaxDimension=${size}` : ''}`;
		return { url, fallbackName: `file-${id}`, json: { fileReferenceId: id, maxDimension: size || null } };
	});
};

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['lookup'] } },
		options: [
			codeOperation({ name: 'Download File', value: 'downloadFile', action: 'Download a file', description: 'Download an image, PDF or document by its file reference ID into a binary property' }),
			operation({ name: 'Get Machine Types', value: 'getMachineTypes', action: 'Get the machine types', description: 'List the machine types configured for your company', method: 'GET', path: '/api/MachineType' }),
			operation({ name: 'Get Project', value: 'getProject', action: 'Look up a project', description: 'Get the summary of one project', method: 'GET', path: '/api/projects/:project' }),
			operation({ name: 'Get Project Work Orders', value: 'getProjectWorkOrders', action: 'Look up the work orders of a project', description: 'List the work orders of a project', method: 'GET', path: '/api/projects/:project/tasks' }),
			operation({ name: 'Get Projects', value: 'getProjects', action: 'Look up projects', description: 'List active, inactive or all projects', method: 'GET', path: '/api/projects' }),
			operation({ name: 'Get Resource', value: 'getResource', action: 'Look up a resource', description: 'Get the details of a resource (machine, equipment or person)', method: 'GET', path: '/api/resources/details/:resourceId' }),
			operation({ name: 'Get Resource Types', value: 'getResourceTypes', action: 'Get the resource types', description: 'List the kinds of resources', method: 'GET', path: '/api/resources/types' }),
			operation({ name: 'Search Projects', value: 'searchProjects', action: 'Search projects', description: 'Find projects by number or name', method: 'GET', path: '/api/projects/search' }),
		],
		default: 'getProjects',
	},
	projectLocator({ displayOptions: show(['getProject', 'getProjectWorkOrders']) }),
	activeInactiveAll,
	{
		displayName: 'Search Text',
		name: 'searchString',
		type: 'string',
		default: '',
		displayOptions: show(['searchProjects']),
		description: 'Text to look for in project numbers and names',
		routing: { send: { type: 'query', property: 'searchString' } },
	},
	{
		displayName: 'Active Only',
		name: 'activeOnly',
		type: 'boolean',
		default: true,
		displayOptions: show(['searchProjects']),
		description: 'Whether to find only active projects',
		routing: { send: { type: 'query', property: 'activeOnly' } },
	},
	{
		displayName: 'Resource ID',
		name: 'resourceId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getResource']),
		description: 'The ID of the machine, equipment or person',
	},
	{
		displayName: 'File Reference ID',
		name: 'fileReferenceId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['downloadFile']),
		description: 'The ID of the file (for example fileReference.ID of an upload, or the ID of an image record)',
	},
	{
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
		displayOptions: show(['downloadFile']),
		description: 'For images: which size to download (other files are always sent whole)',
	},
	{
		displayName: 'Put File In Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		displayOptions: show(['downloadFile']),
		description: 'Name of the binary property the file goes to',
	},
	...returnAllOrLimit({ resource: ['lookup'], operation: ['getProjects', 'searchProjects', 'getProjectWorkOrders'] }),
];

export const lookupResource: ResourceModule = {
	name: 'Lookup',
	value: 'lookup',
	description: 'Read-only lookups: projects, work orders, resources, machine types, files',
	properties,
	customOperations: { downloadFile },
};
