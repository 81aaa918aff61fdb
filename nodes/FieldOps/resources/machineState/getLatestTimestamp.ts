import type { IDataObject } from 'n8n-workflow';

import { requiredField } from '../../shared/fields';
import type { RequestOperation } from '../../shared/operation';
import { MACHINE_STATES } from './fields';
import { on, shown } from '../../shared/display';

/** [S4] An object is passed through; a bare timestamp (or null) is named, with what it is about. */
function latest(body: unknown, companyId: unknown, projectId: unknown): IDataObject[] {
	if (body && typeof body === 'object' && !Array.isArray(body)) return [body as IDataObject];
	const latestTimestamp = body === undefined || body === '' ? null : (body as IDataObject[string]);
	return [{ companyId, projectId, latestTimestamp } as IDataObject];
}

export const getLatestTimestamp: RequestOperation = {
	name: 'Get Latest Timestamp',
	value: 'getLatestTimestamp',
	action: 'Get the latest machine-state timestamp of a project',
	description: 'The time of the most recent record of a company and project: the checkpoint for a sync',
	returns: 'companyId, projectId and latestTimestamp (null when there is none)',
	fields: [
		shown(
			on('machineState', 'getLatestTimestamp'),
			requiredField('Company ID', 'companyId', 'string', 'ID of the company', {}, 'path'),
		),
		shown(
			on('machineState', 'getLatestTimestamp'),
			requiredField('Project ID', 'projectId', 'string', 'ID of the project', {}, 'path'),
		),
	],
	request: {
		api: 'machineState',
		method: 'GET',
		path: `${MACHINE_STATES}/latest-timestamp/{companyId}/{projectId}`,
		output: (body, item) => latest(body, item.param('companyId'), item.param('projectId')),
	},
};
