import { runAgainHint } from '../../transport/errors';
import type { RequestOperation } from '../../operations/operation';
import { additionalFields, companyId, projectNumber, PROJECTS } from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a project',
	description: 'Create a project in your company',
	fields: [companyId, projectNumber, additionalFields],
	request: {
		method: 'POST',
		path: PROJECTS,
		onDuplicate: (body) =>
			runAgainHint(
				'project',
				'Project Number',
				body.projectNumber,
				`Project → Update with Project set to Number "${String(body.projectNumber)}"`,
			),
	},
};
