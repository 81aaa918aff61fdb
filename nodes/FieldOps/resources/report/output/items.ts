import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Item } from '../../../items/items';
import type { ReportPage } from '../../../reporting/pages';
import type { ReportFeed } from '../../../reporting/feeds';
import { attachFiles, type DownloadOptions } from './recordFiles';
import { fileOutput } from './file';
import { simplifier } from '../simplify';
import { summaryFields, type ExportSummary } from '../summary';

export type { ExportSummary };

export interface OutputOptions extends DownloadOptions {
	downloadFiles?: boolean;
	includeEnvelope?: boolean;
}

/** Where the records of one input item's export go, page by page. */
export interface ReportOutput {
	/** One page's records (Limit and Deleted Records already applied); `number` is the page's, from 1. */
	page(records: IDataObject[], page: ReportPage, number: number): Promise<void> | void;
	/**
	 * Reads the pages with `read` (which answers how many it read) and answers the output items, which say what
	 * `summary` says once the pages are read.
	 */
	collect(read: () => Promise<number>, summary: () => ExportSummary): Promise<INodeExecutionData[]>;
}

export type Shape = (record: IDataObject) => IDataObject;

/**
 * From version 1.2 every item says what the export covered (`_report`: the window in words and ISO, the count,
 * whether the Limit cut it): a reader of the spreadsheet made from the items sees which week it is. Nodes saved
 * before keep their items as they were.
 */
function withSummary(
	item: Item,
	entries: INodeExecutionData[],
	summary: ExportSummary,
): INodeExecutionData[] {
	if (item.context.getNode().typeVersion < 1.2) return entries;
	const fields = { ...summaryFields(summary), returned: summary.returned };
	for (const entry of entries) entry.json._report = fields;
	return entries;
}

const envelopeOf = (page: ReportPage): IDataObject => ({
	meta: page.meta,
	syncTypeName: page.syncTypeName,
	recordCount: page.recordCount,
	deletedRecordCount: page.deletedRecordCount,
});

/** Items: one per record (as before Output existed). Files are downloaded from the raw records, then shaped. */
function itemsOutput(
	item: Item,
	feed: ReportFeed,
	options: OutputOptions,
	shape: Shape,
	timeoutMs: number,
): ReportOutput {
	const entries: INodeExecutionData[] = [];
	const downloads = options.downloadFiles === true && feed.files !== undefined;
	return {
		page(records, page) {
			const envelope = options.includeEnvelope ? envelopeOf(page) : undefined;
			for (const record of records) {
				const json = downloads ? record : shape(record);
				entries.push({ json: envelope ? { ...json, _page: envelope } : json });
			}
		},
		async collect(read, summary) {
			await read();
			if (downloads) {
				await attachFiles(item.context, feed, entries, options, item.index, timeoutMs);
				for (const entry of entries) entry.json = shape(entry.json);
			}
			return withSummary(item, entries, summary());
		},
	};
}

/** One item per page that has records: `{ page, records }`. */
function pagesOutput(item: Item, options: OutputOptions, shape: Shape): ReportOutput {
	const entries: INodeExecutionData[] = [];
	return {
		page(records, page, number) {
			if (records.length === 0) return;
			const json: IDataObject = { page: number, records: records.map(shape) };
			if (options.includeEnvelope) json._page = envelopeOf(page);
			entries.push({ json });
		},
		async collect(read, summary) {
			await read();
			return withSummary(item, entries, summary());
		},
	};
}

/**
 * The output the item asks for: Items, One Item per Page, or File; Simplify shapes each record, its times in
 * `timeZone`. `timeoutMs` bounds each file download (Items with Download Files).
 */
export function openOutput(
	item: Item,
	feed: ReportFeed,
	options: OutputOptions,
	timeoutMs: number,
	timeZone: string,
): ReportOutput {
	const shape: Shape =
		item.param<boolean>('simplify') === true ? simplifier(feed, timeZone) : (record) => record;
	const output = item.param<string>('output') ?? 'items';
	if (output === 'file') return fileOutput(item, feed, shape);
	if (output === 'pages') return pagesOutput(item, options, shape);
	return itemsOutput(item, feed, options, shape, timeoutMs);
}
