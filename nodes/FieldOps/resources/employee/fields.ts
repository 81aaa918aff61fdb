import type { IDataObject } from 'n8n-workflow';

import { isoDateTime } from '../../shared/dates';
import { FieldOpsFailure } from '../../shared/errors';
import {
	bodyField,
	fieldsCollection,
	listFields,
	optionsCollection,
	requiredField,
	type Field,
} from '../../shared/fields';
import type { Item } from '../../shared/items';
import { employeeLocator } from '../../shared/locators';
import { choiceValue } from '../../shared/values';
import { on, shown } from '../../shared/display';

export const EMPLOYEES = '/api/v5/integration/employees';
export const ONE_EMPLOYEE = `${EMPLOYEES}/{employee}`;

export const employee = shown(
	on(
		'employee',
		'changeEmployeeNumber',
		'changePhoneNumber',
		'checkDeletable',
		'createEmployment',
		'delete',
		'disable',
		'disableInProjectCompany',
		'enable',
		'enableInProjectCompany',
		'endEmployment',
		'get',
		'replace',
		'setTags',
		'update',
		'updateEmployment',
	),
	employeeLocator(),
);
export const byLabel = (a: Field, b: Field) => a.property.displayName.localeCompare(b.property.displayName);

/** Optional profile fields that Update may clear (sent as null). */
export const CLEARABLE: Array<[string, string, string]> = [
	['Address', 'address', 'Home address'],
	['Car Registration Number', 'carRegistrationNumber', 'Registration number of the employee’s car'],
	['Closest Relative', 'closestRelative', 'Name and phone of the next of kin'],
	['Email', 'email', 'E-mail address'],
	['Personal Info', 'personalInfo', 'Free text about the employee'],
	['Work Title', 'workTitle', 'Job title, e.g. Foreman'],
];
export const clearable = CLEARABLE.map(([displayName, name, description]) =>
	bodyField(
		displayName,
		name,
		'string',
		description,
		name === 'email' ? { placeholder: 'name@email.com' } : {},
	),
);

export const optionalProfile: Field[] = [
	...clearable,
	bodyField(
		'Work Card Expiration Date',
		'workCardExpirationDate',
		'dateTime',
		'When the ID/HSE card expires',
	),
	bodyField('Work Card ID', 'workCardId', 'string', 'Number of the ID/HSE card'),
].sort(byLabel);

export const firstName = shown(
	on('employee', 'create', 'replace'),
	requiredField('First Name', 'firstName', 'string', 'First name'),
);
export const lastName = shown(
	on('employee', 'create', 'replace'),
	requiredField('Last Name', 'lastName', 'string', 'Last name'),
);
export const birthDate = shown(
	on('employee', 'create', 'replace'),
	requiredField('Birth Date', 'birthDate', 'dateTime', 'Date of birth'),
);

const PAYROLL = [
	{ name: 'Disabled', value: 0, description: 'No payroll for this employment' },
	{ name: 'Enabled', value: 1, description: 'Hours go to payroll' },
	{ name: 'Variable', value: 2, description: 'Variable payroll' },
];
const payroll: Field = {
	property: {
		displayName: 'Payroll',
		name: 'payroll',
		type: 'options',
		default: 0,
		options: PAYROLL,
		description: 'Payroll mode of the employment',
	},
	to: 'body',
	value: choiceValue('Payroll', PAYROLL),
};

/** Fields of an employment object (spec: Employee (v5) → Employment object). */
export const employmentFields: Field[] = [
	bodyField('Department', 'department', 'string', 'Department of the employment'),
	bodyField('End Date', 'endDate', 'dateTime', 'Last day of the employment; leave empty for open-ended'),
	bodyField(
		'Main Project Number',
		'mainProjectNumber',
		'string',
		'Project number of the employee’s main project',
	),
	payroll,
	bodyField('Start Date', 'startDate', 'dateTime', 'First day of the employment', { required: true }),
];

