import type { INodeProperties } from 'n8n-workflow';

import type { ResourceModule } from '../../shared/types';

import { returnAllOrLimit } from '../../shared/fields';
import { projectLocator } from '../../shared/locators';
import { operation } from '../../shared/routing';
import { projectCreateDescription } from './create';
import { projectReplaceDescription } from './replace';
import { projectUpdateDescription } from './update';

const PROJECTS = '/api/v4/integration/projects';

export const projectDescription: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['project'] } },
		options: [
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a project',
				description: 'Create a project in your company',
				method: 'POST',
				path: PROJECTS,
			}),
			operation({
				name: 'Delete',
				value: 'delete',
				action: 'Delete a project',
				description: 'Delete a project',
				method: 'DELETE',
				path: `${PROJECTS}/:project`,
			}),
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a project',
				description: 'Get one project by ID or project number',
				method: 'GET',
				path: `${PROJECTS}/:project`,
			}),
			operation({
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many projects',
				description: 'List the projects of your company',
				method: 'GET',
				path: PROJECTS,
			}),
			operation({
				name: 'Replace',
				value: 'replace',
				action: 'Replace a project',
				description: 'Send the complete project; fields not set are reset to their defaults',
				method: 'PUT',
				path: `${PROJECTS}/:project`,
			}),
			operation({
				name: 'Update',
				value: 'update',
				action: 'Update a project',
				description: 'Change only the fields you set',
				method: 'PATCH',
				path: `${PROJECTS}/:project`,
			}),
		],
		default: 'getAll',
	},
	projectLocator({
		displayOptions: { show: { resource: ['project'], operation: ['delete', 'get', 'replace', 'update'] } },
	}),
	...projectCreateDescription,
	...projectUpdateDescription,
	...projectReplaceDescription,
	...returnAllOrLimit({ resource: ['project'], operation: ['getAll'] }),
];

export const projectResource: ResourceModule = {
	name: 'Project',
	value: 'project',
	description: 'Manage projects',
	properties: projectDescription,
};
