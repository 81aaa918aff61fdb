import { requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { ONE_EMPLOYEE, employee } from './common';

export const changePhoneNumber: RequestOperation = {
	name: 'Change Phone Number',
	value: 'changePhoneNumber',
	action: 'Change an employee’s login phone number',
	description: 'Change the login phone number, for every company the person works for',
	fields: [
		employee,
		shown(
			on('employee', 'changePhoneNumber'),
			requiredField(
				'New Phone Number',
				'newPhoneNumber',
				'string',
				'The new login phone number, with country code',
				{
					placeholder: 'e.g. +4791234567',
					hint: 'The phone number belongs to the person (identity): it changes in every company they work for',
				},
			),
		),
	],
	request: { method: 'PATCH', path: `${ONE_EMPLOYEE}/change-phone-number` },
};
