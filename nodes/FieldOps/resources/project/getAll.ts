import type { RequestOperation } from '../../operations/operation';
import { LIST, PROJECTS } from './common';

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many projects',
	description:
		'List the projects of your company, as Field Ops lists them (some include subsidiaries’ projects)',
	fields: LIST,
	request: { method: 'GET', path: PROJECTS, list: true },
};
