import type { INodeProperties } from 'n8n-workflow';

import { batchSizeOption } from '../../shared/batch';
import { codeOperation } from '../../shared/routing';
import type { ResourceModule } from '../../shared/types';
import { upsert } from './upsert';

const show = { resource: ['certificate'], operation: ['upsert'] };

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['certificate'] } },
		options: [
			codeOperation({
				name: 'Create or Update',
				value: 'upsert',
				// Also the new node's name in the editor: short. Which certificate is updated is said under Certificate Type.
				action: 'Create or update employee certificates',
				description: 'Create a new record, or update the current one if it already exists (upsert)',
			}),
		],
		default: 'upsert',
	},
	{
		displayName: 'Employee Number',
		name: 'employeeNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show },
		placeholder: 'e.g. {{ $json.employeeNumber }}',
		description: 'Employee number of the certificate holder; must match an existing employee',
	},
	{
		displayName: 'Certificate Type',
		name: 'certificateType',
		type: 'string',
		required: true,
		default: '',
		displayOptions: { show },
		placeholder: 'e.g. Fallsikring',
		description: 'Name of the course or licence',
		hint: 'Exact text: the same type for the same employee updates that certificate, a different spelling creates a new one',
	},
	{
		displayName: 'Issued',
		name: 'issuedDateTime',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show },
		description: 'When the certificate was issued; must be before Valid Until',
	},
	{
		displayName: 'Valid Until',
		name: 'validUntilDateTime',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: { show },
		description: 'When the certificate expires',
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: { show },
		options: [
			{ displayName: 'Certificate Number', name: 'certificateNumber', type: 'string', default: '', description: 'Number printed on the certificate or card' },
			{ displayName: 'Notes', name: 'notes', type: 'string', default: '', typeOptions: { rows: 2 }, description: 'Free text about the certificate' },
		],
	},
	batchSizeOption(show),
];

export const certificateResource: ResourceModule = {
	name: 'Certificate',
	value: 'certificate',
	description: 'Upsert employee certificates (courses, licences)',
	properties,
	customOperations: { upsert },
};
