import type { IDataObject } from 'n8n-workflow';

import { isoDateTime } from '../../shared/dates';
import { FieldOpsFailure } from '../../shared/errors';
import { readLimit } from '../../shared/fields';
import { forEachItem, type Item } from '../../shared/items';
import type { CodeOperation } from '../../shared/operation';
import { readReportPages } from '../../shared/pagination';
import { reportFilterQuery } from '../../shared/reportFilters';
import { MAX_CHUNK_LIMIT, type ReportFeed } from '../../shared/reports';
import { timeoutOf } from '../../shared/transport';
import { reportFields } from './fields';
import { openOutput, type OutputOptions } from './output';

interface ReportOptions extends OutputOptions {
	deletedRecords?: 'keep' | 'drop';
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
	// The date window: in Date Window mode, or optionally with Modified Since (the spec lists all four together).
	if (feed.dateWindow) {
		const [fromLabel, toLabel] = mode === 'window' ? ['From', 'To'] : ['Dated From', 'Dated To'];
		const from = dateParameter(item, mode === 'window' ? 'fromDateTime' : 'datedFrom', fromLabel);
		const to = dateParameter(item, mode === 'window' ? 'toDateTime' : 'datedTo', toLabel);
		if (from && to && from > to)
			throw new FieldOpsFailure(`${fromLabel} is later than ${toLabel}`, 'Swap the two dates.');
		Object.assign(query, from && { FromDateTime: from }, to && { ToDateTime: to });
	}
	if (mode === 'modifiedSince') {
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

/** One Report operation: every page of the feed, as items, one item per page, or a file. */
export function exportOperation(feed: ReportFeed): CodeOperation {
	return {
		name: feed.name,
		value: feed.value,
		action: feed.action ?? `Export ${feed.name.toLowerCase()}`,
		description: `Every ${feed.record} (its pages followed for you): one item each, one item per page, or a CSV or JSON Lines file`,
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
				const output = openOutput(item, feed, options, timeoutMs);
				let count = 0;
				return await output.collect(
					async () =>
						await readReportPages(context, feed, {
							query,
							chunkLimit: Math.min(pageSize, limit),
							itemIndex: item.index,
							timeoutMs,
							enough: () => count >= limit,
							onPage: async (page, info) => {
								const records: IDataObject[] = [];
								for (const record of page.data) {
									if (count >= limit) break;
									if (dropDeleted && record.isDeleted === true) continue;
									records.push(record);
									count++;
								}
								await output.page(records, page, info.number);
							},
						}),
				);
			}),
	};
}
