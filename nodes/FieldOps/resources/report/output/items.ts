import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Item } from '../../../items/items';
import type { ReportPage } from '../../../reporting/pages';
import type { ReportFeed } from '../../../reporting/feeds';
import { attachFiles, type DownloadOptions } from './recordFiles';
import type { ReportOutput, Shape } from './reportOutput';
import { summaryFields, type ExportSummary } from '../summary';

/** The export's records as n8n items: one per record (with its file, if asked), or one per page. */

export interface OutputOptions extends DownloadOptions {
	downloadFiles?: boolean;
	includeEnvelope?: boolean;
}

/**
 * Nodes of version 1.2 say on every item what the export covered (`_report`: the window in words and ISO, the
 * count, whether the Limit cut it). From 1.3 the execution hint says it once per run instead (export.ts), and the
 * rows are only the records; an AI agent sees no hint, so its tool's first item keeps `_report`. Nodes saved
 * before 1.2 keep their items as they were.
 */
function withSummary(
	item: Item,
	entries: INodeExecutionData[],
	summary: ExportSummary,
): INodeExecutionData[] {
	const node = item.context.getNode();
	if (node.typeVersion < 1.2) return entries;
	const tool = node.type.endsWith('Tool');
	if (node.typeVersion >= 1.3 && !tool) return entries;
	const fields = { ...summaryFields(summary), returned: summary.returned };
	for (const entry of node.typeVersion >= 1.3 ? entries.slice(0, 1) : entries) entry.json._report = fields;
	return entries;
}

const envelopeOf = (page: ReportPage): IDataObject => ({
	meta: page.meta,
	syncTypeName: page.syncTypeName,
	recordCount: page.recordCount,
	deletedRecordCount: page.deletedRecordCount,
});

/** Items: one per record (as before Output existed). Files are downloaded from the raw records, then shaped. */
export function itemsOutput(
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
export function pagesOutput(item: Item, options: OutputOptions, shape: Shape): ReportOutput {
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
