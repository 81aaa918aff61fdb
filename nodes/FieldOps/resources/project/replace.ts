import { notice, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { additionalFields, companyId, ONE_PROJECT, project, projectNumber } from './common';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace a project',
	description: 'Send the complete project; fields not set are reset to their defaults',
	fields: [
		project,
		shown(
			on('project', 'replace'),
			notice(
				'replaceNotice',
				'Replace sends the complete project: every field you do not set here is reset to its default (for example Active becomes false). To change only some fields, use Update.',
			),
		),
		companyId,
		projectNumber,
		additionalFields,
	],
	request: { method: 'PUT', path: ONE_PROJECT },
};
