import type { RequestOperation } from '../../shared/operation';
import { activeInactiveAll, project } from './fields';

export const getProjectWorkOrders: RequestOperation = {
	name: 'Get Project Work Orders',
	value: 'getProjectWorkOrders',
	action: 'Look up the work orders of a project',
	description: 'List the work orders of a project',
	fields: [project, activeInactiveAll],
	request: { method: 'GET', path: '/api/projects/{projId}/tasks', list: true },
};
