import type { RequestOperation } from '../../operations/operation';
import { TASKS, projectNumber, workOrderNumber, LIST } from './common';

export const getAllByNumber: RequestOperation = {
	name: 'Get Many by Work Order Number',
	value: 'getAllByNumber',
	action: 'List the work orders sharing a number',
	description:
		'List every work order with this number in the project with this number (numbers are not always unique)',
	fields: [projectNumber, workOrderNumber, ...LIST],
	request: {
		method: 'GET',
		path: `${TASKS}/by-project-number/{projectNumber}/by-task-number/{workOrderNumber}/list`,
		list: true,
	},
};
