import type { INodeProperties } from 'n8n-workflow';

import { before, on, shown, since, type Field } from '../../parameters/field';
import { reportFiltersProperty } from '../../reporting/filters';
import { outputFields } from './output/parameters';
import { listFields, timeZones, windowFields } from './windowFields';
import { limit, returnAll, timeoutField } from '../../parameters/limits';
import { feedValues, type ReportFeed, MAX_CHUNK_LIMIT } from '../../reporting/feeds';
import { DEFAULT_PARALLEL_REQUESTS, MAX_PARALLEL_REQUESTS } from '../../reporting/slices';

/** Inside a collection, a root parameter is named with a leading slash. */
const inCollection = (operations: string[]) => ({ show: { '/operation': operations } });
/** Options that only make sense with one item per record (files attached to it). */
const perRecord = (operations: string[]) => ({ show: { '/operation': operations, '/output': ['items'] } });
const field = (property: INodeProperties): Field => ({ property });

const options = field({
	displayName: 'Options',
	name: 'options',
	type: 'collection',
	placeholder: 'Add Option',
	default: {},
	options: [
		{
			displayName: 'Deleted Records',
			name: 'deletedRecords',
			type: 'options',
			default: 'keep',
			// The spec names two feeds with tombstones; others may send them too. Images never do.
			displayOptions: inCollection(feedValues((feed) => feed.files !== 'image')),
			options: [
				{ name: 'Keep (With isDeleted: True)', value: 'keep' },
				{ name: 'Leave Out', value: 'drop' },
			],
			description:
				'In Changed Since mode a report may also return deleted records (isDeleted: true); Field Ops documents this for machine registrations and absences',
		},
		{
			displayName: 'Download Files',
			name: 'downloadFiles',
			type: 'boolean',
			default: false,
			displayOptions: perRecord(feedValues((feed) => feed.files !== undefined)),
			description:
				'Whether to download each record’s image or PDF into a binary property. Records whose PDF is not generated yet pass through without a file and say so.',
		},
		{
			displayName: 'Image Size',
			name: 'imageSize',
			type: 'options',
			default: 'large',
			displayOptions: perRecord(feedValues((feed) => feed.files === 'image')),
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
			displayOptions: { hide: { '/output': ['file'] } },
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
			displayName: 'Parallel Requests',
			name: 'parallelRequests',
			type: 'number',
			default: DEFAULT_PARALLEL_REQUESTS,
			typeOptions: { minValue: 1, maxValue: MAX_PARALLEL_REQUESTS },
			displayOptions: {
				show: {
					'/operation': feedValues((feed) => feed.fullModeDate !== undefined),
					'/syncMode': ['window'],
				},
			},
			description:
				'How many pages of a period to ask Field Ops for at once: the period is cut into time slices read side by side, much faster against a distant service, with the records in the same order. 1 reads it in one sequence. If Field Ops answers "too many requests", the node halves this and carries on.',
		},
		{
			displayName: 'Put File In Field',
			name: 'binaryPropertyName',
			type: 'string',
			default: 'data',
			displayOptions: perRecord(feedValues((feed) => feed.files !== undefined)),
			description: 'Name of the binary property the downloaded file goes to',
		},
	],
});

/**
 * Return All: on for exports added from node version 1.3 (a weekly payroll export is never cut at 50 rows
 * unnoticed); nodes saved before keep it off with their Limit, and so does an AI agent's tool (a period's every row
 * would fill the model's context).
 */
const returnAlls: Field[] = [
	{ property: { ...returnAll.property, displayOptions: { show: before(1.3) } } },
	{
		property: {
			...returnAll.property,
			default: true,
			displayOptions: { show: { ...since(1.3), '@tool': [false] } },
		},
	},
	{ property: { ...returnAll.property, displayOptions: { show: { ...since(1.3), '@tool': [true] } } } },
];

/** Each field written with the reports it shows for (the feeds table says which have a date window or filters). */
const forFeeds = (test: (feed: ReportFeed) => boolean, fields: Field[]) =>
	fields.map((f) => shown(on('report', ...feedValues(test)), f));
const dated = forFeeds((feed) => feed.dateWindow, windowFields);
const listed = forFeeds((feed) => !feed.dateWindow, listFields);
const filters = forFeeds((feed) => feed.filters.length > 0, [field(reportFiltersProperty('operation'))]);
const zoneFields = forFeeds(() => true, timeZones);
const limitFields = forFeeds(() => true, [...returnAlls, limit]);
const outputAndOptions = forFeeds(() => true, [...outputFields, options, timeoutField]);

/** The parameters of one report: its period, the filters the spec lists for it, Return All / Limit, options. */
export const reportFields = (feed: ReportFeed): Field[] => [
	...(feed.dateWindow ? dated : listed),
	...zoneFields,
	...(feed.filters.length > 0 ? filters : []),
	...limitFields,
	...outputAndOptions,
];
