import type { RequestOperation } from '../../operations/operation';
import { MACHINE_STATES, RECORD_FIELDS } from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Send a machine (excavator) state',
	description: 'Send one machine-state record',
	fields: RECORD_FIELDS,
	request: { api: 'machineState', method: 'POST', path: MACHINE_STATES },
};
