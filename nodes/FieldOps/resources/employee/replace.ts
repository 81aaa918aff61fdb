import { bodyField, fieldsCollection, notice } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { birthDate, byLabel, employee, firstName, lastName, ONE_EMPLOYEE, optionalProfile } from './fields';

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace an employee’s profile',
	description: 'Send the complete profile; optional fields not set are cleared',
	fields: [
		employee,
		firstName,
		lastName,
		birthDate,
		notice(
			'replaceNotice',
			'Replace sends the complete profile: every optional field you do not set here is cleared. To change only some fields, use Update.',
		),
		fieldsCollection(
			'additional',
			[
				...optionalProfile,
				bodyField(
					'Phone',
					'phone',
					'string',
					'Login phone number of this profile (empty keeps the current one)',
				),
			].sort(byLabel),
		),
	],
	request: { method: 'PUT', path: ONE_EMPLOYEE },
};
