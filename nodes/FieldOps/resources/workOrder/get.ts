import type { RequestOperation } from '../../operations/operation';
import { ONE_WORK_ORDER, projectOfWorkOrder, workOrder } from './common';

export const get: RequestOperation = {
	name: 'Get',
	value: 'get',
	action: 'Get a work order',
	description: 'Get one work order by ID or external ID',
	fields: [projectOfWorkOrder, workOrder],
	request: { method: 'GET', path: ONE_WORK_ORDER },
};
