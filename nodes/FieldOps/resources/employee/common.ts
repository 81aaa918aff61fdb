/** What the employee (v5) operations have in common: their paths and the fields they share. */
import { isoDateTime } from '../../parameters/dates';
import {
	bodyField,
	fieldsCollection,
	optionsCollection,
	requiredField,
	type Field,
	on,
	shown,
} from '../../parameters/field';
import { employeeLocator } from '../../parameters/locators';
import { listFields } from '../../parameters/limits';

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
