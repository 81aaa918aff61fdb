import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { batchSizeOption, runBatched, type ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';
import { codeOperation, operation } from '../../shared/routing';
import { apiRequest } from '../../shared/transport';
import type { CustomOperation, ResourceModule } from '../../shared/types';

const BASE = '/api/external-excavator-state';
const show = (operations: string[]) => ({ show: { resource: ['machineState'], operation: operations } });

const text = (displayName: string, name: string, description: string, operations: string[], body = true): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	required: true,
	default: '',
	displayOptions: show(operations),
	description,
	...(body ? { routing: { send: { type: 'body', property: name } } } : {}),
});

const time = (displayName: string, name: string, description: string, operations: string[]): INodeProperties => ({
	displayName,
	name,
	type: 'dateTime',
	required: true,
	default: '',
	displayOptions: show(operations),
	description,
	routing: { send: { type: 'body', property: name } },
});

const RECORD_OPERATIONS = ['create', 'import'];

/** Import: one request per batch; the API reports the records it refused by index (sandbox README). */
const importStates: CustomOperation = async function (this: IExecuteFunctions) {
	return await runBatched(this, {
		what: 'machine-state record',
		buildElement: (itemIndex) => {
			const record: IDataObject = {};
			for (const name of ['companyId', 'projectId', 'machineId', 'state', 'startTime', 'endTime']) record[name] = this.getNodeParameter(name, itemIndex);
			return record;
		},
		send: async (elements): Promise<ItemOutcome[]> => {
			const result = await apiRequest<{ failed?: Array<{ index: number; message?: string; errors?: IDataObject[] }> }>(this, {
				api: 'machineState',
				method: 'POST',
				url: `${BASE}/import`,
				body: elements,
				what: 'machine-state record',
			});
			const failed = new Map((result.failed ?? []).map((f) => [f.index, f]));
			return elements.map((element, index) => {
				const failure = failed.get(index);
				if (!failure) return { ok: true, json: { ...element, imported: true } };
				return { ok: false, message: describeErrors({ errors: failure.errors ?? [] }).join('; ') || failure.message || 'refused' };
			});
		},
	});
};

const properties: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['machineState'] } },
		options: [
			operation({ name: 'Create', value: 'create', action: 'Send a machine-state record', description: 'Send one machine-state record', method: 'POST', path: BASE, api: 'machineState' }),
			operation({
				name: 'Get Aggregated Data',
				value: 'getAggregated',
				action: 'Get machine utilisation per state',
				description: 'Total duration per state for a project (optionally one machine and a period)',
				method: 'POST',
				path: `${BASE}/aggregated-data-per-state`,
				api: 'machineState',
			}),
			operation({
				name: 'Get Latest Timestamp',
				value: 'getLatestTimestamp',
				action: 'Get the latest machine-state timestamp of a project',
				description: 'The time of the most recent record of a company and project: the checkpoint for a sync',
				method: 'GET',
				path: `${BASE}/latest-timestamp/:companyId/:projectId`,
				api: 'machineState',
			}),
			codeOperation({ name: 'Import', value: 'import', action: 'Import machine-state records', description: 'Send one record per input item, in batches (one request per batch)' }),
		],
		default: 'create',
	},
	text('Company ID', 'companyId', 'ID of the company the machine works for', [...RECORD_OPERATIONS, 'getAggregated']),
	text('Company ID', 'companyId', 'ID of the company', ['getLatestTimestamp'], false),
	text('Project ID', 'projectId', 'ID of the project the machine works on', [...RECORD_OPERATIONS, 'getAggregated']),
	text('Project ID', 'projectId', 'ID of the project', ['getLatestTimestamp'], false),
	text('Machine ID', 'machineId', 'ID of the machine (in Field Ops)', RECORD_OPERATIONS),
	text('State', 'state', 'The machine’s state during this period, as your machine system names it (e.g. working, idle, off)', RECORD_OPERATIONS),
	time('Start Time', 'startTime', 'When the state began', RECORD_OPERATIONS),
	time('End Time', 'endTime', 'When the state ended (not before the start)', RECORD_OPERATIONS),
	{
		displayName: 'Filters',
		name: 'aggregateFilters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAggregated']),
		options: [
			{ displayName: 'From', name: 'from', type: 'dateTime', default: '', description: 'Start of the period', routing: { send: { type: 'body', property: 'from' } } },
			{ displayName: 'Machine ID', name: 'machineId', type: 'string', default: '', description: 'Only this machine', routing: { send: { type: 'body', property: 'machineId' } } },
			{ displayName: 'To', name: 'to', type: 'dateTime', default: '', description: 'End of the period', routing: { send: { type: 'body', property: 'to' } } },
		],
	},
	batchSizeOption(show(['import']).show, 10_000),
];

export const machineStateResource: ResourceModule = {
	name: 'Machine State',
	value: 'machineState',
	description: 'Send and read machine-state records (machine-state API)',
	properties,
	customOperations: { import: importStates },
};
