import { requiredField } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { MACHINE_STATES } from './fields';

export const getLatestTimestamp: RequestOperation = {
	name: 'Get Latest Timestamp',
	value: 'getLatestTimestamp',
	action: 'Get the latest machine-state timestamp of a project',
	description: 'The time of the most recent record of a company and project: the checkpoint for a sync',
	fields: [
		requiredField('Company ID', 'companyId', 'string', 'ID of the company', {}, 'path'),
		requiredField('Project ID', 'projectId', 'string', 'ID of the project', {}, 'path'),
	],
	request: {
		api: 'machineState',
		method: 'GET',
		path: `${MACHINE_STATES}/latest-timestamp/{companyId}/{projectId}`,
	},
};
