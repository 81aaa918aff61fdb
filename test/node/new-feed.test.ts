import type { INodeProperties, INodePropertyOptions, INodeTypeDescription } from 'n8n-workflow';

import { GUESSED, shown } from '../../nodes/FieldOps/reporting/columns';
import { REPORT_FEEDS, type ReportFeed } from '../../nodes/FieldOps/reporting/feeds';
import { TRIGGER, triggerWorkflow } from '../helpers/workflows';
import { json, type Exchange, type Reply } from '../hostile/fake';
import { runNode, useFakeFieldOps } from '../hostile/setup';
import { nodeSurface } from '../surface/editor-surface';

/**
 * A report feed is one entry of nodes/FieldOps/reporting/feeds.ts. A feed the service does not have is added to
 * the table here, and nothing else: the nodes, built from their sources afterwards, offer it as a Report export
 * and as a trigger event with the filters its entry lists, read it page by page from a fake Field Ops on
 * 127.0.0.1, shape it with its entry's columns (Simplify), and poll it.
 */
const SITE_DIARY: ReportFeed = {
	value: 'siteDiaryEntries',
	name: 'Site Diary Entries',
	path: '/v1/site-diary-entries',
	record: 'site diary entry',
	filters: ['ProjectId', 'Approved'],
	dateWindow: true,
	tombstones: false,
	idFields: ['entryId'],
	columns: [shown('Entry', 'text'), shown('Weather', 'weather'), GUESSED.date, GUESSED.changed],
	drop: ['id', 'projectId', 'entryId'],
	cursor: { modified: 'modifiedDateTime', ordered: true },
};
REPORT_FEEDS.push(SITE_DIARY);

// The nodes as the package builds them, now from a table that holds the entry.
/* eslint-disable @typescript-eslint/no-require-imports */
const { FieldOps } =
	require('../../nodes/FieldOps/FieldOps.node') as typeof import('../../nodes/FieldOps/FieldOps.node');
const { FieldOpsTrigger } =
	require('../../nodes/FieldOpsTrigger/FieldOpsTrigger.node') as typeof import('../../nodes/FieldOpsTrigger/FieldOpsTrigger.node');
/* eslint-enable @typescript-eslint/no-require-imports */

const fieldOps = new FieldOps();
const trigger = new FieldOpsTrigger();
const optionsOf = (description: INodeTypeDescription, test: (p: INodeProperties) => boolean) =>
	(description.properties.find(test)?.options ?? []) as INodePropertyOptions[];

const ENTRIES = [
	{
		id: 'sd-1',
		entryId: 'E-1',
		projectId: 'p-1',
		text: 'Poured the deck',
		weather: 'rain',
		date: '2026-03-02',
		modifiedDateTime: '2026-03-02T14:00:00Z',
		crew: 4,
	},
	{
		id: 'sd-2',
		entryId: 'E-2',
		projectId: 'p-1',
		text: 'Formwork off',
		weather: '',
		workDate: '2026-03-03',
		modifiedDateTime: '2026-03-03T09:30:00Z',
	},
];
/** Two pages: the first hands out the token "p2". */
const twoPages: Reply = (request: Exchange, res) =>
	json(
		200,
		request.query.get('ContinuationToken') === 'p2'
			? { data: [ENTRIES[1]] }
			: { data: [ENTRIES[0]], continuationToken: 'p2' },
	)(request, res);

