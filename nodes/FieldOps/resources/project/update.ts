import { bodyField, fieldsCollection, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { ONE_PROJECT, project, projectFields } from './common';

export const update: RequestOperation = {
	name: 'Update',
	value: 'update',
	action: 'Update a project',
	description: 'Change only the fields you set',
	fields: [
		project,
		shown(
			on('project', 'update'),
			fieldsCollection('update', [
				// PATCH takes any subset of the project's fields (spec: Projects), the required ones included.
				bodyField('Company ID', 'companyId', 'string', 'The ID of the company the project belongs to'),
				bodyField(
					'Project Number',
					'projectNumber',
					'string',
					'A new project number, unique within your company',
				),
				...projectFields,
			]),
		),
	],
	request: {
		method: 'PATCH',
		path: ONE_PROJECT,
		changes: { collection: 'updateFields', label: 'Update Fields', example: 'Name' },
	},
};
