import type { INodeProperties } from 'n8n-workflow';

import { bodyField } from '../../shared/fields';

/** Key/value tags of a v4 user; turned into `tags: [{key, value}]` by the tagsPreSend hook. */
export const userTagsField: INodeProperties = {
	displayName: 'Tags',
	name: 'tags',
	type: 'fixedCollection',
	placeholder: 'Add Tag',
	default: {},
	typeOptions: { multipleValues: true },
	description: 'Key/value tags of the user. On Replace and Update the list you give replaces the user’s tags.',
	options: [
		{
			displayName: 'Tag',
			name: 'tag',
			values: [
				{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. Union' },
				{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. Yes' },
			],
		},
	],
};

/** Every optional field of a v4 user, for Create, Replace (Additional Fields) and Update (Update Fields). */
export const userOptionalFields: INodeProperties[] = ([
	bodyField('Address', 'address', 'string', 'Home address'),
	bodyField('Car Registration Number', 'carRegNumber', 'string', 'Registration number of the user’s car'),
	bodyField('Card ID', 'cardId', 'string', 'Number of the user’s ID/HSE card'),
	bodyField('Card Expiration Date', 'cardExpirationDate', 'dateTime', 'When the ID/HSE card expires'),
	bodyField('Closest Relative', 'closestRelative', 'string', 'Name and phone of the next of kin'),
	bodyField(
		'Default Resource Number',
		'defaultResourceNumber',
		'string',
		'Resource number used by default on the user’s registrations',
	),
	bodyField('Department', 'department', 'string', 'Department the user works in'),
	bodyField('Email', 'email', 'string', 'E-mail address', { placeholder: 'name@email.com' }),
	bodyField(
		'Employment End Date',
		'employmentEndDate',
		'dateTime',
		'Last day of employment (leave empty while employed)',
	),
	bodyField(
		'Hourly Wage (Payroll)',
		'payroll',
		'boolean',
		'Whether the user is paid an hourly wage (on) or a fixed salary (off)',
		{ hint: 'On = hourly wage, off = fixed salary' },
	),
	bodyField('Is Disabled', 'isDisabled', 'boolean', 'Whether the account is disabled (the user cannot log in)'),
	bodyField(
		'Main Project Number',
		'mainProjectNumber',
		'string',
		'Project number of the project the user mostly works on',
	),
	bodyField('Mobile (Private)', 'mobilePrivate', 'string', 'Private phone number'),
	bodyField(
		'Organization Number',
		'organizationNumber',
		'string',
		'Organisation number of the user’s company, for people of subcontractor companies',
	),
	bodyField('Personal Info', 'personalInfo', 'string', 'Free text about the user', { typeOptions: { rows: 2 } }),
	userTagsField,
	bodyField('Work Title', 'workTitle', 'string', 'Job title, e.g. Carpenter'),
	bodyField(
		'Work-Time Arrangement Name',
		'worktimeArrangementName',
		'string',
		'Name of the work-time arrangement (as configured in Field Ops)',
	),
] as INodeProperties[]).sort((a, b) => a.displayName.localeCompare(b.displayName));

/** The v4 date fields, by body property, with the label used in error messages. */
export const USER_DATE_FIELDS: Record<string, string> = {
	birthDate: 'Birth Date',
	employmentStartDate: 'Employment Start Date',
	employmentEndDate: 'Employment End Date',
	cardExpirationDate: 'Card Expiration Date',
};
