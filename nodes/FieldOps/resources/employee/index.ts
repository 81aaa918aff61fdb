import type { INodeProperties } from 'n8n-workflow';

import { bodyField, returnAllOrLimit } from '../../shared/fields';
import { employeeLocator } from '../../shared/locators';
import { operation } from '../../shared/routing';
import type { ResourceModule } from '../../shared/types';
import { clearFields, employeeDates, employmentBody, summarizeTags, tagsBody } from './hooks';

const BASE = '/api/v5/integration/employees';
const ONE = `${BASE}/:employee`;
const show = (operations: string[]) => ({ show: { resource: ['employee'], operation: operations } });

/** A required top-level field sent as a body property of the same name. */
const required = (
	displayName: string,
	name: string,
	type: 'string' | 'dateTime',
	description: string,
	operations: string[],
	extra: Partial<INodeProperties> = {},
): INodeProperties => ({
	displayName,
	name,
	type,
	required: true,
	default: '',
	displayOptions: show(operations),
	description,
	routing: { send: { type: 'body', property: name } },
	...extra,
});

/** Optional profile fields that may be cleared (sent as null) by Update. */
const CLEARABLE: Array<[string, string, string]> = [
	['Address', 'address', 'Home address'],
	['Car Registration Number', 'carRegistrationNumber', 'Registration number of the employee’s car'],
	['Closest Relative', 'closestRelative', 'Name and phone of the next of kin'],
	['Email', 'email', 'E-mail address'],
	['Personal Info', 'personalInfo', 'Free text about the employee'],
	['Work Title', 'workTitle', 'Job title, e.g. Foreman'],
];
const clearable = CLEARABLE.map(([displayName, name, description]) =>
	bodyField(displayName, name, 'string', description, name === 'email' ? { placeholder: 'name@email.com' } : {}),
);
const byName = (a: INodeProperties, b: INodeProperties) => a.displayName.localeCompare(b.displayName);

const optionalProfile: INodeProperties[] = [
	...clearable,
	bodyField('Work Card Expiration Date', 'workCardExpirationDate', 'dateTime', 'When the ID/HSE card expires'),
	bodyField('Work Card ID', 'workCardId', 'string', 'Number of the ID/HSE card'),
].sort(byName);

const payroll: INodeProperties = {
	displayName: 'Payroll',
	name: 'payroll',
	type: 'options',
	default: 0,
	options: [
		{ name: 'Disabled', value: 0, description: 'No payroll for this employment' },
		{ name: 'Enabled', value: 1, description: 'Hours go to payroll' },
		{ name: 'Variable', value: 2, description: 'Variable payroll' },
	],
	description: 'Payroll mode of the employment',
};

/** Fields of an employment object (spec: Employee (v5) → Employment object). */
const employmentFields: INodeProperties[] = [
	{ displayName: 'Department', name: 'department', type: 'string', default: '', description: 'Department of the employment' },
	{ displayName: 'End Date', name: 'endDate', type: 'dateTime', default: '', description: 'Last day of the employment; leave empty for open-ended' },
	{ displayName: 'Main Project Number', name: 'mainProjectNumber', type: 'string', default: '', description: 'Project number of the employee’s main project' },
	payroll,
	{ displayName: 'Start Date', name: 'startDate', type: 'dateTime', default: '', required: true, description: 'First day of the employment' },
];

const include: INodeProperties = {
	displayName: 'Include',
	name: 'include',
	type: 'multiOptions',
	default: [],
	options: [
		{ name: 'Employment History', value: 'employment-history', description: 'Current, upcoming and historical employments' },
		{ name: 'Tags', value: 'tags' },
		{ name: 'Work-Time Arrangements', value: 'work-time-arrangements' },
	],
	description: 'Extra data to include with each employee',
	routing: { send: { type: 'query', property: 'include', value: '={{ $value.join(",") }}' } },
};

