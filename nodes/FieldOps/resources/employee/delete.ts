import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const deleteEmployee: RequestOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete an employee',
	description: 'Delete an employee (check first with Check Deletable)',
	fields: [employee],
	request: { method: 'DELETE', path: ONE_EMPLOYEE },
};
