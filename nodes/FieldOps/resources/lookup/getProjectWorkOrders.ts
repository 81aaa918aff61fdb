import type { RequestOperation } from '../../operations/operation';
import { activeInactiveAll, project, LIST } from './common';

export const getProjectWorkOrders: RequestOperation = {
	name: 'Get Project Work Orders',
	value: 'getProjectWorkOrders',
	action: 'Look up a project’s work orders by status',
	description: 'List the work orders of a project: active, inactive or all',
	fields: [project, activeInactiveAll, ...LIST],
	request: { method: 'GET', path: '/api/projects/{projId}/tasks', list: true },
};
