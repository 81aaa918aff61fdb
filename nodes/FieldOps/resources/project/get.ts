import type { RequestOperation } from '../../operations/operation';
import { ONE_PROJECT, project } from './common';

export const get: RequestOperation = {
	name: 'Get',
	value: 'get',
	action: 'Get a project',
	description: 'Get one project by ID or project number',
	fields: [project],
	request: { method: 'GET', path: ONE_PROJECT },
};
