import type { RequestOperation } from '../../operations/operation';
import { TASKS, projectInPath, LIST } from './common';

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'List the work orders of a project',
	description: 'List the work orders of a project',
	fields: [projectInPath, ...LIST],
	request: { method: 'GET', path: `${TASKS}/project/{project}`, list: true },
};
