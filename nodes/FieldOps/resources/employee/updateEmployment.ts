import type { RequestOperation } from '../../operations/operation';
import { employmentUpdate } from './employment';
import { ONE_EMPLOYEE, employee } from './common';

export const updateEmployment: RequestOperation = {
	name: 'Update Employment',
	value: 'updateEmployment',
	action: 'Update an employee’s current employment',
	description: 'Change fields of the current employment; the others stay',
	fields: [employee, employmentUpdate],
	request: {
		method: 'PATCH',
		path: `${ONE_EMPLOYEE}/update-employment`,
		changes: { collection: 'employmentUpdate', label: 'Employment Fields', example: 'Department' },
	},
};
