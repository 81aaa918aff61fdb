import type { RequestOperation } from '../../shared/operation';
import { project } from './fields';

export const getProject: RequestOperation = {
	name: 'Get Project',
	value: 'getProject',
	action: 'Look up a project',
	description: 'Get the summary of one project',
	fields: [project],
	request: { method: 'GET', path: '/api/projects/{projId}' },
};
