import type { INodeProperties } from 'n8n-workflow';

import { companyIdField, fieldsCollection } from '../../shared/fields';
import { projectFields } from './fields';

const show = { resource: ['project'], operation: ['create', 'replace'] };

export const projectCreateDescription: INodeProperties[] = [
	companyIdField(show),
	{
		displayName: 'Project Number',
		name: 'projectNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show },
		placeholder: 'e.g. P2044',
		description: 'The project number, unique within your company',
		routing: { send: { type: 'body', property: 'projectNumber' } },
	},
	fieldsCollection('additional', { show }, projectFields),
];
