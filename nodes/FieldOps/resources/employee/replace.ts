import { fieldsCollection, notice, requiredField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { birthDate, employee, firstName, lastName, ONE_EMPLOYEE, optionalProfile } from './common';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace an employee’s profile',
	description: 'Send the complete profile; optional fields not set are cleared',
	fields: [
		employee,
		firstName,
		lastName,
		// [V5] A complete profile includes the login phone: whether Field Ops keeps it when left out is not shown.
		shown(
			on('employee', 'replace'),
			requiredField('Phone', 'phone', 'string', 'Login phone number of this profile, with country code', {
				placeholder: 'e.g. +4791234567',
				hint: 'To change it for every company the person works for, use Change Phone Number',
			}),
		),
		birthDate,
		shown(
			on('employee', 'replace'),
			notice(
				'replaceNotice',
				'Replace sends the complete profile: every optional field you do not set here is cleared. To change only some fields, use Update.',
			),
		),
		shown(on('employee', 'replace'), fieldsCollection('additional', optionalProfile)),
	],
	request: { method: 'PUT', path: ONE_EMPLOYEE },
};
