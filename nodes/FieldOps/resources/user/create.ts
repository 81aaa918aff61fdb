import { runAgainHint } from '../../transport/errors';
import type { RequestOperation } from '../../operations/operation';
import { USER_FIELDS, USERS } from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a legacy user',
	description: 'Create a user with the legacy v4 API',
	fields: USER_FIELDS,
	request: {
		method: 'POST',
		path: USERS,
		onDuplicate: (body) =>
			runAgainHint(
				'user',
				'Employee Number',
				body.employeeNumber,
				`User (Legacy) → Update with User set to Number "${String(body.employeeNumber)}"`,
			),
	},
};
