import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from '../../transport/errors';
import { type Field, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { companyId, MACHINE_STATES, projectId } from './common';

/**
 * [S5] The spec shows neither the request nor the answer: only the company and project are sent; any other
 * request fields (a period, machines) come from the user, as the service's documentation names them.
 */
const otherFields: Field = shown(on('machineState', 'getAggregated'), {
	property: {
		displayName: 'Other Request Fields (JSON)',
		name: 'otherRequestFields',
		type: 'json',
		default: '{}',
		description:
			'Further fields of the request, e.g. a period or machines, named as your Field Ops onboarding documents them (the API specification does not show them)',
	},
});

function withOtherFields(body: IDataObject, raw: unknown): void {
	let other: unknown = raw ?? {};
	if (typeof raw === 'string')
		try {
			other = raw.trim() === '' ? {} : JSON.parse(raw);
		} catch {
			other = undefined;
		}
	if (!other || typeof other !== 'object' || Array.isArray(other))
		throw new FieldOpsFailure(
			'Other Request Fields must be a JSON object',
			'For example {"from": "2026-11-01T00:00:00Z"}; leave it {} to send only the company and project.',
		);
	Object.assign(body, other, { companyId: body.companyId, projectId: body.projectId });
}

/** A list of rows, or rows wrapped in an object (`{data: […]}`): one item per row; anything else as it is. */
function rows(body: unknown): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	if (body && typeof body === 'object') {
		const lists = Object.values(body).filter(Array.isArray);
		if (lists.length === 1) return lists[0] as IDataObject[];
		return [body as IDataObject];
	}
	return [{ result: (body ?? null) as IDataObject[string] }];
}

export const getAggregated: RequestOperation = {
	name: 'Get Aggregated Data',
	value: 'getAggregated',
	action: 'Get machine utilisation per state',
	description: 'Machine utilisation of a project grouped by state, as Field Ops reports it',
	returns: 'one item per state row, as Field Ops reports them',
	fields: [companyId, projectId, otherFields],
	request: {
		api: 'machineState',
		method: 'POST',
		path: `${MACHINE_STATES}/aggregated-data-per-state`,
		read: true,
		prepare: (request, item) =>
			withOtherFields(request.body as IDataObject, item.param('otherRequestFields')),
		output: (body) => rows(body),
	},
};
