import type { RequestOperation } from '../../operations/operation';
import { activeInactiveAll, LIST } from './common';

export const getProjects: RequestOperation = {
	name: 'Get Projects',
	value: 'getProjects',
	action: 'Look up projects by status',
	description: 'List project summaries: active, inactive or all (Project → Get Many gives whole records)',
	fields: [activeInactiveAll, ...LIST],
	request: { method: 'GET', path: '/api/projects', list: true },
};