const subsidiaries: INodeProperties = {
	displayName: 'Include Employees From Subsidiaries',
	name: 'includeEmployeesFromSubsidiaries',
	type: 'boolean',
	default: false,
	description: 'Whether to also look in the subsidiary companies of your company',
	routing: { send: { type: 'query', property: 'includeEmployeesFromSubsidiaries' } },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['employee'] } },
		options: [
			operation({ name: 'Change Employee Number', value: 'changeEmployeeNumber', action: 'Change an employee number', description: 'Give the employee a new employee number', method: 'PATCH', path: `${ONE}/change-employee-number` }),
			operation({ name: 'Change Phone Number', value: 'changePhoneNumber', action: 'Change an employee’s login phone number', description: 'Change the login phone number, for every company the person works for', method: 'PATCH', path: `${ONE}/change-phone-number` }),
			operation({ name: 'Check Deletable', value: 'checkDeletable', action: 'Check whether an employee can be deleted', description: 'Answers isDeletable and, when not, the reasons in validationErrors', method: 'GET', path: `${ONE}/deletable` }),
			operation({ name: 'Create', value: 'create', action: 'Create an employee', description: 'Create an employee together with the first employment', method: 'POST', path: BASE, preSend: [employmentBody(false), employeeDates] }),
			operation({ name: 'Create Employment', value: 'createEmployment', action: 'Start a new employment for an employee', description: 'Add an employment; the current one ends the day before the new start', method: 'POST', path: `${ONE}/create-employment`, preSend: [employmentBody(true)] }),
			operation({ name: 'Delete', value: 'delete', action: 'Delete an employee', description: 'Delete an employee (check first with Check Deletable)', method: 'DELETE', path: ONE }),
			operation({ name: 'Disable', value: 'disable', action: 'Disable an employee', description: 'The employee can no longer log in, in any company', method: 'PATCH', path: `${ONE}/disable` }),
			operation({ name: 'Disable in Project Company', value: 'disableInProjectCompany', action: 'Disable an employee in a project company', description: 'Remove the employee from one company of your structure', method: 'POST', path: `${ONE}/disable-employee-in-project-company` }),
			operation({ name: 'Enable', value: 'enable', action: 'Enable an employee', description: 'Let a disabled employee log in again', method: 'PATCH', path: `${ONE}/enable` }),
			operation({ name: 'Enable in Project Company', value: 'enableInProjectCompany', action: 'Enable an employee in a project company', description: 'Give the employee access to another company of your structure', method: 'POST', path: `${ONE}/enable-employee-in-project-company` }),
			operation({ name: 'End Employment', value: 'endEmployment', action: 'End an employee’s employment', description: 'End the current employment on a date', method: 'PATCH', path: `${ONE}/end-employment`, preSend: [employeeDates] }),
			operation({ name: 'Get', value: 'get', action: 'Get an employee', description: 'Get one employee by employee number', method: 'GET', path: ONE }),
			operation({ name: 'Get Many', value: 'getAll', action: 'Get many employees', description: 'List the employees of your company', method: 'GET', path: BASE }),
			operation({ name: 'Replace', value: 'replace', action: 'Replace an employee’s profile', description: 'Send the complete profile; optional fields not set are cleared', method: 'PUT', path: ONE, preSend: [employeeDates] }),
			operation({ name: 'Search', value: 'search', action: 'Search employees', description: 'Find employees by name, phone, e-mail or employee number', method: 'GET', path: `${BASE}/search` }),
			operation({ name: 'Set Tags', value: 'setTags', action: 'Set an employee’s tags', description: 'Replace all tag assignments of the employee; answers what was added, updated and removed', method: 'PUT', path: `${ONE}/tags`, preSend: [tagsBody], postReceive: [summarizeTags] }),
			operation({ name: 'Update', value: 'update', action: 'Update an employee', description: 'Change only the fields you set, or clear chosen fields', method: 'PATCH', path: ONE, preSend: [clearFields, employeeDates] }),
			operation({ name: 'Update Employment', value: 'updateEmployment', action: 'Update an employee’s current employment', description: 'Change fields of the current employment; the others stay', method: 'PATCH', path: `${ONE}/update-employment`, preSend: [employeeDates] }),
		],
		default: 'get',
	},
	employeeLocator({
		displayOptions: show([
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
		]),
	}),
	required('Employee Number', 'employeeNumber', 'string', 'Unique within your company structure', ['create'], { placeholder: 'e.g. 1042' }),
	required('First Name', 'firstName', 'string', 'First name', ['create', 'replace']),
	required('Last Name', 'lastName', 'string', 'Last name', ['create', 'replace']),
	required('Phone', 'phone', 'string', 'Mobile number the employee logs in with, with country code', ['create'], { placeholder: 'e.g. +4791234567' }),
	required('Birth Date', 'birthDate', 'dateTime', 'Date of birth', ['create', 'replace']),
	{
		displayName: 'Employment',
		name: 'employment',
		type: 'fixedCollection',
		placeholder: 'Add Employment',
		default: {},
		required: true,
		displayOptions: show(['create', 'createEmployment']),
		description: 'The employment: Start Date is required, the rest optional',
		options: [{ displayName: 'Details', name: 'details', values: employmentFields }],
	},
	{
		displayName: 'The current active employment is ended the day before the new employment starts.',
		name: 'createEmploymentNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['createEmployment']),
	},
	{
		displayName:
			'Replace sends the complete profile: every optional field you do not set here is cleared. To change only some fields, use Update.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['replace']),
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['create']),
		options: optionalProfile,
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['replace']),
		options: [
			...optionalProfile,
			bodyField('Phone', 'phone', 'string', 'Login phone number of this profile (empty keeps the current one)'),
		].sort(byName),
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		description: 'Only the fields you add here change; everything else stays as it is',
		options: [
			...clearable,
			bodyField('Birth Date', 'birthDate', 'dateTime', 'Date of birth'),
			bodyField('First Name', 'firstName', 'string', 'First name'),
			bodyField('Last Name', 'lastName', 'string', 'Last name'),
			bodyField('Phone', 'phone', 'string', 'Login phone number of this profile', {
				hint: 'To change it for every company the person works for, use Change Phone Number',
			}),
		].sort(byName),
	},
	{
		displayName: 'Fields to Clear',
		name: 'fieldsToClear',
		type: 'multiOptions',
		default: [],
		displayOptions: show(['update']),
		options: CLEARABLE.map(([name, value]) => ({ name, value })),
		description:
			'Fields to empty in Field Ops (sent as null). Fields neither set above nor chosen here stay as they are.',
	},
	required('End Date', 'endDate', 'dateTime', 'Last day of the current employment', ['endEmployment']),
	{
		displayName: 'Employment Fields',
		name: 'employmentUpdate',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['updateEmployment']),
		description: 'Only the fields you add change, on the current active employment',
		options: employmentFields.map((field) => ({
			...field,
			required: false,
			routing: { send: { type: 'body' as const, property: field.name } },
		})),
	},
	required('New Employee Number', 'newEmployeeNumber', 'string', 'Unique within your company structure', ['changeEmployeeNumber']),
	required('New Phone Number', 'newPhoneNumber', 'string', 'The new login phone number, with country code', ['changePhoneNumber'], {
		placeholder: 'e.g. +4791234567',
		hint: 'The phone number belongs to the person (identity): it changes in every company they work for',
	}),
	required('Project Company ID', 'projectCompanyId', 'string', 'ID of a company of your company structure', [
		'enableInProjectCompany',
		'disableInProjectCompany',
	]),
	{
		displayName: 'User Group ID',
		name: 'userGroupId',
		type: 'string',
		default: '',
		displayOptions: show(['enableInProjectCompany']),
		description: 'Role of the employee in that company; empty gives the default user role',
		routing: { send: { type: 'body', property: 'userGroupId', value: '={{ $value || undefined }}' } },
	},
	{
		displayName:
			'Tags not listed here are REMOVED from the employee. To keep a tag, list it; to change its dates, give its Assignment ID.',
		name: 'tagsNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['setTags']),
	},
	{
		displayName: 'Tags',
		name: 'tags',
		type: 'fixedCollection',
		placeholder: 'Add Tag Assignment',
		typeOptions: { multipleValues: true },
		default: {},
		displayOptions: show(['setTags']),
		description: 'The complete list of the employee’s tag assignments after this call',
		options: [
			{
				displayName: 'Assignment',
				name: 'assignment',
				values: [
					{ displayName: 'Applicable From', name: 'applicableFromDate', type: 'dateTime', default: '', description: 'From when the tag applies (required for payroll tags)' },
					{ displayName: 'Applicable To', name: 'applicableToDate', type: 'dateTime', default: '', description: 'Until when the tag applies; leave empty for open-ended' },
					{ displayName: 'Assignment ID', name: 'userTagId', type: 'string', default: '', description: 'ID of an existing assignment (userTagId), to change its dates; leave empty for a new one' },
					{ displayName: 'Tag ID', name: 'tagId', type: 'string', default: '', description: 'ID of the tag; required to change an existing assignment' },
					{ displayName: 'Tag Name', name: 'tagName', type: 'string', default: '', description: 'For a new assignment: the tag’s name instead of its ID' },
				],
			},
		],
	},
	{
		displayName: 'Search Text',
		name: 'query',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['search']),
		description: 'Part of a name, phone number, e-mail address or employee number',
		routing: { send: { type: 'query', property: 'query' } },
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['get']),
		options: [include, subsidiaries],
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: show(['getAll']),
		options: [
			{
				displayName: 'Employee Number',
				name: 'employeeNumber',
				type: 'string',
				default: '',
				description: 'Only the employee with this number',
				routing: { send: { type: 'query', property: 'employeeNumber' } },
			},
			include,
			subsidiaries,
		],
	},
	...returnAllOrLimit({ resource: ['employee'], operation: ['getAll', 'search'] }),
];

export const employeeResource: ResourceModule = {
	name: 'Employee',
	value: 'employee',
	description: 'Manage employees (v5): profiles, employments, tags',
	properties,
};
