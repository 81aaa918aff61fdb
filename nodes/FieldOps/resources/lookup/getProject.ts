import type { RequestOperation } from '../../operations/operation';
import { project } from './common';

export const getProject: RequestOperation = {
	name: 'Get Project',
	value: 'getProject',
	action: 'Look up a project’s summary',
	description: 'Get the short summary of one project (Project → Get gives the whole record)',
	fields: [project],
	request: { method: 'GET', path: '/api/projects/{projId}' },
};
