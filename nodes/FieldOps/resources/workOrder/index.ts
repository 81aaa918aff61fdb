import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeProperties } from 'n8n-workflow';

import { companyIdField, fieldsCollection, returnAllOrLimit } from '../../shared/fields';
import { projectLocator, resolveLocator, workOrderLocator } from '../../shared/locators';
import { operation } from '../../shared/routing';
import type { ResourceModule } from '../../shared/types';
import { workOrderFields } from './fields';

const TASKS = '/api/v4/integration/tasks';
const show = (operations: string[]) => ({ show: { resource: ['workOrder'], operation: operations } });

/** The project locator goes into the body as `projectId` (a project number is looked up first). */
async function projectIdInBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	requestOptions.body = { ...(requestOptions.body as object), projectId: await resolveLocator(this, 'project') };
	return requestOptions;
}

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['workOrder'] } },
		options: [
			operation({ name: 'Create', value: 'create', action: 'Create a work order', description: 'Create a work order in a project', method: 'POST', path: TASKS, preSend: [projectIdInBody] }),
			operation({ name: 'Delete', value: 'delete', action: 'Delete a work order', description: 'Delete a work order', method: 'DELETE', path: `${TASKS}/:workOrder` }),
			operation({ name: 'Get', value: 'get', action: 'Get a work order', description: 'Get one work order by ID or external ID', method: 'GET', path: `${TASKS}/:workOrder` }),
			operation({
				name: 'Get by Work Order Number',
				value: 'getByNumber',
				action: 'Get a work order by project number and work order number',
				description: 'Get the first work order with this number in the project with this number',
				method: 'GET',
				path: `${TASKS}/by-project-number/:projectNumber/by-task-number/:workOrderNumber`,
			}),
			operation({
				name: 'Get by External Project Number and External ID',
				value: 'getByExternalProjectNumber',
				action: 'Get a work order by external project number and external ID',
				description: 'Get one work order using only numbers from your own system',
				method: 'GET',
				path: `${TASKS}/by-external-project-number/:externalProjectNumber/by-external-id/:workOrderExternalId`,
			}),
			operation({ name: 'Get Many', value: 'getAll', action: 'Get many work orders of a project', description: 'List the work orders of a project', method: 'GET', path: `${TASKS}/project/:project` }),
			operation({
				name: 'Get Many by External Project Number',
				value: 'getAllByExternalProjectNumber',
				action: 'Get many work orders by external project number',
				description: 'List the work orders of the project(s) with this project number from your own system',
				method: 'GET',
				path: `${TASKS}/by-external-project-number/:externalProjectNumber`,
			}),
			operation({
				name: 'Get Many by Work Order Number',
				value: 'getAllByNumber',
				action: 'Get all work orders with a work order number in a project',
				description: 'List every work order with this number in the project with this number (numbers are not always unique)',
				method: 'GET',
				path: `${TASKS}/by-project-number/:projectNumber/by-task-number/:workOrderNumber/list`,
			}),
			operation({
				name: 'Get Many by Production Code',
				value: 'getByProductionCode',
				action: 'Get work orders by production code',
				description: 'List the work orders with a production code (external dimension 1), across projects',
				method: 'GET',
				path: `${TASKS}/by-production-code/:productionCode`,
			}),
			operation({
				name: 'Replace',
				value: 'replace',
				action: 'Replace a work order',
				description: 'Send the complete work order; fields not set are reset to their defaults',
				method: 'PUT',
				path: `${TASKS}/:workOrder`,
				preSend: [projectIdInBody],
			}),
			operation({ name: 'Update', value: 'update', action: 'Update a work order', description: 'Change only the fields you set', method: 'PATCH', path: `${TASKS}/:workOrder` }),
		],
		default: 'getAll',
	},
	projectLocator({ displayOptions: show(['create', 'delete', 'get', 'getAll', 'replace', 'update']) }),
	workOrderLocator({ displayOptions: show(['delete', 'get', 'replace', 'update']) }),
	{
		displayName: 'Project Number',
		name: 'projectNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getByNumber', 'getAllByNumber']),
		placeholder: 'e.g. P1001',
		description: 'The project’s number in Field Ops',
	},
	{
		displayName: 'Work Order Number',
		name: 'workOrderNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getByNumber', 'getAllByNumber']),
		placeholder: 'e.g. 07',
		description: 'The work order’s number within the project (the API matches it against the external ID)',
	},
	{
		displayName: 'External Project Number',
		name: 'externalProjectNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getByExternalProjectNumber', 'getAllByExternalProjectNumber']),
		placeholder: 'e.g. ERP-2026-014',
		description: 'The project’s number in your own system (the project’s External Project Number)',
	},
	{
		displayName: 'External ID',
		name: 'workOrderExternalId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getByExternalProjectNumber']),
		placeholder: 'e.g. P1001-07',
		description: 'The work order’s ID in your own system',
	},
	{
		displayName: 'Production Code',
		name: 'productionCode',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['getByProductionCode']),
		description: 'The production code (external dimension 1) to look for',
	},
	companyIdField(show(['create', 'replace']).show),
	{
		displayName: 'External ID',
		name: 'externalId',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['create', 'replace']),
		placeholder: 'e.g. P1001-07',
		description: 'The work order’s ID in your system, unique within the project',
		routing: { send: { type: 'body', property: 'externalId' } },
	},
	{
		displayName:
			'Settings you leave out (prices, unit, SJA requirement, work-order type…) are copied from the project’s template work order, if it has one. Name, dates, quantities and the parent always come from here.',
		name: 'templateNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['create']),
	},
	{
		displayName:
			'Replace sends the complete work order: every field you do not set here is reset to its default (for example Cost Price becomes 0 and SJA Approval Required becomes false), and the project’s template is not used. To change only some fields, use Update.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['replace']),
	},
	fieldsCollection('additional', show(['create', 'replace']), workOrderFields),
	fieldsCollection('update', show(['update']), workOrderFields),
	...returnAllOrLimit({ resource: ['workOrder'], operation: ['getAll', 'getAllByExternalProjectNumber', 'getAllByNumber', 'getByProductionCode'] }),
];

export const workOrderResource: ResourceModule = {
	name: 'Work Order',
	value: 'workOrder',
	description: 'Manage work orders of projects',
	properties,
};
