import { runAgainHint } from '../../transport/errors';
import type { RequestOperation } from '../../operations/operation';
import {
	TASKS,
	active,
	additionalFields,
	companyFromProject,
	externalId,
	name,
	projectInBody,
	templateNotice,
} from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a work order',
	description: 'Create a work order in a project',
	fields: [projectInBody, externalId, name, active, templateNotice, additionalFields],
	request: {
		method: 'POST',
		path: TASKS,
		prepare: companyFromProject,
		onDuplicate: (body) =>
			runAgainHint(
				'work order',
				'External ID',
				body.externalId,
				`Work Order → Update with Work Order set to Ext. ID "${String(body.externalId)}" and the same Project`,
			),
	},
};
