import type { RequestOperation } from '../../shared/operation';
import { TASKS, additionalFields, companyId, externalId, projectInBody, templateNotice } from './fields';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a work order',
	description: 'Create a work order in a project',
	fields: [projectInBody, companyId, externalId, templateNotice, additionalFields],
	request: { method: 'POST', path: TASKS },
};
