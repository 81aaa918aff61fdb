import type { IDataObject } from 'n8n-workflow';

import { MAX_CHUNK_LIMIT, type ReportFeed } from './reports';
import { apiRequestFull, type FieldOpsContext } from './transport';

export interface ReportPage {
	data: IDataObject[];
	meta?: IDataObject;
	continuationToken?: string;
	syncTypeName?: string;
	recordCount?: number;
	deletedRecordCount?: number;
}

export interface ReadOptions {
	/** Filters of the first request; repeated unchanged on every page, as the API requires. */
	query: IDataObject;
	/** Page size (ChunkLimit); the API's range is 1–10000. */
	chunkLimit: number;
	/** Checked after each page: true stops reading (e.g. a Limit was reached). */
	enough?: () => boolean;
	/**
	 * Called with each page as it arrives, so no page is kept longer than needed. `serverTime`: the answer's HTTP
	 * `Date` header in epoch ms (whole seconds), when the server sent one.
	 */
	onPage(page: ReportPage, info: { serverTime?: number }): void | Promise<void>;
	itemIndex?: number;
}

/** Attempts per page on 429/5xx/dropped connections, before the error is shown. */
export const PAGE_RETRIES = 5;

/**
 * Reads a reporting feed page by page, following the continuation token exactly as the API asks: the same
 * parameters on every page, the token echoed verbatim, stop on an absent or empty token. A failed page is
 * retried from its own token, so nothing is read twice or skipped. Answers the number of requests sent.
 */
export async function readReportPages(
	context: FieldOpsContext,
	feed: ReportFeed,
	options: ReadOptions,
): Promise<number> {
	const chunkLimit = Math.min(Math.max(1, Math.floor(options.chunkLimit)), MAX_CHUNK_LIMIT);
	let token: string | undefined;
	let requests = 0;
	do {
		const response = await apiRequestFull(context, {
			api: 'reporting',
			method: 'GET',
			url: feed.path,
			qs: { ...options.query, ChunkLimit: chunkLimit, ...(token ? { ContinuationToken: token } : {}) },
			what: 'report',
			itemIndex: options.itemIndex,
			retries: PAGE_RETRIES,
		});
		requests++;
		const page = (response.body ?? {}) as ReportPage;
		const serverTime = Date.parse(String(response.headers?.date));
		await options.onPage(
			{ ...page, data: page.data ?? [] },
			{ serverTime: Number.isNaN(serverTime) ? undefined : serverTime },
		);
		token = page.continuationToken || undefined;
	} while (token && !options.enough?.());
	return requests;
}