describe('a made-up report feed, added as one entry of the feed table', () => {
	const env = useFakeFieldOps({ nodes: { fieldOps, fieldOpsTrigger: trigger } });
	const feedRequests = () => env.fake.requests('reporting', 'GET').filter((e) => e.path === SITE_DIARY.path);

	it('is a Report export with the filters, period and options its entry calls for', () => {
		const report = optionsOf(
			fieldOps.description,
			(p) => p.name === 'operation' && p.displayOptions?.show?.resource?.includes('report') === true,
		);
		expect(report.find((o) => o.value === 'siteDiaryEntries')).toMatchObject({
			name: 'Site Diary Entries',
			action: 'Export site diary entries',
		});
		const surface = nodeSurface(fieldOps.description);
		const shows = (path: string) => `fieldOps v1.2 report:siteDiaryEntries ${path}` in surface;
		expect(
			['period', 'fromDateTime', 'filters.project', 'filters.approved', 'simplify'].filter(shows),
		).toEqual(['period', 'fromDateTime', 'filters.project', 'filters.approved', 'simplify']);
		// Not for this entry: no list mode (it has a date window), no other filters, no files to download.
		expect(
			[
				'listMode',
				'filters.companyId',
				'filters.sources',
				'options.downloadFiles',
				'options.imageSize',
			].filter(shows),
		).toEqual([]);
	});

	it('is a trigger event with its filters, and no option another feed needs', () => {
		expect(optionsOf(trigger.description, (p) => p.name === 'feed')).toContainEqual({
			name: 'Site Diary Entries',
			value: 'siteDiaryEntries',
			description: 'Each new or changed site diary entry',
		});
		// The node creator's entries for it, one per event (from version 1.1).
		expect(
			optionsOf(trigger.description, (p) => p.name === 'entry').filter((o) =>
				String(o.value).startsWith('siteDiaryEntries.'),
			),
		).toEqual([
			expect.objectContaining({ value: 'siteDiaryEntries.new', action: 'On New Site Diary Entry' }),
			expect.objectContaining({ value: 'siteDiaryEntries.changed', action: 'On Site Diary Entry Changed' }),
		]);
		expect(trigger.description.subtitle).toContain('"siteDiaryEntries":"Site Diary Entries"');
		const surface = nodeSurface(trigger.description);
		const shows = (path: string) => `fieldOpsTrigger v1 siteDiaryEntries ${path}` in surface;
		expect(shows('filters.approved')).toBe(true);
		expect(shows('filters.project')).toBe(true);
		expect(shows('filters.sources')).toBe(false);
		expect(shows('options.waitForRoadReference')).toBe(false);
		expect(shows('deletedNotice')).toBe(true);
	});

	it("is read page by page by the Report node and shaped by its entry's columns", async () => {
		env.fake.on('reporting', 'GET', SITE_DIARY.path, twoPages);
		const outcome = await runNode(env, {
			resource: 'report',
			operation: 'siteDiaryEntries',
			syncMode: 'window',
			fromDateTime: '2026-03-01T00:00:00Z',
			toDateTime: '2026-03-08T00:00:00Z',
			timeZone: 'Europe/Oslo',
			filters: { approved: true },
			simplify: true,
			returnAll: true,
		});

		expect(outcome.message).toBeUndefined();
		expect(outcome.items.map((item) => item.json)).toEqual([
			{
				Entry: 'Poured the deck',
				Weather: 'rain',
				Date: '2026-03-02',
				'Last Changed': '2026-03-02 15:00',
				crew: 4,
			},
			{ Entry: 'Formwork off', Weather: null, Date: '2026-03-03', 'Last Changed': '2026-03-03 10:30' },
		]);
		const sent = feedRequests();
		expect(sent.map((e) => e.query.get('ContinuationToken'))).toEqual([null, 'p2']);
		for (const request of sent) {
			expect(request.query.get('Approved')).toBe('true');
			expect(request.query.get('FromDateTime')).toBe('2026-03-01T00:00:00.000Z');
		}
	});

	it('is polled by the trigger, each entry emitted once', async () => {
		env.fake.on('reporting', 'GET', SITE_DIARY.path, twoPages);
		const workflow = triggerWorkflow({ feed: 'siteDiaryEntries', startFrom: 'everything' });
		workflow.nodes[0].credentials = { fieldOpsOAuth2Api: { id: env.credential(), name: 'Field Ops' } };
		const staticData = {};

		const first = await env.harness.poll(workflow, TRIGGER, { staticData });
		expect(first.items.map((item) => [item.json.entryId, item.json._event])).toEqual([
			['E-1', 'new'],
			['E-2', 'new'],
		]);
		expect(feedRequests()[0].query.get('ModifiedSince')).not.toBeNull();
		const again = await env.harness.poll(workflow, TRIGGER, { staticData });
		expect(again.items).toEqual([]);
	});
});
