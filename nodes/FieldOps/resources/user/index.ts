import type { Resource } from '../../operations/operation';
import { disable } from './disable';
import { enable } from './enable';
import { checkDeletable } from './checkDeletable';
import { create } from './create';
import { deleteUser } from './delete';
import { get } from './get';
import { getAll } from './getAll';
import { replace } from './replace';
import { update } from './update';
import { upsert } from './upsert';

export const userResource: Resource = {
	name: 'User (Legacy)',
	value: 'user',
	description: 'Manage users with the legacy v4 API (use Employee for new integrations)',
	what: 'user',
	notice:
		'This is the legacy users API (v4). For new integrations use the Employee resource (v5), which also handles employments and tags.',
	operations: [create, update, upsert, get, getAll, enable, disable, replace, checkDeletable, deleteUser],
	defaultOperation: get,
};
