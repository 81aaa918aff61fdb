import {
	NodeConnectionTypes,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
	type IPollFunctions,
} from 'n8n-workflow';

import { searchProjects } from '../FieldOps/methods';
import { testFieldOpsCredential } from '../FieldOps/transport/credentialTest';
import { reportFiltersProperty } from '../FieldOps/reporting/filters';
import { feedValues, REPORT_FEEDS } from '../FieldOps/reporting/feeds';
import { pollFeed } from './poll';
import { eventAction, eventNotice, TRIGGER_SUBTITLE } from './wording';

const TOMBSTONE_FEEDS = feedValues((feed) => feed.tombstones);
const ROAD_REFERENCE_FEEDS = feedValues((feed) => feed.awaitsRoadReference !== undefined);

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
					{
						name: 'New',
						value: 'new',
						description: 'A record the trigger sees for the first time, created after it started',
					},
				],
				default: ['new', 'changed', 'deleted'],
				description: 'Which changes start the workflow. Each item says which it was in "_event".',
				hint: 'New: Field Ops shows when a record was created on Machine Registrations and Images. On the other reports a record is new the first time the trigger sees it (if it was edited before, that first version is what arrives as new).',
			},
			eventNotice,
			{
				displayName:
					'Field Ops documents deleted records only for Machine Registrations and Absence Registrations: on this report "Deleted" fires only if Field Ops reports a deletion (isDeleted: true).',
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
