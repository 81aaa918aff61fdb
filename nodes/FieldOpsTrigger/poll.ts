import {
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type IPollFunctions,
} from 'n8n-workflow';

import { instantOrNaN } from '../FieldOps/parameters/dates';
import { nodeError } from '../FieldOps/transport/errors';
import { readReportPages } from '../FieldOps/reporting/pages';
import { reportFilterQuery } from '../FieldOps/reporting/filters';
import { CREATED_FIELD, REPORT_FEEDS, type ReportFeed } from '../FieldOps/reporting/feeds';
import { applyRead, beginPoll } from './apply';
import { checkClock } from './clock';
import { cursorFeed } from './feeds';
import { planRead, queryOf } from './plan';
import {
	startState,
	type ReadPlan,
	type ReadResult,
	type StartFrom,
	type Trigger,
	type TriggerEvent,
} from './state';
import { readable } from './readable';
import { readState } from './stored';
import { newestForTest } from './versions';
import { noTestEvent } from './wording';

type Row = Record<string, unknown>;

const STATE_KEY = 'cursor';
/** "Fetch Test Event" looks back this far, widening until it finds a few records: one small page each. */
const TEST_LOOKBACK_DAYS = [1, 7, 30, 365];
const TEST_PAGE = 100;
/** Outside n8n's scheduler (no poll budget) a poll stops starting reads after this long. */
const DEFAULT_BUDGET_MS = 120_000;

interface TriggerOptions {
	maxPerPoll?: number;
	overlapSeconds?: number;
	waitForRoadReference?: boolean;
	roadReferenceTimeoutSeconds?: number;
}

/** What every read of a poll goes out with: n8n's functions, the report and its filters, and the trigger. */
interface Reader {
	n8n: IPollFunctions;
	report: ReportFeed;
	filters: IDataObject;
	trigger: Trigger<Row>;
}

