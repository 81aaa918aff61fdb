import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { nodeError } from '../transport/errors';
import { expectList } from '../lookups/records';
import { readSettings } from '../transport/settings';
import { sendJson, type ApiRequest } from '../transport/transport';

/** Entries the editor gets per page: it asks for the next page when the user scrolls to the end. */
export const PAGE_SIZE = 100;
/** How long a list read for the editor serves its next pages and searches (one read, not one per page). */
const KEEP_MS = 60_000;

const lists = new Map<string, { until: number; records: Promise<IDataObject[]> }>();

/**
 * A list route's answer for the pick-lists. The core API's lists come whole (the spec shows no paging on them): the
 * list is read when the editor opens it (`fresh`), and its next pages and searches within it come from that read
 * for a minute, so scrolling through 5,000 entries costs one request, not fifty.
 */
export async function readList(
	context: ILoadOptionsFunctions,
	what: string,
	request: ApiRequest,
	fresh = false,
): Promise<IDataObject[]> {
	try {
		const settings = await readSettings(context);
		const key = JSON.stringify([settings.urls.core, settings.client.clientId, request]);
		const now = Date.now();
		for (const [old, entry] of lists) if (entry.until <= now) lists.delete(old);
		let entry = fresh ? undefined : lists.get(key);
		if (!entry) {
			const records = (async () => expectList(await sendJson(context, { what, ...request }), what))();
			entry = { until: now + KEEP_MS, records };
			lists.set(key, entry);
			records.catch(() => lists.delete(key));
		}
		return await entry.records;
	} catch (error) {
		throw nodeError(context.getNode(), error);
	}
}

/** Whether the editor opens a list anew (its first page, no search): then the list is read again. */
export const opening = (filter?: string, paginationToken?: string) => !filter && !paginationToken;

/** One page of entries, and the token of the next page while there is one. */
export function page(results: INodeListSearchItems[], paginationToken?: string): INodeListSearchResult {
	const start = Math.max(0, Number(paginationToken ?? 0) || 0);
	const end = start + PAGE_SIZE;
	return {
		results: results.slice(start, end),
		...(end < results.length ? { paginationToken: String(end) } : {}),
	};
}

/** Whether any of the texts contains the filter (case-insensitive); no filter keeps everything. */
export const matches = (filter: string | undefined, ...values: unknown[]) =>
	!filter ||
	values.some(
		(v) =>
			(typeof v === 'string' || typeof v === 'number') &&
			String(v).toLowerCase().includes(filter.toLowerCase()),
	);

/** "P1001 – Skole – (inactive)": the parts that are there, joined. */
export const label = (...parts: unknown[]) =>
	parts
		.filter((p) => (typeof p === 'string' && p !== '') || typeof p === 'number')
		.map(String)
		.join(' – ');
