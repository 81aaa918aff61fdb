import { bodyField, fieldsCollection, pattern, requiredField, type Field } from '../../shared/fields';
import { companyLocator, projectLocator } from '../../shared/locators';

const HH_MM = pattern('^([01]\\d|2[0-3]):[0-5]\\d$', 'Use the 24-hour format HH:mm, e.g. 11:30');

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
	bodyField(
		'Main Foreman',
		'mainForemanId',
		'string',
		'The main foreman: a user ID, phone number, name or employee number',
	),
	bodyField(
		'Project Leader',
		'projectLeaderId',
		'string',
		'The project leader: a user ID, phone number, name or employee number',
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
	bodyField('Lunch Break Start', 'workBreakLunchStartTime', 'string', 'When the lunch break starts, HH:mm', {
		placeholder: '11:30',
		...HH_MM,
	}),
	bodyField(
		'Lunch Break Length (Minutes)',
		'workBreakLunchLength',
		'number',
		'Length of the lunch break in minutes',
		{ typeOptions: { minValue: 0 } },
	),
	bodyField(
		'Dinner Break Start',
		'workBreakDinnerStartTime',
		'string',
		'When the dinner break starts, HH:mm',
		{ placeholder: '17:00', ...HH_MM },
	),
	bodyField(
		'Dinner Break Length (Minutes)',
		'workBreakDinnerLength',
		'number',
		'Length of the dinner break in minutes',
		{ typeOptions: { minValue: 0 } },
	),
];

export const PROJECTS = '/api/v4/integration/projects';
export const ONE_PROJECT = `${PROJECTS}/{project}`;

export const project = projectLocator();
export const companyId = companyLocator();
export const projectNumber = requiredField(
	'Project Number',
	'projectNumber',
	'string',
	'The project number, unique within your company',
	{
		placeholder: 'e.g. P2044',
	},
);
export const additionalFields = fieldsCollection('additional', projectFields);
