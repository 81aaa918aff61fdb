import { bodyField, requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { LIST } from './common';

export const searchProjects: RequestOperation = {
	name: 'Search Projects',
	value: 'searchProjects',
	action: 'Search projects by number or name',
	description: 'Find projects by number or name',
	fields: [
		// Empty text would ask Field Ops for "every project" in a way the spec does not describe: refused instead.
		shown(
			on('lookup', 'searchProjects'),
			requiredField(
				'Search Text',
				'searchString',
				'string',
				'Start of a project number or name (Field Ops may also match text inside them)',
				{ placeholder: 'e.g. P1001 or Skole' },
				'query',
			),
		),
		shown(
			on('lookup', 'searchProjects'),
			bodyField(
				'Active Only',
				'activeOnly',
				'boolean',
				'Whether to find only active projects',
				{ default: true },
				'query',
			),
		),
		...LIST,
	],
	request: { method: 'GET', path: '/api/projects/search', list: true },
};
