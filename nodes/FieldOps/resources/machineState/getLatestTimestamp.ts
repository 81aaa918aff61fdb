import type { IDataObject } from 'n8n-workflow';

import { on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { company, MACHINE_STATES, project } from './common';

const companyOfPath = shown(on('machineState', 'getLatestTimestamp'), company('path'));
const projectOfPath = shown(on('machineState', 'getLatestTimestamp'), project('path'));

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
	fields: [companyOfPath, projectOfPath],
	request: {
		api: 'machineState',
		method: 'GET',
		path: `${MACHINE_STATES}/latest-timestamp/{companyId}/{projectId}`,
		// The record says which company and project it is about, as resolved (one cached lookup each).
		output: async (body, item) =>
			latest(
				body,
				await companyOfPath.value?.(item.param('companyId'), item),
				await projectOfPath.value?.(item.param('projectId'), item),
			),
	},
};
