import type { INodeProperties } from 'n8n-workflow';

import { projectGetDescription } from './get';
import { projectGetManyDescription } from './getAll';

const showOnlyForProjects = { resource: ['project'] };

export const projectDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: showOnlyForProjects },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a project',
				description: 'Get one project by its ID',
				routing: {
					request: { method: 'GET', url: '=/api/v4/integration/projects/{{ encodeURIComponent($parameter.projectId) }}' },
				},
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many projects',
				description: 'List the projects of your company',
				routing: { request: { method: 'GET', url: '/api/v4/integration/projects' } },
			},
		],
		default: 'getAll',
	},
	...projectGetDescription,
	...projectGetManyDescription,
];
