import { bodyField, optionsCollection } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { companyId, MACHINE_STATES, projectId } from './fields';

export const getAggregated: RequestOperation = {
	name: 'Get Aggregated Data',
	value: 'getAggregated',
	action: 'Get machine utilisation per state',
	description: 'Total duration per state for a project (optionally one machine and a period)',
	fields: [
		companyId,
		projectId,
		optionsCollection('Filters', 'aggregateFilters', [
			bodyField('From', 'from', 'dateTime', 'Start of the period'),
			bodyField('Machine ID', 'machineId', 'string', 'Only this machine'),
			bodyField('To', 'to', 'dateTime', 'End of the period'),
		]),
	],
	request: { api: 'machineState', method: 'POST', path: `${MACHINE_STATES}/aggregated-data-per-state` },
};
