import { bodyField, requiredField } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';

export const searchProjects: RequestOperation = {
	name: 'Search Projects',
	value: 'searchProjects',
	action: 'Search projects by number or name',
	description: 'Find projects by number or name',
	fields: [
		// Empty text would ask Field Ops for "every project" in a way the spec does not describe: refused instead.
		requiredField(
			'Search Text',
			'searchString',
			'string',
			'Start of a project number or name (Field Ops may also match text inside them)',
			{ placeholder: 'e.g. P1001 or Skole' },
			'query',
		),
		bodyField(
			'Active Only',
			'activeOnly',
			'boolean',
			'Whether to find only active projects',
			{ default: true },
			'query',
		),
	],
	request: { method: 'GET', path: '/api/projects/search', list: true },
};
