import type { INodeProperties } from 'n8n-workflow';

import { bodyField } from '../../shared/fields';
import { projectFields } from './fields';

export const projectUpdateDescription: INodeProperties[] = [
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show: { resource: ['project'], operation: ['update'] } },
		description: 'Only the fields you add here change; everything else stays as it is',
		options: [
			bodyField(
				'Project Number',
				'projectNumber',
				'string',
				'A new project number, unique within your company',
			),
			...projectFields,
		],
	},
];
