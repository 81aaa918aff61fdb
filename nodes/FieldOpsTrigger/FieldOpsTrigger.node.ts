import {
	NodeConnectionTypes,
	NodeOperationError,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { readReportPages } from '../FieldOps/shared/pagination';
import { reportFilterQuery, reportFiltersProperty } from '../FieldOps/shared/reportFilters';
import { MAX_CHUNK_LIMIT, REPORT_FEEDS, type ReportFeed } from '../FieldOps/shared/reports';
import { searchProjects } from '../FieldOps/methods';
import { testFieldOpsCredential } from '../FieldOps/shared/credentialTest';
import {
	advance,
	modifiedSince,
	newestForTest,
	readState,
	startState,
	type CursorOptions,
	type StartFrom,
	type TriggerEvent,
} from './cursor';
import { cursorFeed } from './feeds';
import { eventAction, eventNotice, noTestEvent, TRIGGER_SUBTITLE } from './wording';

type Row = Record<string, unknown>;

const TOMBSTONE_FEEDS = REPORT_FEEDS.filter((feed) => feed.tombstones).map((feed) => feed.value);
const STATE_KEY = 'cursor';
/** "Fetch Test Event" looks back this far, widening until it finds a few records. */
const TEST_LOOKBACK_DAYS = [1, 7, 30, 365];

interface TriggerOptions {
	maxPerPoll?: number;
	overlapSeconds?: number;
	waitForRoadReference?: boolean;
	roadReferenceTimeoutSeconds?: number;
}

async function readAll(context: IPollFunctions, feed: ReportFeed, query: IDataObject): Promise<Row[]> {
	const records: Row[] = [];
	await readReportPages(context, feed, {
		query,
		chunkLimit: MAX_CHUNK_LIMIT,
		onPage: (page) => {
			for (const record of page.data) records.push(record);
		},
	});
	return records;
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

export class FieldOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops Trigger',
		name: 'fieldOpsTrigger',
		icon: { light: 'file:../../icons/fieldops.svg', dark: 'file:../../icons/fieldops.dark.svg' },
		group: ['trigger'],
		version: 1,
		subtitle: TRIGGER_SUBTITLE,
		description: 'Starts the workflow when Field Ops records are created, changed or deleted (reporting API)',
		defaults: { name: 'Field Ops Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true, testedBy: 'testFieldOpsCredential' }],
		properties: [
			{
				displayName: 'Trigger On',
				name: 'feed',
				type: 'options',
				noDataExpression: true,
				options: REPORT_FEEDS.map((feed) => ({
					name: feed.name,
					value: feed.value,
					action: eventAction(feed),
					description: `Each new or changed ${feed.record}`,
				})),
				default: 'incidentRegistrations',
			},
			{
				displayName: 'Events',
				name: 'events',
				type: 'multiOptions',
				options: [
					{ name: 'Changed', value: 'changed', description: 'A record that existed before was changed' },
					{
						name: 'Deleted',
						value: 'deleted',
						description: 'A record was deleted (only reports that report deletions)',
					},
					{ name: 'New', value: 'new', description: 'A record was created' },
				],
				default: ['new', 'changed', 'deleted'],
				description: 'Which changes start the workflow. Each item says which it was in "_event".',
			},
			eventNotice,
			{
				displayName:
					'Deleted records are only reported by Machine Registrations and Absence Registrations; for the other reports "Deleted" never fires.',
				name: 'deletedNotice',
				type: 'notice',
				default: '',
				displayOptions: { hide: { feed: TOMBSTONE_FEEDS } },
			},
			{
				displayName: 'Start From',
				name: 'startFrom',
				type: 'options',
				options: [
					{ name: 'Now', value: 'now', description: 'Only changes made after the workflow is activated' },
					{ name: 'A Date', value: 'date', description: 'Changes made since a date, then everything new' },
					{
						name: 'Everything',
						value: 'everything',
						description: 'Every existing record first (spread over several executions), then everything new',
					},
				],
				default: 'now',
				description:
					'Where the trigger starts when the workflow is first activated. Changing it later has no effect on a running trigger.',
			},
			{
				displayName: 'Start Date',
				name: 'startDate',
				type: 'dateTime',
				default: '',
				required: true,
				displayOptions: { show: { startFrom: ['date'] } },
			},
			reportFiltersProperty('feed'),
			{
				displayName: 'Options',
				name: 'options',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Max Records per Execution',
						name: 'maxPerPoll',
						type: 'number',
						default: 1000,
						typeOptions: { minValue: 1 },
						description:
							'A backlog (for example "Everything") is worked through over several executions, oldest first, this many at a time',
					},
					{
						displayName: 'Re-Read Window (Seconds)',
						name: 'overlapSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 0 },
						description:
							'Each poll re-reads this much before the last change seen, so records written late are not missed; what was already emitted is not emitted again',
					},
					{
						displayName: 'Road Reference Timeout (Seconds)',
						name: 'roadReferenceTimeoutSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 1 },
						displayOptions: { show: { '/feed': ['images'], waitForRoadReference: [true] } },
						description: 'How long to wait for the road reference before emitting the image without it',
					},
					{
						displayName: 'Wait for Road Reference',
						name: 'waitForRoadReference',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '/feed': ['images'] } },
						description:
							'Whether to hold back new images with coordinates until Field Ops has filled in their road reference (normally seconds after upload)',
					},
				],
			},
		],
	};

	methods = { listSearch: { searchProjects }, credentialTest: { testFieldOpsCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
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
				const records = await readAll(this, feed, {
					...query,
					ModifiedSince: new Date(now - days * 86_400_000).toISOString(),
				});
				const newest = newestForTest(records, definition, cursorOptions);
				if (newest.length > 0 || days === TEST_LOOKBACK_DAYS[TEST_LOOKBACK_DAYS.length - 1]) {
					if (newest.length > 0) return [newest.map(({ event, record }) => toItem(event, record))];
					throw noTestEvent(this.getNode(), feed, { records, definition, options: cursorOptions, days });
				}
			}
		}

		const staticData = this.getWorkflowStaticData('node');
		const startFrom = this.getNodeParameter('startFrom', 'now') as StartFrom['from'];
		const start: StartFrom =
			startFrom === 'date'
				? { from: 'date', date: Date.parse(this.getNodeParameter('startDate') as string) }
				: { from: startFrom as 'now' | 'everything' };
		if (start.from === 'date' && !Number.isFinite(start.date))
			throw new NodeOperationError(this.getNode(), 'Start Date is not a valid date');
		const state =
			readState(staticData[STATE_KEY], definition) ?? startState(definition, start, now, cursorOptions);

		const records = await readAll(this, feed, {
			...query,
			ModifiedSince: modifiedSince(state, cursorOptions),
		});
		const result = advance(state, records, definition, cursorOptions, now);
		// Written last: a poll that failed above leaves the stored state as it was.
		staticData[STATE_KEY] = result.state as unknown as IDataObject;
		return result.emit.length > 0 ? [result.emit.map(({ event, record }) => toItem(event, record))] : null;
	}
}
