import type { RequestOperation } from '../../operations/operation';

export const getResourceTypes: RequestOperation = {
	name: 'Get Resource Types',
	value: 'getResourceTypes',
	action: 'Get the resource types',
	description: 'List the kinds of resources',
	returns: 'one item per resource type',
	fields: [],
	request: { method: 'GET', path: '/api/resources/types' },
};
