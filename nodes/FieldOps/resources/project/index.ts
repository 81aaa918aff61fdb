import type { Resource } from '../../operations/operation';
import { create } from './create';
import { deleteProject } from './delete';
import { get } from './get';
import { getAll } from './getAll';
import { replace } from './replace';
import { update } from './update';
import { upsert } from './upsert';

export const projectResource: Resource = {
	name: 'Project',
	value: 'project',
	description: 'Manage projects',
	what: 'project',
	operations: [create, update, upsert, get, getAll, replace, deleteProject],
	defaultOperation: getAll,
};
