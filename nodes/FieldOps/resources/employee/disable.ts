import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const disable: RequestOperation = {
	name: 'Disable',
	value: 'disable',
	action: 'Disable an employee',
	description: 'The employee can no longer log in, in any company',
	fields: [employee],
	request: { method: 'PATCH', path: `${ONE_EMPLOYEE}/disable` },
};
