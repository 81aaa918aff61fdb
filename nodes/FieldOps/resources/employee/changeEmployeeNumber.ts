import { requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const changeEmployeeNumber: RequestOperation = {
	name: 'Change Employee Number',
	value: 'changeEmployeeNumber',
	action: 'Change an employee number',
	description: 'Give the employee a new employee number',
	fields: [
		employee,
		shown(
			on('employee', 'changeEmployeeNumber'),
			requiredField(
				'New Employee Number',
				'newEmployeeNumber',
				'string',
				'Unique within your company structure',
			),
		),
	],
	request: { method: 'PATCH', path: `${ONE_EMPLOYEE}/change-employee-number` },
};
