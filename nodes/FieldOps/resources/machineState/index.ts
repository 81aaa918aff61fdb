import type { Resource } from '../../operations/operation';
import { create } from './create';
import { getAggregated } from './getAggregated';
import { getLatestTimestamp } from './getLatestTimestamp';
import { importStates } from './import';

export const machineStateResource: Resource = {
	name: 'Machine State',
	value: 'machineState',
	description: 'Send and read machine (excavator) state records (machine-state API)',
	what: 'machine-state record',
	operations: [create, importStates, getLatestTimestamp, getAggregated],
	defaultOperation: create,
};
