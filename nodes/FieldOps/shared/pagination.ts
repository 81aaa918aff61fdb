import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, nodeError } from './errors';
import { MAX_CHUNK_LIMIT, type ReportFeed } from './reports';
import { send, type FieldOpsContext } from './transport';

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
}

/** Attempts per page on 429/5xx/dropped, stalled or unreadable answers, before the error is shown. */
export const PAGE_RETRIES = 5;
/** Guards against a service that never stops handing out continuation tokens. */
export const MAX_PAGES = 100_000;

/** The answer as a page of records, or a failure saying what was wrong with it. */
function asPage(body: unknown): ReportPage {
	if (!body || typeof body !== 'object' || Array.isArray(body))
		throw new FieldOpsFailure(
			`the answer is ${Array.isArray(body) ? 'a bare list' : typeof body === 'string' ? 'text' : 'empty'}, not a page of records`,
		);
	const page = body as IDataObject;
	if (!Array.isArray(page.data))
		throw new FieldOpsFailure(
			`the page has ${page.data === undefined || page.data === null ? 'no' : 'a malformed'} "data" list`,
		);
	const token = page.continuationToken;
	if (token !== undefined && token !== null && typeof token !== 'string')
		throw new FieldOpsFailure('the continuation token is not text');
	return {
		...(page as unknown as ReportPage),
		data: page.data as IDataObject[],
		continuationToken: token || undefined,
	};
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
	const seen = new Set<string>();
	let token: string | undefined;
	let number = 0;
	do {
		number++;
		try {
			if (number > MAX_PAGES)
				throw new FieldOpsFailure(`more than ${MAX_PAGES} pages: the service does not stop`);
			const response = await send(context, {
				api: 'reporting',
				method: 'GET',
				path: feed.path,
				qs: { ...options.query, ChunkLimit: chunkLimit, ...(token ? { ContinuationToken: token } : {}) },
				what: 'report',
				itemIndex: options.itemIndex,
				retries: PAGE_RETRIES,
				timeoutMs: options.timeoutMs,
			});
			const page = asPage(response.body);
			const serverTime = Date.parse(String(response.headers.date ?? ''));
			await options.onPage(page, { number, serverTime: Number.isNaN(serverTime) ? undefined : serverTime });
			token = page.continuationToken;
			if (token !== undefined && seen.has(token))
				throw new FieldOpsFailure('the service repeated a continuation token it had already given');
			if (token !== undefined) seen.add(token);
		} catch (error) {
			const failure = nodeError(context.getNode(), error, options.itemIndex);
			failure.message = `${feed.name}, page ${number}: ${failure.message}`;
			if (error instanceof FieldOpsFailure && !failure.description)
				failure.description =
					'Nothing after this page was read. Try again; if it keeps happening, contact Field Ops support.';
			throw failure;
		}
	} while (token && !options.enough?.());
	return number;
}
