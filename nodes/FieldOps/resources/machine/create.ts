import { runAgainHint } from '../../transport/errors';
import type { RequestOperation } from '../../operations/operation';
import { MACHINES, NEW_MACHINE_FIELDS } from './common';

export const create: RequestOperation = {
	name: 'Create',
	value: 'create',
	action: 'Create a machine',
	description: 'Create one machine or piece of equipment',
	fields: NEW_MACHINE_FIELDS,
	request: {
		method: 'POST',
		path: MACHINES,
		onDuplicate: (body) =>
			runAgainHint(
				'machine',
				'Machine Number',
				body.machineNumber,
				`Machine → Update with Machine set to Number "${String(body.machineNumber)}"`,
			),
	},
};
