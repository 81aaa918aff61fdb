import { requiredField } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { ONE_EMPLOYEE, employee } from './fields';
import { on, shown } from '../../shared/display';

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
