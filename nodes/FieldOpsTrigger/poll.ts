import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { instantOrNaN } from '../FieldOps/shared/dates';
import { readReportPages } from '../FieldOps/shared/pagination';
import { reportFilterQuery } from '../FieldOps/shared/reportFilters';
import { MAX_CHUNK_LIMIT, REPORT_FEEDS, type ReportFeed } from '../FieldOps/shared/reports';
import {
	applyRead,
	beginPoll,
	newestForTest,
	planRead,
	queryOf,
	readState,
	startState,
	type CursorOptions,
	type ReadResult,
	type StartFrom,
	type TriggerEvent,
} from './cursor';
import { cursorFeed } from './feeds';
import { noTestEvent } from './wording';

type Row = Record<string, unknown>;

const STATE_KEY = 'cursor';
/** "Fetch Test Event" looks back this far, widening until it finds a few records. */
const TEST_LOOKBACK_DAYS = [1, 7, 30, 365];

interface TriggerOptions {
	maxPerPoll?: number;
	overlapSeconds?: number;
	waitForRoadReference?: boolean;
	roadReferenceTimeoutSeconds?: number;
}

/** One read: pages until the last, or until `stopAfter` records arrived; with the service's time. */
async function read(
	context: IPollFunctions,
	feed: ReportFeed,
	query: IDataObject,
	plan: { chunkLimit: number; stopAfter?: number },
): Promise<ReadResult<Row>> {
	const records: Row[] = [];
	const result: ReadResult<Row> = { records, complete: true };
	await readReportPages(context, feed, {
		query,
		chunkLimit: plan.chunkLimit,
		enough: () => plan.stopAfter !== undefined && records.length >= plan.stopAfter,
		onPage: (page, { serverTime }) => {
			for (const record of page.data) records.push(record);
			result.complete = !page.continuationToken;
			result.serverTime ??= serverTime;
			result.lastServerTime = serverTime ?? result.lastServerTime;
		},
	});
	return result;
}

/**
 * Images with coordinates whose road reference is not filled in yet wait (the cursor holds them and everything
 * after them back) until it is, or until the timeout: the enrichment runs a few seconds after upload and users
 * want it in the first emission.
 */
function awaitingRoadReference(now: number, timeoutMs: number) {
	return (record: Row) =>
		typeof record.latitude === 'number' &&
		typeof record.longitude === 'number' &&
		(record.roadReference === null || record.roadReference === undefined) &&
		now - Date.parse(String(record.createdDateTime)) < timeoutMs;
}

const toItem = (event: TriggerEvent, record: Row): INodeExecutionData => ({
	json: { ...record, _event: event } as IDataObject,
});

/** One poll: plan, read and apply until the cursor says the poll is done; the state is stored last. */
export async function pollFeed(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const feed = REPORT_FEEDS.find((candidate) => candidate.value === this.getNodeParameter('feed'));
	if (!feed) throw new NodeOperationError(this.getNode(), 'Choose which records to watch');
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const cursorOptions: CursorOptions = {
		events: this.getNodeParameter('events', []) as TriggerEvent[],
		maxPerPoll: options.maxPerPoll ?? 1000,
		overlapMs: (options.overlapSeconds ?? 60) * 1000,
	};
	if (cursorOptions.events.length === 0)
		throw new NodeOperationError(this.getNode(), 'Select at least one event');
	const definition = cursorFeed(feed);
	if (feed.value === 'images' && options.waitForRoadReference) {
		definition.holdBack = awaitingRoadReference(
			Date.now(),
			(options.roadReferenceTimeoutSeconds ?? 60) * 1000,
		);
	}
	const query = await reportFilterQuery(
		this,
		feed,
		this.getNodeParameter('filters', {}, { extractValue: false }) as IDataObject,
	);
	const now = Date.now();

	if (this.getMode() === 'manual') {
		// "Fetch Test Event": the newest few records; the trigger's state is never touched.
		for (const days of TEST_LOOKBACK_DAYS) {
			const since = new Date(now - days * 86_400_000).toISOString();
			const { records } = await read(
				this,
				feed,
				{ ...query, ModifiedSince: since },
				{ chunkLimit: MAX_CHUNK_LIMIT },
			);
			const newest = newestForTest(records, definition, cursorOptions);
			if (newest.length > 0) return [newest.map(({ event, record }) => toItem(event, record))];
			if (days === TEST_LOOKBACK_DAYS[TEST_LOOKBACK_DAYS.length - 1])
				throw noTestEvent(this.getNode(), feed, { records, definition, options: cursorOptions, days });
		}
	}

	const staticData = this.getWorkflowStaticData('node');
	const startFrom = this.getNodeParameter('startFrom', 'now') as StartFrom['from'];
	const start: StartFrom =
		startFrom === 'date'
			? { from: 'date', date: instantOrNaN(this.getNodeParameter('startDate'), this.getTimezone()) }
			: { from: startFrom as 'now' | 'everything' };
	if (start.from === 'date' && !Number.isFinite(start.date))
		throw new NodeOperationError(this.getNode(), 'Start Date is not a valid date');
	let state = readState(staticData[STATE_KEY], definition, cursorOptions);
	if (!state) {
		// "Now" is the service's now: it tells its time in the Date header of any answer (one record at most).
		const asked =
			start.from === 'now'
				? await read(
						this,
						feed,
						{ ...query, ModifiedSince: new Date(now).toISOString() },
						{ chunkLimit: 1, stopAfter: 1 },
					)
				: undefined;
		state = startState(definition, start, asked?.serverTime ?? now, cursorOptions);
	}

	let poll = beginPoll<Row>(state);
	while (!poll.done) {
		const plan = planRead(poll, definition, cursorOptions, Date.now());
		const sentAt = Date.now();
		const result = await read(this, feed, { ...query, ...queryOf(plan) }, plan);
		poll = applyRead(poll, plan, result, definition, cursorOptions, sentAt);
	}
	// Written last: a poll that failed above leaves the stored state as it was.
	staticData[STATE_KEY] = poll.state as unknown as IDataObject;
	return poll.emit.length > 0 ? [poll.emit.map(({ event, record }) => toItem(event, record))] : null;
}
