import type { IDisplayOptions } from 'n8n-workflow';

import type { Item } from '../items/items';
import { DEFAULT_TIMEOUT_MS } from '../transport/http';
import { FieldOpsFailure } from '../transport/errors';
import { shown, type Field } from './field';

/** How much and how long: Return All and Limit of list operations, the Timeout of long requests, with their readers. */

export const returnAll: Field = {
	property: {
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
};

export const limit: Field = {
	property: {
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: { show: { returnAll: [false] } },
		description: 'Max number of results to return',
	},
};

/** Return All and Limit as a resource's list operations show them. */
export const listFields = (display: IDisplayOptions): Field[] => [
	shown(display, returnAll),
	shown(display, limit),
];

/** How many records to return: all, or the Limit (a whole number of at least 1). */
export function readLimit(item: Item): number {
	if (item.param<boolean>('returnAll') === true) return Infinity;
	const raw = item.param('limit');
	const value = typeof raw === 'number' ? raw : Number(String(raw ?? '').trim());
	if (!Number.isInteger(value) || value < 1)
		throw new FieldOpsFailure(
			`Limit must be a whole number of 1 or more: "${String(raw)}"`,
			'For example 50, or turn on Return All.',
		);
	return value;
}

/** The Timeout option of operations whose requests may take long: uploads, downloads, report pages. */
export const timeoutField: Field = {
	property: {
		displayName: 'Timeout (Seconds)',
		name: 'timeout',
		type: 'number',
		// DEFAULT_TIMEOUT_MS in seconds (the lint wants a literal).
		default: 60,
		typeOptions: { minValue: 1 },
		description:
			'How long each request may wait for Field Ops before it fails (reads are tried again). Raise it for large files.',
	},
};

/** The item's Timeout in milliseconds; a value that is not a number of seconds above 0 is refused. */
export function timeoutOf(item: Item): number {
	const raw = item.param('timeout');
	if (raw === null || raw === '') return DEFAULT_TIMEOUT_MS;
	const seconds = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isFinite(seconds) || seconds <= 0)
		throw new FieldOpsFailure(
			`Timeout must be a number of seconds above 0: "${String(raw)}"`,
			'For example 60, or 600 for large files.',
		);
	return Math.round(seconds * 1000);
}