/** The Employment fixed collection: a new employee's first employment, or the body of Create Employment. */
export const employment: Field = shown(on('employee', 'create', 'createEmployment'), {
	property: {
		displayName: 'Employment',
		name: 'employment',
		type: 'fixedCollection',
		placeholder: 'Add Employment',
		default: {},
		required: true,
		description: 'The employment: Start Date is required, the rest optional',
		options: [
			{ displayName: 'Details', name: 'details', values: employmentFields.map((field) => field.property) },
		],
	},
});

/** The employment object of an item, checked: a start date is required, empty values are left out. */
export async function employmentOf(item: Item): Promise<IDataObject> {
	const details = (item.param<{ details?: IDataObject }>('employment')?.details ?? {}) as IDataObject;
	const result: IDataObject = {};
	for (const field of employmentFields) {
		const raw = details[field.property.name];
		if (raw === undefined || raw === null || raw === '') continue;
		result[field.property.name] = (field.value ? await field.value(raw, item) : raw) as IDataObject[string];
	}
	if (!result.startDate)
		throw new FieldOpsFailure('The employment needs a start date', 'Under Employment, set the Start Date.');
	return result;
}

/** A tag assignment date, checked and named by its row. */
export const assignmentDate = (row: number, label: string) => (raw: unknown) =>
	raw === '' || raw === undefined || raw === null
		? undefined
		: isoDateTime(`Tag assignment ${row}: ${label}`, raw);

const include: Field = {
	property: {
		displayName: 'Include',
		name: 'include',
		type: 'multiOptions',
		default: [],
		options: [
			{
				name: 'Employment History',
				value: 'employment-history',
				description: 'Current, upcoming and historical employments',
			},
			{ name: 'Tags', value: 'tags' },
			{ name: 'Work-Time Arrangements', value: 'work-time-arrangements' },
		],
		description: 'Extra data to include with each employee',
	},
	to: 'query',
	value: (raw) => (Array.isArray(raw) && raw.length > 0 ? raw.join(',') : undefined),
};

const subsidiaries = bodyField(
	'Include Employees From Subsidiaries',
	'includeEmployeesFromSubsidiaries',
	'boolean',
	'Whether to also look in the subsidiary companies of your company',
	{},
	'query',
);

export const getOptions = shown(
	on('employee', 'get'),
	optionsCollection('Options', 'options', [include, subsidiaries]),
);
export const getAllOptions = shown(
	on('employee', 'getAll'),
	optionsCollection('Options', 'options', [
		bodyField(
			'Employee Number',
			'employeeNumber',
			'string',
			'Only the employee with this number',
			{},
			'query',
		),
		include,
		subsidiaries,
	]),
);

export const updateFields = shown(
	on('employee', 'update'),
	fieldsCollection(
		'update',
		[
			...clearable,
			bodyField('Birth Date', 'birthDate', 'dateTime', 'Date of birth'),
			bodyField('First Name', 'firstName', 'string', 'First name'),
			bodyField('Last Name', 'lastName', 'string', 'Last name'),
			bodyField('Phone', 'phone', 'string', 'Login phone number of this profile', {
				hint: 'To change it for every company the person works for, use Change Phone Number',
			}),
		].sort(byLabel),
	),
);

export const employmentUpdate = shown(
	on('employee', 'updateEmployment'),
	optionsCollection(
		'Employment Fields',
		'employmentUpdate',
		employmentFields.map((field) => ({ ...field, property: { ...field.property, required: false } })),
		{
			placeholder: 'Add Field',
			description: 'Only the fields you add change, on the current active employment',
		},
	),
);

export const projectCompanyId = shown(
	on('employee', 'disableInProjectCompany', 'enableInProjectCompany'),
	requiredField(
		'Project Company ID',
		'projectCompanyId',
		'string',
		'ID of a company of your company structure',
	),
);

export const userGroupId: Field = shown(on('employee', 'enableInProjectCompany'), {
	property: {
		displayName: 'User Group ID',
		name: 'userGroupId',
		type: 'string',
		default: '',
		description: 'Role of the employee in that company; empty gives the default user role',
	},
	to: 'body',
	value: (raw) => (raw === '' ? undefined : raw),
});

/** Return All and Limit of the lists. */
export const LIST = listFields(on('employee', 'getAll', 'search'));
