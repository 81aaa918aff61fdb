import type { RequestOperation } from '../../operations/operation';
import { ONE_PROJECT, project } from './common';

export const deleteProject: RequestOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a project',
	description: 'Delete a project',
	fields: [project],
	request: { method: 'DELETE', path: ONE_PROJECT },
};
