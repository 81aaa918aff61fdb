import type { RequestOperation } from '../../operations/operation';
import { machine, MACHINES } from './common';

/** A bare boolean (spec); read liberally: the text "true", or an object's `isDeletable`/`deletable`. */
function deletableOf(body: unknown): boolean | null {
	if (typeof body === 'boolean') return body;
	if (typeof body === 'string' && /^(true|false)$/i.test(body.trim())) return /^true$/i.test(body.trim());
	if (body && typeof body === 'object') {
		const value =
			(body as { isDeletable?: unknown; deletable?: unknown }).isDeletable ??
			(body as { deletable?: unknown }).deletable;
		if (typeof value === 'boolean') return value;
	}
	return null;
}

export const checkDeletable: RequestOperation = {
	name: 'Check Deletable',
	value: 'checkDeletable',
	action: 'Check whether a machine can be deleted',
	description: 'Answers whether Field Ops allows deleting the machine now',
	returns: 'the machine and deletable: true or false',
	fields: [machine],
	request: {
		method: 'GET',
		path: `${MACHINES}/is-machine-deletable/{machine}`,
		// The API answers a bare true/false: name it, so the next node can test `deletable` [M5].
		output: (body, item) => [
			{
				machine: (item.param<{ value?: string }>('machine')?.value ?? '') as string,
				deletable: deletableOf(body),
			},
		],
	},
};
