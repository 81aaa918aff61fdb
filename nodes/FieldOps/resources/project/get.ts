import type { INodeProperties } from 'n8n-workflow';

export const projectGetDescription: INodeProperties[] = [
	{
		displayName: 'Project ID',
		name: 'projectId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show: { resource: ['project'], operation: ['get'] } },
		description: 'The ID of the project, as shown in Field Ops or returned by "Get Many"',
	},
];