/** One read: pages until the last, or until `stopAfter` records arrived; with the service's time. */
async function read(
	{ n8n, report, filters }: Reader,
	query: IDataObject,
	plan: Pick<ReadPlan, 'chunkLimit' | 'stopAfter'>,
): Promise<ReadResult<Row>> {
	const records: Row[] = [];
	const result: ReadResult<Row> = { records, complete: true };
	await readReportPages(n8n, report, {
		query: { ...filters, ...query },
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

/** A read, with its Date checked against n8n's clock (see checkClock): one far off may stop the poll. */
async function timedRead(
	reader: Reader,
	query: IDataObject,
	plan: Pick<ReadPlan, 'chunkLimit' | 'stopAfter'>,
): Promise<{ result: ReadResult<Row>; sentAt: number }> {
	const sentAt = Date.now();
	const checked = checkClock(await read(reader, query, plan), sentAt, Date.now(), reader.trigger);
	if (checked.off !== undefined) {
		const minutes = Math.max(1, Math.round(Math.abs(checked.off) / 60_000));
		const seconds = Math.ceil(Math.abs(checked.off) / 1000);
		const where = checked.off > 0 ? 'ahead of' : 'behind';
		throw new NodeOperationError(
			reader.n8n.getNode(),
			`The time Field Ops answered with is ${minutes} min ${where} n8n's clock`,
			{
				description: `The trigger goes by Field Ops' clock (the Date of its answers) and tolerates a difference up to the Re-Read Window. It did not move on, so nothing is skipped. Correct the clock that is wrong (n8n's server, Field Ops, or a proxy in between), or set Options → Re-Read Window above ${seconds} seconds.`,
			},
		);
	}
	return { result: checked.read, sentAt };
}

/**
 * Records whose road reference is not filled in yet (images with coordinates) wait (the cursor holds them and
 * everything after them back) until it is, or until the timeout: the enrichment runs a few seconds after upload
 * and users want it in the first emission.
 */
function awaitingRoadReference(awaits: (record: Row) => boolean, now: number, timeoutMs: number) {
	return (record: Row) => awaits(record) && now - Date.parse(String(record[CREATED_FIELD])) < timeoutMs;
}

const toItem = (event: TriggerEvent, record: Row): INodeExecutionData => ({
	json: { ...record, _event: event } as IDataObject,
});

/** A read the service refused outright (the probe of ModifiedBefore): any 4xx but auth and rate limits. */
const refused = (error: unknown) => {
	const status = Number((error as { httpCode?: unknown }).httpCode);
	return status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status);
};

/** One poll: plan, read and apply until the poll is done; the state is stored last. */
export async function pollFeed(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const started = Date.now();
	const report = REPORT_FEEDS.find((candidate) => candidate.value === this.getNodeParameter('feed'));
	if (!report) throw new NodeOperationError(this.getNode(), 'Choose which records to watch');
	const options = this.getNodeParameter('options', {}) as TriggerOptions;
	const trigger: Trigger<Row> = {
		feed: cursorFeed(report),
		options: {
			events: this.getNodeParameter('events', []) as TriggerEvent[],
			maxPerPoll: options.maxPerPoll ?? 1000,
			overlapMs: (options.overlapSeconds ?? 60) * 1000,
		},
	};
	if (trigger.options.events.length === 0)
		throw new NodeOperationError(this.getNode(), 'Select at least one event');
	if (report.awaitsRoadReference && options.waitForRoadReference) {
		trigger.feed.holdBack = awaitingRoadReference(
			report.awaitsRoadReference,
			Date.now(),
			(options.roadReferenceTimeoutSeconds ?? 60) * 1000,
		);
	}
	const filters = await reportFilterQuery(
		this,
		report,
		this.getNodeParameter('filters', {}, { extractValue: false }) as IDataObject,
	);
	const reader: Reader = { n8n: this, report, filters, trigger };
	const itemsOf = (emitted: { event: TriggerEvent; record: Row }[]) =>
		readable(
			this,
			report,
			emitted.map(({ event, record }) => toItem(event, record)),
		);
	const now = Date.now();

	if (this.getMode() === 'manual') {
		// "Fetch Test Event": a few recent records, one small page per look-back; the state is never touched.
		for (const days of TEST_LOOKBACK_DAYS) {
			const since = new Date(now - days * 86_400_000).toISOString();
			const page = { chunkLimit: TEST_PAGE, stopAfter: 1 };
			const { records } = await read(reader, { ModifiedSince: since }, page);
			const newest = newestForTest(records, trigger.feed, trigger.options);
			if (newest.length > 0) return [itemsOf(newest)];
			if (days === TEST_LOOKBACK_DAYS[TEST_LOOKBACK_DAYS.length - 1])
				throw noTestEvent(this.getNode(), report, trigger, { records, days });
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
	let state = readState(staticData[STATE_KEY], trigger.feed, trigger.options);
	if (!state) {
		// "Now" is the service's now: it tells its time in the Date header of any answer (one record at most).
		const asked =
			start.from === 'now'
				? await timedRead(
						reader,
						{ ModifiedSince: new Date(now).toISOString() },
						{ chunkLimit: 1, stopAfter: 1 },
					)
				: undefined;
		state = startState(trigger.feed, start, asked?.result.serverTime ?? now, trigger.options);
	}

	// n8n's scheduler abandons a poll that runs past its budget: no read starts after half of it.
	const budget = typeof this.getPollBudgetMs === 'function' ? this.getPollBudgetMs() : DEFAULT_BUDGET_MS;
	let poll = beginPoll(trigger, state);
	while (!poll.done && (poll.reads === 0 || poll.held || Date.now() - started < budget / 2)) {
		const plan = planRead(poll, Date.now());
		let outcome: { result: ReadResult<Row>; sentAt: number };
		try {
			outcome = await timedRead(reader, queryOf(plan), plan);
		} catch (error) {
			if (!plan.probe || !refused(error)) throw nodeError(this.getNode(), error);
			outcome = { result: { records: [], complete: true, refused: true }, sentAt: Date.now() };
		}
		poll = applyRead(poll, plan, outcome.result, outcome.sentAt);
	}
	const items = itemsOf(poll.emit);
	// Written last: a poll that failed above (Simplify included) leaves the stored state as it was.
	staticData[STATE_KEY] = poll.state as unknown as IDataObject;
	return items.length > 0 ? [items] : null;
}
