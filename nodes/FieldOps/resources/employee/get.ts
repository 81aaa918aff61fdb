import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee, getOptions } from './common';

export const get: RequestOperation = {
	name: 'Get',
	value: 'get',
	action: 'Get an employee',
	description: 'Get one employee by employee number',
	fields: [employee, getOptions],
	request: { method: 'GET', path: ONE_EMPLOYEE },
};
