import type { IExecuteSingleFunctions, IHttpRequestOptions, INodeExecutionData, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { batchSizeOption } from '../../shared/batch';
import { companyIdField, fieldsCollection, returnAllOrLimit } from '../../shared/fields';
import { machineLocator } from '../../shared/locators';
import { codeOperation, operation } from '../../shared/routing';
import type { ResourceModule } from '../../shared/types';
import { createMany, updateMany } from './batch';
import { machineFields } from './fields';

const MACHINES = '/api/v4/integration/machines';
const show = (operations: string[]) => ({ show: { resource: ['machine'], operation: operations } });

/** The ESG endpoint needs at least one field: say so before any request. */
async function requireEsgField(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	if (Object.keys((requestOptions.body as object | undefined) ?? {}).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Add at least one ESG field', {
			description: 'Fuel Consumption Rate, Fuel Consumption Unit or Fuel Type.',
			itemIndex: this.getItemIndex(),
		});
	}
	return requestOptions;
}

/** The API answers a bare true/false: name it, so the next node can test `deletable`. */
async function namedDeletable(this: IExecuteSingleFunctions, items: INodeExecutionData[]): Promise<INodeExecutionData[]> {
	return items.map((item) => ({ ...item, json: { machine: this.getNodeParameter('machine.value', '') as string, deletable: item.json.result === true } }));
}

const includeEquipment: INodeProperties = {
	displayName: 'Include Equipment Details',
	name: 'includeEquipmentDetails',
	type: 'boolean',
	default: false,
	displayOptions: show(['get', 'getAll']),
	description: 'Whether to include the equipment linked to each machine',
	routing: { send: { type: 'query', property: 'includeEquipmentDetails' } },
};

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['machine'] } },
		options: [
			operation({ name: 'Check Deletable', value: 'checkDeletable', action: 'Check whether a machine can be deleted', description: 'Answers whether the machine can be deleted (a machine with linked equipment cannot)', method: 'GET', path: `${MACHINES}/is-machine-deletable/:machine`, postReceive: [namedDeletable] }),
			operation({ name: 'Create', value: 'create', action: 'Create a machine', description: 'Create one machine or piece of equipment', method: 'POST', path: MACHINES }),
			codeOperation({
				name: 'Create Many',
				value: 'createMany',
				action: 'Create many machines',
				description: 'Create one machine per input item, sending them in batches (one request per batch)',
			}),
			operation({ name: 'Delete', value: 'delete', action: 'Delete a machine', description: 'Delete a machine', method: 'DELETE', path: `${MACHINES}/:machine` }),
			operation({ name: 'Get', value: 'get', action: 'Get a machine', description: 'Get one machine by ID or machine number', method: 'GET', path: `${MACHINES}/:machine` }),
			operation({ name: 'Get Many', value: 'getAll', action: 'Get many machines', description: 'List the machines and equipment of your company', method: 'GET', path: MACHINES }),
			operation({ name: 'Replace', value: 'replace', action: 'Replace a machine', description: 'Send the complete machine; fields not set are reset', method: 'PUT', path: `${MACHINES}/:machine` }),
			operation({ name: 'Update', value: 'update', action: 'Update a machine', description: 'Change only the fields you set', method: 'PATCH', path: `${MACHINES}/:machine` }),
			operation({
				name: 'Update ESG',
				value: 'updateEsg',
				action: 'Update the ESG data of a machine',
				description: 'Set fuel type, fuel consumption rate and unit',
				method: 'PATCH',
				path: `${MACHINES}/:machine/esg`,
				preSend: [requireEsgField],
			}),
			codeOperation({
				name: 'Update Many',
				value: 'updateMany',
				action: 'Update many machines',
				description: 'Update one machine per input item, sending them in batches (one request per batch)',
			}),
		],
		default: 'getAll',
	},
	machineLocator({ displayOptions: show(['checkDeletable', 'delete', 'get', 'replace', 'update', 'updateEsg']) }),
	companyIdField(show(['create', 'createMany', 'replace']).show),
	{
		displayName: 'Machine Number',
		name: 'machineNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(['create', 'createMany', 'replace']),
		placeholder: 'e.g. M120',
		description: 'The machine number, unique within your company',
		routing: { send: { type: 'body', property: 'machineNumber' } },
	},
	{
		displayName: 'Machine ID',
		name: 'machineId',
		type: 'string',
		required: true,
		default: '={{ $json.id }}',
		displayOptions: show(['updateMany']),
		description: 'The ID of the machine each item updates (by default the item’s ID field)',
	},
	{
		displayName: 'Replace sends the complete machine: every field you do not set here is reset. To change only some fields, use Update.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['replace']),
	},
	fieldsCollection('additional', show(['create', 'createMany', 'replace']), machineFields),
	fieldsCollection('update', show(['update', 'updateMany']), machineFields),
	{
		displayName: 'ESG Fields',
		name: 'esgFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['updateEsg']),
		options: [
			{ displayName: 'Fuel Consumption Rate', name: 'fuelConsumptionRate', type: 'number', default: 0, typeOptions: { minValue: 0 }, routing: { send: { type: 'body', property: 'fuelConsumptionRate' } } },
			{
				displayName: 'Fuel Consumption Unit',
				name: 'fuelConsumptionUnit',
				type: 'options',
				default: 0,
				options: [
					{ name: 'Kg per Hour', value: 4 },
					{ name: 'Kg per Km', value: 5 },
					{ name: 'KWh per Hour', value: 2 },
					{ name: 'KWh per Km', value: 3 },
					{ name: 'Litres per Hour', value: 0 },
					{ name: 'Litres per Km', value: 1 },
				],
				routing: { send: { type: 'body', property: 'fuelConsumptionUnit' } },
			},
			{
				displayName: 'Fuel Type',
				name: 'fuelType',
				type: 'options',
				default: 1,
				options: [
					{ name: 'Biodiesel', value: 2 },
					{ name: 'Diesel', value: 1 },
					{ name: 'Dyed Diesel', value: 7 },
					{ name: 'Electric', value: 4 },
					{ name: 'Gas', value: 5 },
					{ name: 'Gasoline', value: 3 },
					{ name: 'Natural Gas', value: 6 },
					{ name: 'None', value: 0 },
				],
				routing: { send: { type: 'body', property: 'fuelType' } },
			},
		],
	},
	includeEquipment,
	batchSizeOption(show(['createMany', 'updateMany']).show),
	...returnAllOrLimit({ resource: ['machine'], operation: ['getAll'] }),
];

export const machineResource: ResourceModule = {
	name: 'Machine',
	value: 'machine',
	description: 'Manage machines and equipment',
	properties,
	customOperations: { createMany, updateMany },
};
