import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const enable: RequestOperation = {
	name: 'Enable',
	value: 'enable',
	action: 'Enable an employee',
	description: 'Let a disabled employee log in again',
	fields: [employee],
	request: { method: 'PATCH', path: `${ONE_EMPLOYEE}/enable` },
};
