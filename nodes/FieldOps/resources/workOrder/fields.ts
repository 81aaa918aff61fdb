import type { INodeProperties } from 'n8n-workflow';

import { bodyField } from '../../shared/fields';

/** Every optional work-order field of the API, for create, update and replace. */
export const workOrderFields: INodeProperties[] = [
	bodyField('Active', 'active', 'boolean', 'Whether the work order is active (new work orders are inactive unless set)'),
	bodyField('Chapter ID', 'chapterId', 'string', 'ID of the chapter the work order belongs to'),
	bodyField('Cost Price', 'costPrice', 'number', 'Cost price'),
	bodyField('Estimated Hours', 'estimatedHourQty', 'number', 'Estimated number of hours'),
	bodyField('External Project Name', 'externalProjectName', 'string', 'Project name in the external system (reference only)'),
	bodyField('External Project Number', 'externalProjectNumber', 'string', 'Project number in the external system (reference only)'),
	bodyField('Finish Date', 'finishedDate', 'dateTime', 'When the work order actually finished'),
	bodyField('Fixed Resource Price', 'fixedResourcePrice', 'number', 'Fixed price per resource'),
	bodyField('Is Parent', 'isParent', 'boolean', 'Whether this work order is a container for sub-orders (set Parent Work Order ID on the children)'),
	bodyField('Latitude', 'taskLocationLatitude', 'number', 'Latitude of the work site (WGS 84)', { typeOptions: { minValue: -90, maxValue: 90, numberPrecision: 6 } }),
	bodyField('Longitude', 'taskLocationLongitude', 'number', 'Longitude of the work site (WGS 84)', { typeOptions: { minValue: -180, maxValue: 180, numberPrecision: 6 } }),
	bodyField('Main Foreman ID', 'mainForemanId', 'string', 'User ID of the main foreman'),
	bodyField('Measure Unit Quantity', 'measureUnitQty', 'boolean', 'Whether quantities are registered in the unit of measurement'),
	bodyField('Name', 'name', 'string', 'Name of the work order as crews see it'),
	bodyField('Parent Work Order ID', 'parentActivityId', 'string', 'ID of the parent work order (in the same project) to nest this one under'),
	bodyField('Planned Finish Date', 'finishedDatePlanned', 'dateTime', 'When the work order is planned to finish'),
	bodyField('Price', 'price', 'number', 'Sales price'),
	bodyField('Production Code', 'externalDim01', 'string', 'Production code / external dimension 1'),
	bodyField('SJA Approval Required', 'safeJobAnalysisApprovalRequired', 'boolean', 'Whether a safe job analysis must be approved before work starts'),
	bodyField('SJA Prompt Text', 'safeJobAnalysisUserPromptText', 'string', 'Text shown to crews when they start the safe job analysis'),
	bodyField('Short Description', 'workDescriptionShort', 'string', 'Short description of the work'),
	bodyField('Start Date', 'startDate', 'dateTime', 'When the work starts'),
	bodyField('Task Leader ID', 'taskLeaderId', 'string', 'User ID of the work order leader'),
	bodyField('Unit ID', 'unitId', 'string', 'ID of the unit of measurement'),
	bodyField('Work Description', 'workDescription', 'string', 'Full description of the work', { typeOptions: { rows: 4 } }),
];
