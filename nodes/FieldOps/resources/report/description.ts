import type { INodeProperties } from 'n8n-workflow';

import { reportFiltersProperty } from '../../shared/reportFilters';
import { MAX_CHUNK_LIMIT, REPORT_FEEDS } from '../../shared/reports';

const feedsWith = (test: (feed: (typeof REPORT_FEEDS)[number]) => boolean) =>
	REPORT_FEEDS.filter(test).map((feed) => feed.value);
const onlyFor = (operations: string[], extra: Record<string, unknown[]> = {}) => ({
	show: { resource: ['report'], operation: operations, ...extra },
});
/** Inside a collection, a root parameter is named with a leading slash. */
const inCollection = (operations: string[]) => ({ show: { '/operation': operations } });

const WINDOW_FEEDS = feedsWith((feed) => feed.dateWindow);
const LIST_FEEDS = feedsWith((feed) => !feed.dateWindow);
const ALL_FEEDS = REPORT_FEEDS.map((feed) => feed.value);

export const reportProperties: INodeProperties[] = [
	{
		displayName: 'Report',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['report'] } },
		options: REPORT_FEEDS.map((feed) => ({
			name: feed.name,
			value: feed.value,
			action: `Export ${feed.name.toLowerCase()}`,
			description: `One item per ${feed.record}; the pages of the reporting API are followed for you`,
		})),
		default: 'timeRegistrations',
	},
	{
		displayName: 'Period',
		name: 'syncMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: onlyFor(WINDOW_FEEDS),
		options: [
			{
				name: 'Date Window',
				value: 'window',
				description:
					'Records dated within From–To (full export, ordered by date; deleted records are not reported)',
			},
			{
				name: 'Changed Since',
				value: 'modifiedSince',
				description:
					'Records created, changed (or, where the report says so, deleted) since a moment, ordered by change time',
			},
		],
		default: 'window',
	},
	{
		displayName: 'Records',
		name: 'listMode',
		type: 'options',
		noDataExpression: true,
		displayOptions: onlyFor(LIST_FEEDS),
		options: [
			{ name: 'All', value: 'all', description: 'Every record of the list' },
			{
				name: 'Changed Since',
				value: 'modifiedSince',
				description: 'Records created or changed since a moment',
			},
		],
		default: 'all',
	},
	{
		displayName: 'From',
		name: 'fromDateTime',
		type: 'dateTime',
		required: true,
		default: '={{ $today.minus({ days: 7 }).toISO() }}',
		displayOptions: onlyFor(WINDOW_FEEDS, { syncMode: ['window'] }),
		description: 'Start of the window (inclusive). The default is seven days ago.',
	},
	{
		displayName: 'To',
		name: 'toDateTime',
		type: 'dateTime',
		required: true,
		default: '={{ $today.toISO() }}',
		displayOptions: onlyFor(WINDOW_FEEDS, { syncMode: ['window'] }),
		description: 'End of the window. The default is the start of today.',
	},
	// The same two fields for both kinds of report (n8n shows one parameter per name at a time).
	...[
		onlyFor(WINDOW_FEEDS, { syncMode: ['modifiedSince'] }),
		onlyFor(LIST_FEEDS, { listMode: ['modifiedSince'] }),
	].flatMap((displayOptions): INodeProperties[] => [
		{
			displayName: 'Modified Since',
			name: 'modifiedSince',
			type: 'dateTime',
			required: true,
			default: '',
			displayOptions,
			description: 'Only records created or changed at or after this moment',
		},
		{
			displayName: 'Modified Before',
			name: 'modifiedBefore',
			type: 'dateTime',
			default: '',
			displayOptions,
			description: 'Optional end of the change window; must be later than Modified Since',
		},
	]),
	reportFiltersProperty('operation', { resource: ['report'] }),
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		displayOptions: onlyFor(ALL_FEEDS),
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		default: 50,
		typeOptions: { minValue: 1 },
		displayOptions: onlyFor(ALL_FEEDS, { returnAll: [false] }),
		description: 'Max number of results to return',
	},
	{
		displayName: 'Options',
		name: 'options',
		type: 'collection',
		placeholder: 'Add Option',
		default: {},
		displayOptions: onlyFor(ALL_FEEDS),
		options: [
			{
				displayName: 'Deleted Records',
				name: 'deletedRecords',
				type: 'options',
				default: 'keep',
				displayOptions: inCollection(feedsWith((feed) => feed.tombstones)),
				options: [
					{ name: 'Keep (With isDeleted: True)', value: 'keep' },
					{ name: 'Leave Out', value: 'drop' },
				],
				description: 'In Changed Since mode this report also returns deleted records',
			},
			{
				displayName: 'Download Files',
				name: 'downloadFiles',
				type: 'boolean',
				default: false,
				displayOptions: inCollection(feedsWith((feed) => feed.files !== undefined)),
				description:
					'Whether to download each record’s image or PDF into a binary property. Records whose PDF is not generated yet pass through without a file and say so.',
			},
			{
				displayName: 'Image Size',
				name: 'imageSize',
				type: 'options',
				default: 'large',
				displayOptions: inCollection(feedsWith((feed) => feed.files === 'image')),
				options: [
					{ name: 'Large', value: 'large', description: 'At most 1980 pixels on the longest side' },
					{ name: 'Medium', value: 'medium', description: 'At most 640 pixels on the longest side' },
					{ name: 'Original', value: 'original', description: 'The file as it was uploaded' },
					{ name: 'Thumbnail', value: 'thumbnail', description: 'At most 128 pixels on the longest side' },
				],
				description: 'Which variant of each image to download',
			},
			{
				displayName: 'Include Page Details',
				name: 'includeEnvelope',
				type: 'boolean',
				default: false,
				description:
					'Whether to add the page envelope (meta, syncTypeName, recordCount) to each item under "_page"',
			},
			{
				displayName: 'Page Size',
				name: 'pageSize',
				type: 'number',
				default: MAX_CHUNK_LIMIT,
				typeOptions: { minValue: 1, maxValue: MAX_CHUNK_LIMIT },
				description:
					'Records per request (ChunkLimit, 1–10000). With a Limit, pages are never larger than the limit.',
			},
			{
				displayName: 'Put File In Field',
				name: 'binaryPropertyName',
				type: 'string',
				default: 'data',
				displayOptions: inCollection(feedsWith((feed) => feed.files !== undefined)),
				description: 'Name of the binary property the downloaded file goes to',
			},
		],
	},
];
