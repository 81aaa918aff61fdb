import type { Resource } from '../../operations/operation';
import { checkDeletable } from './checkDeletable';
import { create } from './create';
import { createMany } from './createMany';
import { deleteMachine } from './delete';
import { get } from './get';
import { getAll } from './getAll';
import { replace } from './replace';
import { update } from './update';
import { updateEsg } from './updateEsg';
import { updateMany } from './updateMany';
import { upsert } from './upsert';

export const machineResource: Resource = {
	name: 'Machine',
	value: 'machine',
	description: 'Manage machines and equipment',
	what: 'machine',
	operations: [
		create,
		update,
		upsert,
		get,
		getAll,
		createMany,
		updateMany,
		updateEsg,
		replace,
		checkDeletable,
		deleteMachine,
	],
	defaultOperation: getAll,
};
