import { bodyField } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';

export const searchProjects: RequestOperation = {
	name: 'Search Projects',
	value: 'searchProjects',
	action: 'Search projects by number or name',
	description: 'Find projects by number or name',
	fields: [
		bodyField(
			'Search Text',
			'searchString',
			'string',
			'Start of a project number or name (Field Ops may also match text inside them)',
			{},
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
