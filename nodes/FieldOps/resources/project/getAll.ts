import type { INodeProperties } from 'n8n-workflow';

const showOnlyForProjectGetMany = { resource: ['project'], operation: ['getAll'] };

export const projectGetManyDescription: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		displayOptions: { show: showOnlyForProjectGetMany },
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		displayOptions: { show: { ...showOnlyForProjectGetMany, returnAll: [false] } },
		typeOptions: { minValue: 1 },
		default: 50,
		routing: { output: { maxResults: '={{ $value }}' } },
		description: 'Max number of results to return',
	},
];
