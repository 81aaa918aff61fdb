import type { RequestOperation } from '../../operations/operation';
import { machine, ONE_MACHINE, updateFields } from './common';

export const update: RequestOperation = {
	name: 'Update',
	value: 'update',
	action: 'Update a machine',
	description: 'Change only the fields you set',
	fields: [machine, updateFields],
	request: {
		method: 'PATCH',
		path: ONE_MACHINE,
		changes: { collection: 'updateFields', label: 'Update Fields', example: 'Name' },
	},
};
