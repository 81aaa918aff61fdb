import type { RequestOperation } from '../../shared/operation';
import { TASKS, projectNumber, workOrderNumber } from './fields';

export const getByNumber: RequestOperation = {
	name: 'Get by Work Order Number',
	value: 'getByNumber',
	action: 'Get a work order by project number and work order number',
	description: 'Get the first work order with this number in the project with this number',
	fields: [projectNumber, workOrderNumber],
	request: {
		method: 'GET',
		path: `${TASKS}/by-project-number/{projectNumber}/by-task-number/{workOrderNumber}`,
	},
};
