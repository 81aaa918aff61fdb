import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { REPORT_FEEDS } from '../FieldOps/reporting/feeds';
import { simplifier } from '../FieldOps/resources/report/simplify';

/**
 * Simplify (from node version 1.1, on for new nodes): each emitted record as the Report shows it (the feed
 * table's readable columns, times in the workflow's time zone), with the record's `id` for a later lookup and
 * `_event`. A step on what the poll emits: the cursor never sees it. Version 1 emits the raw records.
 */
export function readable(
	context: IPollFunctions,
	emitted: INodeExecutionData[][] | null,
): INodeExecutionData[][] | null {
	if (!emitted || context.getNode().typeVersion < 1.1) return emitted;
	if (context.getNodeParameter('simplify', true) !== true) return emitted;
	const feed = REPORT_FEEDS.find((candidate) => candidate.value === context.getNodeParameter('feed'));
	if (!feed) return emitted;
	const shape = simplifier(feed, context.getTimezone());
	return emitted.map((items) =>
		items.map((item) => {
			const { _event, ...record } = item.json;
			const id = record.id === undefined ? {} : { id: record.id };
			return { ...item, json: { ...shape(record), ...id, _event } as IDataObject };
		}),
	);
}
