import {
	NodeConnectionTypes,
	type DisplayCondition,
	type IDisplayOptions,
	type INodeExecutionData,
	type INodeProperties,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { searchProjects } from '../FieldOps/methods';
import { testFieldOpsCredential } from '../FieldOps/transport/credentialTest';
import { reportFiltersProperty } from '../FieldOps/reporting/filters';
import { feedValues, REPORT_FEEDS } from '../FieldOps/reporting/feeds';
import { DESCRIPTION } from '../FieldOps/resources';
import { pollFeed } from './poll';
import { since } from '../FieldOps/parameters/field';
import type { TriggerEvent } from './state';
import { eventEntry, eventNotice, eventsOf, TRIGGER_SUBTITLE } from './wording';

const TOMBSTONE_FEEDS = feedValues((feed) => feed.tombstones);
const ROAD_REFERENCE_FEEDS = feedValues((feed) => feed.awaitsRoadReference !== undefined);
const V1 = { '@version': [1] };
const EVENTS: TriggerEvent[] = ['new', 'changed', 'deleted'];
/** The entries n8n's node creator lists first (the everyday job), before every other record's. */
const FIRST_ENTRIES = ['incidentRegistrations.new'];

/**
 * The node creator's trigger entries, one per record type and event, each opening the node with exactly that
 * record and event (from version 1.1). n8n lists the options of a trigger's first parameter labelled Event and
 * sets that one parameter; this hidden parameter carries "<record>.<event>", and Trigger On and Events take it
 * as their default (one variant of each per record or event, below). Changing either later is an ordinary edit.
 */
const ENTRIES = REPORT_FEEDS.flatMap((feed) =>
	eventsOf(feed).map((event) => {
		const { action, description } = eventEntry(feed, event);
		return { name: action, value: `${feed.value}.${event}`, action, description };
	}),
).sort((a, b) => Number(FIRST_ENTRIES.includes(b.value)) - Number(FIRST_ENTRIES.includes(a.value)));
const entry: INodeProperties = {
	displayName: 'Event',
	name: 'entry',
	type: 'hidden',
	default: '',
	options: ENTRIES,
	displayOptions: { show: since(1.1) },
};
const fromEntry = (test: 'startsWith' | 'endsWith', text: string) =>
	({ _cnd: { [test]: text } }) as DisplayCondition;

const feedProperty = (defaultFeed: string, displayOptions: IDisplayOptions): INodeProperties => ({
	displayName: 'Trigger On',
	name: 'feed',
	type: 'options',
	noDataExpression: true,
	options: REPORT_FEEDS.map((feed) => ({
		name: feed.name,
		value: feed.value,
		description: `Each new or changed ${feed.record}`,
	})),
	default: defaultFeed,
	displayOptions,
});
/** Trigger On: Incident Registrations in version 1; from 1.1 the entry's record. */
const feeds: INodeProperties[] = [
	feedProperty('incidentRegistrations', { show: V1 }),
	...REPORT_FEEDS.map((feed) =>
		feedProperty(feed.value, { show: { ...since(1.1), entry: [fromEntry('startsWith', `${feed.value}.`)] } }),
	),
	feedProperty('incidentRegistrations', {
		show: since(1.1),
		hide: { entry: REPORT_FEEDS.map((feed) => fromEntry('startsWith', `${feed.value}.`)) },
	}),
];

const eventsProperty = (events: TriggerEvent[], displayOptions: IDisplayOptions): INodeProperties => ({
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
		{
			name: 'New',
			value: 'new',
			description: 'A record the trigger sees for the first time, created after it started',
		},
	],
	default: [...events],
	displayOptions,
	description: 'Which changes start the workflow. Each item says which it was in "_event".',
	hint: 'New: Field Ops shows when a record was created on Machine Registrations and Images. On the other reports a record is new the first time the trigger sees it (if it was edited before, that first version is what arrives as new).',
});
/** Events: all three in version 1; from 1.1 the entry's event, New for a node added otherwise. */
const events: INodeProperties[] = [
	eventsProperty(EVENTS, { show: V1 }),
	...EVENTS.map((event) =>
		eventsProperty([event], { show: { ...since(1.1), entry: [fromEntry('endsWith', `.${event}`)] } }),
	),
	eventsProperty(['new'], {
		show: since(1.1),
		hide: { entry: EVENTS.map((event) => fromEntry('endsWith', `.${event}`)) },
	}),
];

const DELETED_NOTICE =
	'Field Ops documents deleted records only for Machine Registrations and Absence Registrations: on this report "Deleted" fires only if Field Ops reports a deletion (isDeleted: true).';

export class FieldOpsTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops Trigger',
		name: 'fieldOpsTrigger',
		icon: { light: 'file:../../icons/fieldops.svg', dark: 'file:../../icons/fieldops.dark.svg' },
		group: ['trigger'],
		// 1.1: an entry per record and event in the node creator (Events: that one), Simplify on for new nodes.
		version: [1, 1.1],
		defaultVersion: 1.1,
		subtitle: TRIGGER_SUBTITLE,
		description: DESCRIPTION,
		defaults: { name: 'Field Ops Trigger' },
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true, testedBy: 'testFieldOpsCredential' }],
		properties: [
			entry,
			...feeds,
			...events,
			eventNotice,
			{
				displayName: DELETED_NOTICE,
				name: 'deletedNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: V1, hide: { feed: TOMBSTONE_FEEDS } },
			},
			// From 1.1 only where Deleted is ticked.
			{
				displayName: DELETED_NOTICE,
				name: 'deletedNotice',
				type: 'notice',
				default: '',
				displayOptions: { show: { ...since(1.1), events: ['deleted'] }, hide: { feed: TOMBSTONE_FEEDS } },
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
				displayName: 'Simplify',
				name: 'simplify',
				type: 'boolean',
				default: true,
				displayOptions: { show: since(1.1) },
				description:
					'Whether to return the columns a person reads (names, numbers, times in the workflow’s time zone), as the Report does, instead of the raw record. Each item keeps the record’s ID and _event.',
			},
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
							'A backlog (for example "Everything") is worked through over several executions, oldest first, about this many at a time: records changed in the same millisecond always arrive together. Checklists and incidents, if Field Ops cannot split them by time (no ModifiedBefore), arrive all at once.',
					},
					{
						displayName: 'Re-Read Window (Seconds)',
						name: 'overlapSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 0 },
						description:
							"How late Field Ops may show a change (after the time it carries) and still be caught: the trigger re-reads that much of the recent past, and emits nothing twice. Also how far Field Ops' clock (the Date of its answers) may be from n8n's: further off, polls stop with a message until the clocks agree.",
					},
					{
						displayName: 'Road Reference Timeout (Seconds)',
						name: 'roadReferenceTimeoutSeconds',
						type: 'number',
						default: 60,
						typeOptions: { minValue: 1 },
						displayOptions: { show: { '/feed': ROAD_REFERENCE_FEEDS, waitForRoadReference: [true] } },
						description: 'How long to wait for the road reference before emitting the image without it',
					},
					{
						displayName: 'Wait for Road Reference',
						name: 'waitForRoadReference',
						type: 'boolean',
						default: false,
						displayOptions: { show: { '/feed': ROAD_REFERENCE_FEEDS } },
						description:
							'Whether to hold back new images with coordinates until Field Ops has filled in their road reference (normally seconds after upload)',
					},
				],
			},
		],
	};

	methods = { listSearch: { searchProjects }, credentialTest: { testFieldOpsCredential } };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await pollFeed.call(this);
	}
}
