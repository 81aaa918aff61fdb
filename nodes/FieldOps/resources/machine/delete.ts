import type { RequestOperation } from '../../operations/operation';
import { machine, ONE_MACHINE } from './common';

export const deleteMachine: RequestOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a machine',
	description: 'Delete a machine',
	fields: [machine],
	request: { method: 'DELETE', path: ONE_MACHINE },
};
