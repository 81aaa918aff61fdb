import { fieldsCollection, requiredField, on, shown } from '../../parameters/field';
import { runAgainHint } from '../../transport/errors';
import type { RequestOperation } from '../../operations/operation';
import { employment, employmentOf } from './employment';
import { birthDate, EMPLOYEES, firstName, lastName, optionalProfile } from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create an employee',
	description: 'Create an employee together with the first employment',
	fields: [
		shown(
			on('employee', 'create'),
			requiredField('Employee Number', 'employeeNumber', 'string', 'Unique within your company structure', {
				placeholder: 'e.g. 1042',
			}),
		),
		firstName,
		lastName,
		shown(
			on('employee', 'create'),
			requiredField(
				'Phone',
				'phone',
				'string',
				'Mobile number the employee logs in with, with country code',
				{
					placeholder: 'e.g. +4791234567',
				},
			),
		),
		birthDate,
		employment,
		shown(on('employee', 'create'), fieldsCollection('additional', optionalProfile)),
	],
	request: {
		method: 'POST',
		path: EMPLOYEES,
		prepare: async (request, item) => {
			request.body = { ...(request.body as object), employment: await employmentOf(item) };
		},
		onDuplicate: (body) =>
			runAgainHint(
				'employee',
				'Employee Number',
				body.employeeNumber,
				`Employee → Update with Employee set to Number "${String(body.employeeNumber)}"`,
			),
	},
};
