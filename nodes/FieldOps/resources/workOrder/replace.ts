import type { RequestOperation } from '../../operations/operation';
import {
	ONE_WORK_ORDER,
	replaceActive,
	companyFromProject,
	name,
	additionalFields,
	externalId,
	projectInBody,
	replaceNotice,
	workOrder,
} from './common';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace a work order',
	description: 'Send the complete work order; fields not set are reset to their defaults',
	fields: [projectInBody, workOrder, externalId, name, replaceActive, replaceNotice, additionalFields],
	request: { method: 'PUT', path: ONE_WORK_ORDER, prepare: companyFromProject },
};
