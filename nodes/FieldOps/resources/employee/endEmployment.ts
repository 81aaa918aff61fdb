import { requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const endEmployment: RequestOperation = {
	name: 'End Employment',
	value: 'endEmployment',
	action: 'End an employee’s employment',
	description: 'End the current employment on a date',
	fields: [
		employee,
		shown(
			on('employee', 'endEmployment'),
			requiredField('End Date', 'endDate', 'dateTime', 'Last day of the current employment'),
		),
	],
	request: { method: 'PATCH', path: `${ONE_EMPLOYEE}/end-employment` },
};
