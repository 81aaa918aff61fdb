import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import type { ReportFeed } from '../FieldOps/reporting/feeds';
import { simplifier } from '../FieldOps/resources/report/simplify';

/**
 * Simplify (from node version 1.1, on for new nodes): each emitted record as the Report shows it (the feed
 * table's readable columns, times in the workflow's time zone), with the fields that identify the record (`id`, or
 * the feed's own id field, and an image row's parent) for a later lookup, and `_event`. Version 1 emits the raw
 * records.
 */
export function readable(
	context: IPollFunctions,
	feed: ReportFeed,
	items: INodeExecutionData[],
): INodeExecutionData[] {
	if (context.getNode().typeVersion < 1.1) return items;
	if (context.getNodeParameter('simplify', true) !== true) return items;
	const shape = simplifier(feed, context.getTimezone());
	const identity = ['id', ...(feed.idFields ?? []), ...(feed.parent ?? [])];
	return items.map((item) => {
		const { _event, ...record } = item.json;
		const kept = identity.filter((field) => record[field] !== undefined);
		return {
			...item,
			json: {
				...shape(record),
				...Object.fromEntries(kept.map((field) => [field, record[field]])),
				_event,
			} as IDataObject,
		};
	});
}
