/** What the project operations have in common: their paths and the fields they share. */
import {
	bodyField,
	fieldsCollection,
	requiredField,
	timeOfDayField,
	wholeNumberField,
	type Field,
	on,
	shown,
} from '../../parameters/field';
import { companyLocator, projectLocator } from '../../parameters/locators';
import { personLocator } from '../../parameters/pickers';
import { listFields } from '../../parameters/limits';

/** Every optional project field of the API, for create, update and replace. */
export const projectFields: Field[] = [
	bodyField('Name', 'name', 'string', 'Name of the project as shown to the crews'),
	bodyField(
		'Active',
		'active',
		'boolean',
		'Whether the project is active (new projects are inactive unless set)',
	),
	bodyField('Description', 'description', 'string', 'Free text about the project', {
		typeOptions: { rows: 3 },
	}),
	bodyField(
		'External Project Number',
		'externalProjectNumber',
		'string',
		'The project number in your ERP or accounting system',
	),
	bodyField('External Dimension 1', 'externalDimension1', 'string', 'Accounting/ERP mapping'),
	bodyField('External Dimension 2', 'externalDimension2', 'string', 'Accounting/ERP mapping'),
	bodyField(
		'Require Work Order Number',
		'requireTaskNumber',
		'boolean',
		'Whether time registrations on this project must name a work order',
	),
	bodyField(
		'Blocked for Registration',
		'blockedForRegistration',
		'boolean',
		'Whether all time registrations on this project are blocked',
	),
	bodyField('Start Date', 'startDate', 'dateTime', 'When the project starts'),
	bodyField(
		'Planned Finish Date',
		'finishedDatePlanned',
		'dateTime',
		'When the project is planned to finish',
	),
	bodyField('Finish Date', 'finishedDate', 'dateTime', 'When the project actually finished'),
	bodyField(
		'Estimated Hours',
		'estimatedHourQty',
		'number',
		'Estimated number of hours for the whole project',
	),
	// The spec lets these name a person by user ID, phone, name or employee number: the employee number is sent.
	personLocator(
		{
			displayName: 'Main Foreman',
			name: 'mainForemanId',
			description: 'The main foreman: pick the employee, or give the employee number or the user ID',
		},
		'employeeNumber',
	),
	personLocator(
		{
			displayName: 'Project Leader',
			name: 'projectLeaderId',
			description: 'The project leader: pick the employee, or give the employee number or the user ID',
		},
		'employeeNumber',
	),
	bodyField('Main Contact Email', 'mainContactEmail', 'string', 'E-mail address of the main contact', {
		placeholder: 'name@email.com',
	}),
	bodyField(
		'Customer Name',
		'projectCustomerName',
		'string',
		'Name of the customer; used to create the customer when Customer Number matches none',
	),
	bodyField(
		'Customer Number',
		'customerNumber',
		'string',
		'Links the project to the company customer with this number; if none exists, a customer named by Customer Name is created. Leave empty to keep the current link.',
	),
	bodyField('Project Address', 'projectAddress', 'string', 'Street address of the site'),
	bodyField(
		'Latitude',
		'projectLocationLatitude',
		'number',
		'Latitude of the site (WGS 84, decimal degrees)',
		{ typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 } },
	),
	bodyField(
		'Longitude',
		'projectLocationLongitude',
		'number',
		'Longitude of the site (WGS 84, decimal degrees)',
		{ typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 } },
	),
	timeOfDayField(
		'Lunch Break Start',
		'workBreakLunchStartTime',
		'When the lunch break starts, on the 24-hour clock (HH:mm)',
		'11:30',
	),
	wholeNumberField(
		'Lunch Break Length (Minutes)',
		'workBreakLunchLength',
		'Length of the lunch break in whole minutes',
		'30',
		{ typeOptions: { minValue: 0, numberPrecision: 0 } },
	),
	timeOfDayField(
		'Dinner Break Start',
		'workBreakDinnerStartTime',
		'When the dinner break starts, on the 24-hour clock (HH:mm)',
		'17:00',
	),
	wholeNumberField(
		'Dinner Break Length (Minutes)',
		'workBreakDinnerLength',
		'Length of the dinner break in whole minutes',
		'30',
		{ typeOptions: { minValue: 0, numberPrecision: 0 } },
	),
];

export const PROJECTS = '/api/v4/integration/projects';
export const ONE_PROJECT = `${PROJECTS}/{project}`;

export const project = shown(on('project', 'delete', 'get', 'replace', 'update'), projectLocator());
export const companyId = shown(on('project', 'create', 'replace'), companyLocator());
export const projectNumber = shown(
	on('project', 'create', 'replace'),
	requiredField(
		'Project Number',
		'projectNumber',
		'string',
		'The project number, unique within your company',
		{
			placeholder: 'e.g. P2044',
		},
	),
);
export const additionalFields = shown(
	on('project', 'create', 'replace'),
	fieldsCollection('additional', projectFields),
);

/** Return All and Limit of Get Many. */
export const LIST = listFields(on('project', 'getAll'));
