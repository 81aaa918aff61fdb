import { notice, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { employment, employmentOf } from './employment';
import { employee, ONE_EMPLOYEE } from './common';

export const createEmployment: RequestOperation = {
	name: 'Create Employment',
	value: 'createEmployment',
	action: 'Start a new employment for an employee',
	description: 'Add an employment; the current one ends the day before the new start',
	returns: 'the employee with its employments, or the new employment, as Field Ops answers',
	fields: [
		employee,
		employment,
		shown(
			on('employee', 'createEmployment'),
			notice(
				'createEmploymentNotice',
				'The current active employment is ended the day before the new employment starts.',
			),
		),
	],
	request: {
		method: 'POST',
		path: `${ONE_EMPLOYEE}/create-employment`,
		prepare: async (request, item) => {
			request.body = await employmentOf(item);
		},
	},
};
