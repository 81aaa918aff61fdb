import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
} from 'n8n-workflow';

import { asNodeError } from '../../shared/errors';
import { downloadCoreFile, isCoreApiUrl } from '../../shared/files';
import { readReportPages } from '../../shared/pagination';
import { reportFilterQuery } from '../../shared/reportFilters';
import { MAX_CHUNK_LIMIT, type ReportFeed } from '../../shared/reports';
import type { CustomOperation } from '../../shared/types';

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

function dateParameter(
	context: IExecuteFunctions,
	name: string,
	label: string,
	itemIndex: number,
): string | undefined {
	const value = context.getNodeParameter(name, itemIndex, '') as string | Date;
	if (value === '' || value === null || value === undefined) return undefined;
	const date = new Date(value as string);
	if (Number.isNaN(date.getTime())) {
		throw new NodeOperationError(context.getNode(), `${label} is not a valid date: "${String(value)}"`, {
			description: 'Pick a date and time, or use an ISO 8601 value such as 2026-11-16T00:00:00Z.',
			itemIndex,
		});
	}
	return date.toISOString();
}

/** The query of the first page, checked before any request is sent. */
async function buildQuery(
	context: IExecuteFunctions,
	feed: ReportFeed,
	itemIndex: number,
): Promise<IDataObject> {
	const query: IDataObject = {};
	const mode = feed.dateWindow
		? context.getNodeParameter('syncMode', itemIndex, 'window')
		: context.getNodeParameter('listMode', itemIndex, 'all');
	if (mode === 'window') {
		const from = dateParameter(context, 'fromDateTime', 'From', itemIndex);
		const to = dateParameter(context, 'toDateTime', 'To', itemIndex);
		if (from && to && from > to) {
			throw new NodeOperationError(context.getNode(), 'From is later than To', {
				description: 'Swap the two dates.',
				itemIndex,
			});
		}
		Object.assign(query, from && { FromDateTime: from }, to && { ToDateTime: to });
	} else if (mode === 'modifiedSince') {
		const since = dateParameter(context, 'modifiedSince', 'Modified Since', itemIndex);
		if (!since)
			throw new NodeOperationError(context.getNode(), 'Modified Since is empty', {
				description: 'Set the moment from which changes are wanted.',
				itemIndex,
			});
		const before = dateParameter(context, 'modifiedBefore', 'Modified Before', itemIndex);
		if (before && before <= since) {
			throw new NodeOperationError(context.getNode(), 'Modified Before must be later than Modified Since', {
				description:
					'Field Ops only accepts a change window whose end is after its start. Leave Modified Before empty for "until now".',
				itemIndex,
			});
		}
		Object.assign(query, { ModifiedSince: since }, before && { ModifiedBefore: before });
	}

	const filters = context.getNodeParameter('filters', itemIndex, {}, { extractValue: false }) as IDataObject;
	Object.assign(query, await reportFilterQuery(context, feed, filters, itemIndex));
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
		if (!(await isCoreApiUrl(context, url))) {
			record._file = {
				downloaded: false,
				reason:
					'The file link does not point at the Core API URL of the credential, so it was not fetched: the access token is only sent to your Field Ops addresses.',
				url,
			};
			return;
		}
		const fallbackName = String(
			record.fileNameOriginal ??
				record.fileName ??
				`${feed.record.replace(/\s+/g, '-')}-${String(record.id)}${feed.files === 'pdf' ? '.pdf' : ''}`,
		);
		entry.binary = { [property]: await downloadCoreFile(context, url, fallbackName, itemIndex) };
		record._file = { downloaded: true, property };
	});
}

/** One Report operation: every page of the feed, one item per record, optionally with its file. */
export function exportReport(feed: ReportFeed): CustomOperation {
	return async function (this: IExecuteFunctions) {
		const output: INodeExecutionData[] = [];
		const items = this.getInputData();
		for (let itemIndex = 0; itemIndex < items.length; itemIndex++) {
			try {
				const query = await buildQuery(this, feed, itemIndex);
				const returnAll = this.getNodeParameter('returnAll', itemIndex, false) as boolean;
				const limit = returnAll ? Infinity : (this.getNodeParameter('limit', itemIndex, 50) as number);
				const options = this.getNodeParameter('options', itemIndex, {}) as ReportOptions;
				const pageSize = Math.min(options.pageSize ?? MAX_CHUNK_LIMIT, MAX_CHUNK_LIMIT);
				const dropDeleted = options.deletedRecords === 'drop';
				const entries: INodeExecutionData[] = [];
				await readReportPages(this, feed, {
					query,
					chunkLimit: Math.min(pageSize, limit),
					itemIndex,
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
							entries.push({
								json: envelope ? { ...record, _page: envelope as IDataObject } : record,
								pairedItem: { item: itemIndex },
							});
						}
					},
				});
				if (options.downloadFiles && feed.files) await attachFiles(this, feed, entries, options, itemIndex);
				for (const entry of entries) output.push(entry);
			} catch (error) {
				if (!this.continueOnFail()) throw asNodeError(this.getNode(), error, itemIndex);
				output.push({
					json: { error: (error as Error).message },
					error: error as NodeOperationError,
					pairedItem: { item: itemIndex },
				});
			}
		}
		return [output];
	};
}
