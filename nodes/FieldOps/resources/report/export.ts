import type { IDataObject, IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { isoDateTime } from '../../shared/dates';
import { FieldOpsFailure } from '../../shared/errors';
import { readLimit } from '../../shared/fields';
import { downloadFile, isOwnUrl } from '../../shared/files';
import { forEachItem, type Item } from '../../shared/items';
import type { CodeOperation } from '../../shared/operation';
import { readReportPages } from '../../shared/pagination';
import { reportFilterQuery } from '../../shared/reportFilters';
import { MAX_CHUNK_LIMIT, type ReportFeed } from '../../shared/reports';
import { timeoutOf } from '../../shared/transport';
import { reportFields } from './fields';

const IMAGE_URL_FIELD: Record<string, string> = {
	original: 'downloadUrl',
	large: 'largeUrl',
	medium: 'mediumUrl',
	thumbnail: 'thumbnailUrl',
};
const DOWNLOAD_CONCURRENCY = 4;

interface ReportOptions {
	deletedRecords?: 'keep' | 'drop';
	downloadFiles?: boolean;
	imageSize?: string;
	binaryPropertyName?: string;
	includeEnvelope?: boolean;
	pageSize?: number;
}

/** A date filter as the API's UTC ISO 8601, checked before sending. */
function dateParameter(item: Item, name: string, label: string): string | undefined {
	const raw = item.param(name);
	if (raw === '' || raw === null) return undefined;
	return new Date(isoDateTime(label, raw)).toISOString();
}

/** The query of the first page, checked before any request is sent. */
async function buildQuery(item: Item, feed: ReportFeed): Promise<IDataObject> {
	const query: IDataObject = {};
	const mode = feed.dateWindow ? (item.param('syncMode') ?? 'window') : (item.param('listMode') ?? 'all');
	if (mode === 'window') {
		const from = dateParameter(item, 'fromDateTime', 'From');
		const to = dateParameter(item, 'toDateTime', 'To');
		if (from && to && from > to) throw new FieldOpsFailure('From is later than To', 'Swap the two dates.');
		Object.assign(query, from && { FromDateTime: from }, to && { ToDateTime: to });
	} else if (mode === 'modifiedSince') {
		const since = dateParameter(item, 'modifiedSince', 'Modified Since');
		if (!since)
			throw new FieldOpsFailure('Modified Since is empty', 'Set the moment from which changes are wanted.');
		const before = dateParameter(item, 'modifiedBefore', 'Modified Before');
		if (before && before <= since)
			throw new FieldOpsFailure(
				'Modified Before must be later than Modified Since',
				'Field Ops only accepts a change window whose end is after its start. Leave Modified Before empty for "until now".',
			);
		Object.assign(query, { ModifiedSince: since }, before && { ModifiedBefore: before });
	}
	const filters = (item.param<IDataObject>('filters') ?? {}) as IDataObject;
	Object.assign(query, await reportFilterQuery(item.context, feed, filters, item.index));
	return query;
}

/** Runs `work` over `entries` with at most `limit` at once. */
async function inPool<T>(entries: T[], limit: number, work: (entry: T) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < entries.length) await work(entries[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
}

async function attachFiles(
	context: IExecuteFunctions,
	feed: ReportFeed,
	entries: INodeExecutionData[],
	options: ReportOptions,
	itemIndex: number,
	timeoutMs: number,
) {
	const property = options.binaryPropertyName || 'data';
	const urlField = feed.files === 'image' ? IMAGE_URL_FIELD[options.imageSize ?? 'large'] : 'pdfUrl';
	await inPool(entries, DOWNLOAD_CONCURRENCY, async (entry) => {
		const record = entry.json;
		const url = record[urlField];
		if (typeof url !== 'string' || url === '') {
			record._file = {
				downloaded: false,
				reason:
					feed.files === 'pdf'
						? 'The PDF is not generated yet: Field Ops creates it when the record is submitted.'
						: `The record has no ${urlField}.`,
			};
			return;
		}
		if (!(await isOwnUrl(context, url))) {
			record._file = {
				downloaded: false,
				reason:
					'The file link does not point at an address of the Field Ops credential, so it was not fetched: the access token is only sent to your Field Ops addresses.',
				url,
			};
			return;
		}
		const fallbackName = String(
			record.fileNameOriginal ??
				record.fileName ??
				`${feed.record.replace(/\s+/g, '-')}-${String(record.id)}${feed.files === 'pdf' ? '.pdf' : ''}`,
		);
		entry.binary = { [property]: await downloadFile(context, { url, itemIndex, timeoutMs }, fallbackName) };
		record._file = { downloaded: true, property };
	});
}

/** One Report operation: every page of the feed, one item per record, optionally with its file. */
export function exportOperation(feed: ReportFeed): CodeOperation {
	return {
		name: feed.name,
		value: feed.value,
		action: `Export ${feed.name.toLowerCase()}`,
		description: `One item per ${feed.record}; the pages of the reporting API are followed for you`,
		fields: reportFields(feed),
		requests: [{ api: 'reporting', method: 'GET', path: feed.path }],
		execute: async (context) =>
			await forEachItem(context, async (item) => {
				const query = await buildQuery(item, feed);
				const limit = readLimit(item);
				const timeoutMs = timeoutOf(item);
				const options = (item.param<ReportOptions>('options') ?? {}) as ReportOptions;
				const pageSize = Math.min(options.pageSize ?? MAX_CHUNK_LIMIT, MAX_CHUNK_LIMIT);
				const dropDeleted = options.deletedRecords === 'drop';
				const entries: INodeExecutionData[] = [];
				await readReportPages(context, feed, {
					query,
					chunkLimit: Math.min(pageSize, limit),
					itemIndex: item.index,
					timeoutMs,
					enough: () => entries.length >= limit,
					onPage: (page) => {
						const envelope = options.includeEnvelope
							? {
									meta: page.meta,
									syncTypeName: page.syncTypeName,
									recordCount: page.recordCount,
									deletedRecordCount: page.deletedRecordCount,
								}
							: undefined;
						for (const record of page.data) {
							if (entries.length >= limit) break;
							if (dropDeleted && record.isDeleted === true) continue;
							entries.push({ json: envelope ? { ...record, _page: envelope as IDataObject } : record });
						}
					},
				});
				if (options.downloadFiles && feed.files)
					await attachFiles(context, feed, entries, options, item.index, timeoutMs);
				return entries;
			}),
	};
}
