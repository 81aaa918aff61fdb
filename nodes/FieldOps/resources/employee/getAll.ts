import type { RequestOperation } from '../../operations/operation';
import { EMPLOYEES, getAllOptions, LIST } from './common';

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many employees',
	description: 'List the employees of your company',
	fields: [getAllOptions, ...LIST],
	request: { method: 'GET', path: EMPLOYEES, list: true },
};
