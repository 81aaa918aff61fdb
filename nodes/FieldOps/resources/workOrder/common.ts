/** What the work order operations have in common: their paths and the fields they share. */
import type { IDataObject } from 'n8n-workflow';

import {
	bodyField,
	fieldsCollection,
	notice,
	requiredField,
	type Field,
	on,
	shown,
} from '../../parameters/field';
import type { Item } from '../../items/items';
import { projectLocator, workOrderLocator } from '../../parameters/locators';
import { projectCompanyId } from '../../lookups/projects';
import type { PreparedRequest } from '../../operations/operation';
import { chapterLocator, parentWorkOrderLocator, personLocator, unitLocator } from '../../parameters/pickers';
import { listFields } from '../../parameters/limits';

export const TASKS = '/api/v4/integration/tasks';
export const ONE_WORK_ORDER = `${TASKS}/{workOrder}`;

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

/** The project a work order is created in (sent as `projectId`). */
export const projectInBody = shown(
	on('workOrder', 'create', 'replace'),
	projectLocator({ to: 'body', as: 'projectId' }),
);
/** The project whose work orders are listed. */
export const projectInPath = shown(on('workOrder', 'getAll'), projectLocator());
/**
 * The project of a work order picked from the list or given by external ID (used to find it, not sent). The routes
 * by ID need no project: it is asked for only in the two modes that need it.
 */
export const projectOfWorkOrder = shown(
	on('workOrder', 'delete', 'get', 'update'),
	projectLocator({
		to: 'none',
		extra: {
			description:
				'The project of the work order: its list shows the project’s work orders, and an external ID is unique only within its project',
			// A root path ('/…'): n8n 1.x resolves a dotted sibling name never, and refuses the whole node.
			displayOptions: { show: { '/workOrder.mode': ['list', 'externalId'] } },
		},
	}),
);
export const workOrder = shown(on('workOrder', 'delete', 'get', 'replace', 'update'), workOrderLocator());

/**
 * Name and Active stand among the first fields of Create and Replace, not among the Additional Fields. Field Ops
 * requires neither; the node asks for a name (nameless work orders were what users made by mistake) and creates
 * work orders active, and says both at the field.
 */
export const name = shown(
	on('workOrder', 'create', 'replace'),
	requiredField('Name', 'name', 'string', 'Name of the work order as crews see it', {
		placeholder: 'e.g. Trench along the county road',
		hint: 'Field Ops itself does not require a name; this node does, as a work order without one is hard to find.',
	}),
);
export const active = shown(
	on('workOrder', 'create'),
	bodyField('Active', 'active', 'boolean', 'Whether crews can register time on the work order', {
		default: true,
		hint: 'On by default here: crews can use it at once. Field Ops’ own default is inactive (off): it must then be activated later.',
	}),
);
/** Replace sends the complete work order: its Active starts from what a PUT resets it to, not from Create's "on". */
export const replaceActive = shown(
	on('workOrder', 'replace'),
	bodyField(
		'Active',
		'active',
		'boolean',
		'Whether crews can register time on the work order after the replace',
		{
			default: false,
			hint: 'Off by default, as Field Ops resets it: turn it on to keep an active work order active.',
		},
	),
);
const FIRST_FIELDS = new Set(['name', 'active']);

/**
 * The company of a new or replaced work order is its project's (the API refuses any other): one lookup of the
 * project per node run.
 */
export async function companyFromProject(request: PreparedRequest, item: Item): Promise<void> {
	(request.body as IDataObject).companyId = await projectCompanyId(item, item.param('project'));
}

export const externalId = shown(
	on('workOrder', 'create', 'replace'),
	requiredField(
		'External ID',
		'externalId',
		'string',
		'The work order’s ID in your system, unique within the project',
		{
			placeholder: 'e.g. P1001-07',
		},
	),
);
export const additionalFields = shown(
	on('workOrder', 'create', 'replace'),
	fieldsCollection(
		'additional',
		workOrderFields.filter((field) => !FIRST_FIELDS.has(field.property.name)),
	),
);
/** PATCH changes any field of the work order (spec: Work orders), the required ones included. */
const patchOnlyFields: Field[] = [
	bodyField('Company ID', 'companyId', 'string', 'ID of the company of the work order’s project'),
	bodyField('External ID', 'externalId', 'string', 'New ID in your system, unique within the project'),
	bodyField(
		'Project ID',
		'projectId',
		'string',
		'ID of the project to move the work order to (set Company ID too if it is another company’s)',
	),
];
export const updateFields = shown(
	on('workOrder', 'update'),
	fieldsCollection(
		'update',
		[...workOrderFields, ...patchOnlyFields].sort((a, b) =>
			a.property.displayName.localeCompare(b.property.displayName),
		),
	),
);

const pathText = (displayName: string, name: string, description: string, placeholder?: string) =>
	requiredField(displayName, name, 'string', description, placeholder ? { placeholder } : {}, 'path');

export const projectNumber = shown(
	on('workOrder', 'getByNumber', 'getAllByNumber'),
	pathText('Project Number', 'projectNumber', 'The project’s number in Field Ops', 'e.g. P1001'),
);
export const workOrderNumber = shown(
	on('workOrder', 'getByNumber', 'getAllByNumber'),
	pathText(
		'Work Order Number',
		'workOrderNumber',
		'The work order’s number within the project, as Field Ops numbers it (the spec does not say which field holds it: some services use the External ID)',
		'e.g. 07',
	),
);
export const externalProjectNumber = shown(
	on('workOrder', 'getByExternalProjectNumber', 'getAllByExternalProjectNumber'),
	pathText(
		'External Project Number',
		'externalProjectNumber',
		'The project’s number in your own system (the project’s External Project Number)',
		'e.g. ERP-2026-014',
	),
);
export const workOrderExternalId = shown(
	on('workOrder', 'getByExternalProjectNumber'),
	pathText('External ID', 'workOrderExternalId', 'The work order’s ID in your own system', 'e.g. P1001-07'),
);
export const productionCode = shown(
	on('workOrder', 'getByProductionCode'),
	pathText('Production Code', 'productionCode', 'The production code (external dimension 1) to look for'),
);

export const templateNotice = shown(
	on('workOrder', 'create'),
	notice(
		'templateNotice',
		'Settings you leave out (prices, unit, SJA requirement, work-order type, External Dimension 2…) are copied from the project’s template work order, if it has one. Name, dates, quantities and the parent always come from here.',
	),
);
export const replaceNotice = shown(
	on('workOrder', 'replace'),
	notice(
		'replaceNotice',
		'Replace sends the complete work order (a PUT): every field you do not set here goes back to Field Ops’ default. Active becomes off, Cost Price becomes 0, SJA Approval Required becomes off, and the other fields become empty (numbers 0, switches off). The project’s template is not used. To change only some fields, use Update.',
	),
);

/** Return All and Limit of the lists. */
export const LIST = listFields(
	on('workOrder', 'getAll', 'getAllByExternalProjectNumber', 'getAllByNumber', 'getByProductionCode'),
);
