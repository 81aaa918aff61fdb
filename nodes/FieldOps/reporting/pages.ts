import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, nodeError } from '../transport/errors';
import { kindOf } from '../transport/http';
import { MAX_CHUNK_LIMIT, type ReportFeed } from './feeds';
import { send, type FieldOpsContext } from '../transport/transport';

export interface ReportPage {
	data: IDataObject[];
	meta?: IDataObject;
	continuationToken?: string;
	syncTypeName?: string;
	recordCount?: number;
	deletedRecordCount?: number;
}

export interface PageInfo {
	/** 1-based. */
	number: number;
	/** The answer's HTTP `Date` header (the service's clock), in epoch milliseconds. */
	serverTime?: number;
}

export interface ReadOptions {
	/** Filters of the first request; repeated unchanged on every page, as the API requires. */
	query: IDataObject;
	/** Page size (ChunkLimit); the API's range is 1–10000. */
	chunkLimit: number;
	/** Checked after each page: true stops reading (e.g. a Limit was reached). */
	enough?: () => boolean;
	/** Called with each page as it arrives, so no page is kept longer than needed. */
	onPage(page: ReportPage, info: PageInfo): void | Promise<void>;
	itemIndex?: number;
	timeoutMs?: number;
	/** Which part of the read this is, for messages ("records dated … – …"). */
	label?: string;
	/** Each request is sent inside it (a slot of the parallel requests). */
	around?: <T>(send: () => Promise<T>) => Promise<T>;
	/** The service asked to slow down (a 429 or a Retry-After); the request is retried all the same. */
	throttled?: () => void;
}

/** Attempts per page on 429/5xx/dropped, stalled or unreadable answers, before the error is shown. */
export const PAGE_RETRIES = 5;
/**
 * No real read comes near this many records (n8n could not hold them): a service still handing out continuation
 * tokens after this many records' worth of pages does not stop, so the read ends with an error.
 */
export const MAX_RECORDS = 10_000_000;

/** What is wrong with an answer that should be a page of records, or nothing. */
function pageProblem(body: unknown): string | undefined {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		return `Field Ops answered ${kindOf(body)} where a page of records was expected`;
	const { data, continuationToken } = body as IDataObject;
	if (!Array.isArray(data))
		return `the page has ${data === undefined || data === null ? 'no' : 'a malformed'} "data" list`;
	if (data.some((record) => !record || typeof record !== 'object' || Array.isArray(record)))
		return 'the page has a "data" list whose entries are not records';
	if (continuationToken !== undefined && continuationToken !== null && typeof continuationToken !== 'string')
		return 'the continuation token is not text';
	return undefined;
}

/**
 * Reads a reporting feed page by page, following the continuation token exactly as the API asks: the same
 * parameters on every page, the token echoed verbatim, stop on an absent or empty token. A failed page is
 * retried from its own token, so nothing is read twice or skipped; a page that cannot be read is an error,
 * never an empty page. Answers the number of requests sent.
 */
export async function readReportPages(
	context: FieldOpsContext,
	feed: ReportFeed,
	options: ReadOptions,
): Promise<number> {
	const chunkLimit = Math.min(Math.max(1, Math.floor(options.chunkLimit)), MAX_CHUNK_LIMIT);
	const maxPages = Math.ceil(MAX_RECORDS / chunkLimit);
	const seen = new Set<string>();
	let token: string | undefined;
	let number = 0;
	do {
		number++;
		try {
			if (number > maxPages)
				throw new FieldOpsFailure(`more than ${maxPages} pages without an end: the service does not stop`);
			const request = {
				api: 'reporting' as const,
				method: 'GET' as const,
				path: feed.path,
				qs: { ...options.query, ChunkLimit: chunkLimit, ...(token ? { ContinuationToken: token } : {}) },
				what: 'report',
				itemIndex: options.itemIndex,
				retries: PAGE_RETRIES,
				timeoutMs: options.timeoutMs,
				throttled: options.throttled,
				// A malformed page is asked for again, then an error: never read as an empty page.
				check: pageProblem,
			};
			const response = options.around
				? await options.around(async () => await send(context, request))
				: await send(context, request);
			const page = response.body as ReportPage;
			token = page.continuationToken || undefined;
			if (token !== undefined && seen.has(token))
				throw new FieldOpsFailure('the service repeated a continuation token it had already given');
			if (token !== undefined) seen.add(token);
			const serverTime = Date.parse(String(response.headers.date ?? ''));
			await options.onPage(page, { number, serverTime: Number.isNaN(serverTime) ? undefined : serverTime });
		} catch (error) {
			const failure = nodeError(context.getNode(), error, options.itemIndex);
			failure.message = `${feed.name}, ${options.label ? `${options.label}, ` : ''}page ${number}: ${failure.message}`;
			if (error instanceof FieldOpsFailure && !failure.description)
				failure.description =
					'Nothing after this page was read. Try again; if it keeps happening, contact Field Ops support.';
			throw failure;
		}
	} while (token && !options.enough?.());
	return number;
}
