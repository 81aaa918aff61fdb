import type { RequestOperation } from '../../shared/operation';
import { activeInactiveAll } from './fields';

export const getProjects: RequestOperation = {
	name: 'Get Projects',
	value: 'getProjects',
	action: 'Look up projects',
	description: 'List active, inactive or all projects',
	fields: [activeInactiveAll],
	request: { method: 'GET', path: '/api/projects', list: true },
};
