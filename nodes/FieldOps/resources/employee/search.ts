import { requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { EMPLOYEES, LIST } from './common';

export const search: RequestOperation = {
	name: 'Search',
	value: 'search',
	action: 'Search employees',
	description: 'Find employees by name, phone, e-mail or employee number',
	fields: [
		shown(
			on('employee', 'search'),
			requiredField(
				'Search Text',
				'query',
				'string',
				'Part of a name, phone number, e-mail address or employee number',
				{},
				'query',
			),
		),
		...LIST,
	],
	request: { method: 'GET', path: `${EMPLOYEES}/search`, list: true },
};
