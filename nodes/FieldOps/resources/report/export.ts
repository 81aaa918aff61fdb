import type { IDataObject } from 'n8n-workflow';

import { readLimit, timeoutOf } from '../../parameters/limits';
import { forEachItem, type Item } from '../../items/items';
import type { CodeOperation } from '../../operations/operation';
import { readReportPages, type ReadOptions } from '../../reporting/pages';
import {
	DEFAULT_PARALLEL_REQUESTS,
	MAX_PARALLEL_REQUESTS,
	dateStepOf,
	fullModeDateOf,
	readInSlices,
} from '../../reporting/slices';
import { reportFilterQuery } from '../../reporting/filters';
import { reportFields } from './parameters';
import { fileOutput } from './output/file';
import { itemsOutput, pagesOutput, type OutputOptions } from './output/items';
import type { ReportOutput, Shape } from './output/reportOutput';
import { simplifier } from '../../reporting/simplify';
import { summaryLine, type ExportSummary } from './summary';
import { changeWindow, readWindow, zoneOf, type ReportWindow } from './window';
import { type ReportFeed, MAX_CHUNK_LIMIT } from '../../reporting/feeds';

interface ReportOptions extends OutputOptions {
	deletedRecords?: 'keep' | 'drop';
	pageSize?: number;
	parallelRequests?: number;
}

/** Parallel Requests, checked: a whole number from 1 to the most the option offers. */
function parallelOf(item: Item, options: ReportOptions): number {
	const raw = options.parallelRequests;
	if (raw === undefined || raw === null || String(raw).trim() === '') return DEFAULT_PARALLEL_REQUESTS;
	const value = typeof raw === 'number' ? raw : Number(String(raw).trim());
	if (!Number.isInteger(value) || value < 1 || value > MAX_PARALLEL_REQUESTS)
		throw item.refuse(
			`Parallel Requests must be a whole number from 1 to ${MAX_PARALLEL_REQUESTS}: "${String(raw)}"`,
			`For example ${DEFAULT_PARALLEL_REQUESTS}, or 1 to read the period in one sequence.`,
		);
	return value;
}

/** The query of the first page and the window it covers, checked before any request is sent. */
async function buildQuery(
	item: Item,
	feed: ReportFeed,
): Promise<{ query: IDataObject; window: ReportWindow; slices?: { from: number; to: number } }> {
	const mode = feed.dateWindow ? (item.param('syncMode') ?? 'window') : (item.param('listMode') ?? 'all');
	// The date window: a period, From/To, or (optional) with Modified Since: the spec lists all four together.
	const window: ReportWindow = feed.dateWindow
		? readWindow(item, feed, Date.now())
		: { query: {}, zone: zoneOf(item), notes: () => [] };
	const query: IDataObject = { ...window.query };
	if (mode === 'modifiedSince') Object.assign(query, changeWindow(item, window.zone));
	const filters = (item.param<IDataObject>('filters') ?? {}) as IDataObject;
	Object.assign(query, await reportFilterQuery(item.context, feed, filters, item.index));
	// A period of a feed ordered by its date, with both ends, may be read in time slices.
	const from = Date.parse(String(query.FromDateTime));
	const to = Date.parse(String(query.ToDateTime));
	const sliceable = feed.fullModeDate && mode === 'window' && from < to;
	return { query, window, ...(sliceable && { slices: { from, to } }) };
}

/**
 * The output the item asks for: Items, One Item per Page, or File; Simplify shapes each record, its times in the
 * window's zone. `timeoutMs` bounds each file download (Items with Download Files).
 */
function openOutput(
	item: Item,
	feed: ReportFeed,
	options: OutputOptions,
	timeoutMs: number,
	window: ReportWindow,
): ReportOutput {
	const shape: Shape =
		item.param<boolean>('simplify') === true ? simplifier(feed, window.zone) : (record) => record;
	const output = item.param<string>('output') ?? 'items';
	if (output === 'file') return fileOutput(item, feed, shape, window.description);
	if (output === 'pages') return pagesOutput(item, options, shape);
	return itemsOutput(item, feed, options, shape, timeoutMs);
}

/** "Stopped at the Limit of 50: more time registrations exist. Turn on Return All to get every one." */
const limitNotice = (feed: ReportFeed, limit: number) =>
	`Stopped at the Limit of ${limit}: more ${feed.name.toLowerCase()} exist. Turn on Return All (or raise the Limit) to get every one.`;

/** One Report operation: every page of the feed, as items, one item per page, or a file. */
export function exportOperation(feed: ReportFeed): CodeOperation {
	return {
		name: feed.name,
		value: feed.value,
		action: feed.action ?? `Export ${feed.name.toLowerCase()}`,
		description: `Every ${feed.record} of a period or changed since a moment (its pages followed for you): one item each, one item per page, or a CSV, Excel or JSON Lines file`,
		fields: reportFields(feed),
		requests: [{ api: 'reporting', method: 'GET', path: feed.path }],
		execute: async (context) =>
			await forEachItem(context, async (item) => {
				const { query, window, slices } = await buildQuery(item, feed);
				const limit = readLimit(item);
				const timeoutMs = timeoutOf(item);
				const options = (item.param<ReportOptions>('options') ?? {}) as ReportOptions;
				const parallel = slices ? parallelOf(item, options) : 1;
				const pageSize = Math.min(options.pageSize ?? MAX_CHUNK_LIMIT, MAX_CHUNK_LIMIT);
				const dropDeleted = options.deletedRecords === 'drop';
				const output = openOutput(item, feed, options, timeoutMs, window);
				let count = 0;
				// One record past the Limit is read, so the output can say whether more exist.
				let more = false;
				const summary = (): ExportSummary => {
					const notes = [...window.notes(), ...(more ? [limitNotice(feed, limit)] : [])];
					const done = { window: window.description, returned: count, moreExist: more, notes };
					// What the export covered, said once per run above the output, not on every row.
					context.addExecutionHints({
						message: summaryLine(done, feed),
						type: 'info',
						location: 'outputPane',
					});
					for (const message of notes)
						context.addExecutionHints({ message, type: more ? 'warning' : 'info', location: 'outputPane' });
					return done;
				};
				const read: ReadOptions = {
					query,
					chunkLimit: Math.min(pageSize, limit === Infinity ? pageSize : limit + 1),
					itemIndex: item.index,
					timeoutMs,
					enough: () => more,
					onPage: async (page, info) => {
						const records: IDataObject[] = [];
						for (const record of page.data) {
							if (dropDeleted && record.isDeleted === true) continue;
							if (window.keep && !window.keep(record)) continue;
							if (count >= limit) {
								more = true;
								break;
							}
							records.push(record);
							count++;
						}
						await output.page(records, page, info.number);
					},
				};
				return await output.collect(
					async () =>
						slices && parallel > 1 && feed.fullModeDate
							? await readInSlices(context, feed, {
									...read,
									...slices,
									parallel,
									dateOf: fullModeDateOf(feed.fullModeDate),
									dateStep: dateStepOf(feed.fullModeDate),
									wanted: limit === Infinity ? undefined : limit + 1,
								})
							: await readReportPages(context, feed, read),
					summary,
				);
			}),
	};
}
