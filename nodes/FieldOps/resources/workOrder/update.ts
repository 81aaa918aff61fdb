import type { RequestOperation } from '../../operations/operation';
import { ONE_WORK_ORDER, projectOfWorkOrder, updateFields, workOrder } from './common';

export const update: RequestOperation = {
	name: 'Update',
	value: 'update',
	action: 'Update a work order',
	description: 'Change only the fields you set',
	fields: [projectOfWorkOrder, workOrder, updateFields],
	request: {
		method: 'PATCH',
		path: ONE_WORK_ORDER,
		changes: { collection: 'updateFields', label: 'Update Fields', example: 'Name' },
	},
};
