import type { RequestOperation } from '../../operations/operation';
import { ONE_WORK_ORDER, projectOfWorkOrder, workOrder } from './common';

export const deleteWorkOrder: RequestOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a work order',
	description: 'Delete a work order',
	fields: [projectOfWorkOrder, workOrder],
	request: { method: 'DELETE', path: ONE_WORK_ORDER },
};
