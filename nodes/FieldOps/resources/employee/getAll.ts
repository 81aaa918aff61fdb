import type { RequestOperation } from '../../shared/operation';
import { EMPLOYEES, getAllOptions } from './fields';

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many employees',
	description: 'List the employees of your company',
	fields: [getAllOptions],
	request: { method: 'GET', path: EMPLOYEES, list: true },
};
