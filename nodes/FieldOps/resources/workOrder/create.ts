import type { RequestOperation } from '../../shared/operation';
import {
	TASKS,
	active,
	additionalFields,
	companyFromProject,
	externalId,
	name,
	projectInBody,
	templateNotice,
} from './fields';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a work order',
	description: 'Create a work order in a project',
	fields: [projectInBody, externalId, name, active, templateNotice, additionalFields],
	request: { method: 'POST', path: TASKS, prepare: companyFromProject },
};
