import { bodyField, type Field } from '../../parameters/field';
import { chapterLocator, parentWorkOrderLocator, personLocator, unitLocator } from '../../parameters/pickers';

/** Every optional work-order field of the API, for create, update and replace. */
export const workOrderFields: Field[] = [
	bodyField(
		'Active',
		'active',
		'boolean',
		'Whether the work order is active (new work orders are inactive unless set)',
	),
	chapterLocator(),
	bodyField('Cost Price', 'costPrice', 'number', 'Cost price'),
	bodyField('Estimated Hours', 'estimatedHourQty', 'number', 'Estimated number of hours'),
	bodyField(
		'External Project Name',
		'externalProjectName',
		'string',
		'Project name in the external system (reference only)',
	),
	bodyField(
		'External Project Number',
		'externalProjectNumber',
		'string',
		'Project number in the external system (reference only)',
	),
	bodyField(
		'External Dimension 2',
		'externalDim02',
		'string',
		'External dimension 2 of your accounting or ERP system. On Create, left out: copied from the project’s template work order.',
	),
	bodyField('Finish Date', 'finishedDate', 'dateTime', 'When the work order actually finished'),
	bodyField('Fixed Resource Price', 'fixedResourcePrice', 'number', 'Fixed price per resource'),
	bodyField(
		'Is Parent',
		'isParent',
		'boolean',
		'Whether this work order is a container for sub-orders (set Parent Work Order on the children)',
	),
	bodyField('Latitude', 'taskLocationLatitude', 'number', 'Latitude of the work site (WGS 84)', {
		typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 },
	}),
	bodyField('Longitude', 'taskLocationLongitude', 'number', 'Longitude of the work site (WGS 84)', {
		typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 },
	}),
	personLocator(
		{
			displayName: 'Main Foreman',
			name: 'mainForemanId',
			description: 'The main foreman: pick the employee, or give the employee number or the user ID',
		},
		'userId',
	),
	bodyField(
		'Measure Unit Quantity',
		'measureUnitQty',
		'boolean',
		'Whether quantities are registered in the unit of measurement',
	),
	bodyField('Name', 'name', 'string', 'Name of the work order as crews see it'),
	parentWorkOrderLocator(),
	bodyField(
		'Planned Finish Date',
		'finishedDatePlanned',
		'dateTime',
		'When the work order is planned to finish',
	),
	bodyField('Price', 'price', 'number', 'Sales price'),
	bodyField('Production Code', 'externalDim01', 'string', 'Production code / external dimension 1'),
	bodyField(
		'SJA Approval Required',
		'safeJobAnalysisApprovalRequired',
		'boolean',
		'Whether a safe job analysis must be approved before work starts',
	),
	bodyField(
		'SJA Prompt Text',
		'safeJobAnalysisUserPromptText',
		'string',
		'Text shown to crews when they start the safe job analysis',
	),
	bodyField('Short Description', 'workDescriptionShort', 'string', 'Short description of the work'),
	bodyField('Start Date', 'startDate', 'dateTime', 'When the work starts'),
	personLocator(
		{
			displayName: 'Task Leader',
			name: 'taskLeaderId',
			description:
				'The leader of the work order: pick the employee, or give the employee number or the user ID',
		},
		'userId',
	),
	unitLocator(),
	bodyField('Work Description', 'workDescription', 'string', 'Full description of the work', {
		typeOptions: { rows: 4 },
	}),
];
