import type { RequestOperation } from '../../operations/operation';
import { TASKS, projectNumber, workOrderNumber } from './common';

export const getByNumber: RequestOperation = {
	name: 'Get by Work Order Number',
	value: 'getByNumber',
	action: 'Find a work order by its number in a project',
	description: 'Get the first work order with this number in the project with this number',
	fields: [projectNumber, workOrderNumber],
	request: {
		method: 'GET',
		path: `${TASKS}/by-project-number/{projectNumber}/by-task-number/{workOrderNumber}`,
	},
};
