/**
 * Saved workflows keep working: workflows as users saved them with Field Ops 1.2 and the Field Ops Trigger 1
 * (test/node/saved/, copies of what the editor wrote) run unchanged and give the output they always gave. The
 * same workflows with the node versions n8n now adds (Field Ops 1.3, Trigger 1.1) give the new output: every
 * row, no summary on each row, a file named after its week, readable trigger items.
 */
import type { IBinaryData, IDataObject, INodeExecutionData } from 'n8n-workflow';

import { periodWindow, isoWeek } from '../../nodes/FieldOps/resources/report/period';
import { recordKey, REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { N8nHarness, type WorkflowJson } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { useSandboxCredential } from '../helpers/workflows';
import { fakeNowClock, later } from '../trigger/clocks';

/* eslint-disable @typescript-eslint/no-require-imports */
const hoursAsItems = require('./saved/hours-as-items-1.2.json') as WorkflowJson;
const weeklyHours = require('./saved/weekly-hours-to-spreadsheet-1.2.json') as WorkflowJson;
const newIncident = require('./saved/new-incident-notify-trigger-1.json') as WorkflowJson;
/* eslint-enable @typescript-eslint/no-require-imports */

const FIELD_OPS = 'n8n-nodes-fieldops.fieldOps';
const TRIGGER = 'n8n-nodes-fieldops.fieldOpsTrigger';
const TIME_LABELS = REPORT_FEEDS.find((feed) => feed.value === 'timeRegistrations')!.columns.map(
	(c) => c.label,
);
const INCIDENT_LABELS = REPORT_FEEDS.find((feed) => feed.value === 'incidentRegistrations')!.columns.map(
	(c) => c.label,
);

/** The workflow with its Field Ops nodes (or triggers) at `version`, nothing else changed. */
const atVersion = (workflow: WorkflowJson, type: string, version: number): WorkflowJson => ({
	...workflow,
	nodes: workflow.nodes.map((node) => (node.type === type ? { ...node, typeVersion: version } : node)),
});
const nodeNamed = (workflow: WorkflowJson, type: string) =>
	workflow.nodes.find((node) => node.type === type)!.name;

describe('saved Report workflows (Field Ops 1.2) run unchanged; new nodes (1.3) get the new defaults', () => {
	const sb = useSandbox({ scale: 3000 });
	let harness: N8nHarness;
	const name = nodeNamed(hoursAsItems, FIELD_OPS);
	const hintsOf = (result: Awaited<ReturnType<N8nHarness['run']>>, node: string) =>
		(result.run.data.resultData.runData[node][0].hints ?? []).map((hint) => hint.message);

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('the saved files are the versions they say, with no change of ours', () => {
		expect(hoursAsItems.nodes.find((node) => node.type === FIELD_OPS)).toMatchObject({
			typeVersion: 1.2,
			parameters: { resource: 'report', operation: 'timeRegistrations' },
		});
		expect(weeklyHours.nodes.find((node) => node.type === FIELD_OPS)?.typeVersion).toBe(1.2);
		expect(newIncident.nodes.find((node) => node.type === TRIGGER)?.typeVersion).toBe(1);
	});

	it('1.2: the first 50 rows of last week, each saying what the export covered; 1.3: every row, said once', async () => {
		const saved = await harness.run(hoursAsItems);
		expect(saved.error).toBeUndefined();
		const old = saved.items[name].map((item) => item.json);
		expect(old).toHaveLength(50);
		for (const row of old)
			expect(row._report).toMatchObject({
				window: expect.stringMatching(/^Last Week: Monday .* \(America\/New_York\)$/),
				returned: 50,
				moreExist: true,
			});
		expect(Object.keys(old[0]).slice(0, TIME_LABELS.length)).toEqual(TIME_LABELS);

		const added = await harness.run(atVersion(hoursAsItems, FIELD_OPS, 1.3));
		expect(added.error).toBeUndefined();
		const rows = added.items[name].map((item) => item.json);
		expect(rows.length).toBeGreaterThan(50);
		for (const row of rows) expect(row).not.toHaveProperty('_report');
		expect(Object.keys(rows[0]).slice(0, TIME_LABELS.length)).toEqual(TIME_LABELS);
		// The summary once, above the output: the week in words, its zone and the count.
		const summaries = hintsOf(added, name).filter((message) => message.startsWith('Last Week: '));
		expect(summaries).toEqual([
			expect.stringMatching(
				new RegExp(
					`^Last Week: Monday .* – Sunday .* \\(America/New_York\\): ${rows.length} time registrations$`,
				),
			),
		]);
	});

	it('1.2: the spreadsheet named by its Luxon expression; 1.3 without a name: named after the report and its week', async () => {
		const week = isoWeek(periodWindow('lastWeek', Date.now(), 'America/New_York').firstDay);
		const fileOf = async (workflow: WorkflowJson) => {
			const result = await harness.run(workflow);
			expect(result.error).toBeUndefined();
			const [item] = result.items[nodeNamed(workflow, FIELD_OPS)] as INodeExecutionData[];
			return { json: item.json, binary: item.binary?.data as IBinaryData };
		};
		const saved = await fileOf(weeklyHours);
		expect(saved.binary.fileName).toBe(`hours-${week}.xlsx`);
		expect(saved.json).toMatchObject({ fileName: `hours-${week}.xlsx`, window: expect.any(String) });

		const unnamed = atVersion(weeklyHours, FIELD_OPS, 1.3);
		const node = unnamed.nodes.find((candidate) => candidate.type === FIELD_OPS)!;
		node.parameters = { ...node.parameters, fileOptions: {} };
		const added = await fileOf(unnamed);
		expect(added.binary.fileName).toBe(`time-registrations-${week}.xlsx`);
		expect(added.json.records).toBe(saved.json.records);
		// The same unnamed file at 1.2 keeps the report's name alone.
		const unnamedSaved = atVersion(unnamed, FIELD_OPS, 1.2);
		expect((await fileOf(unnamedSaved)).binary.fileName).toBe('time-registrations.xlsx');
	});
});

describe('a saved Field Ops Trigger (1) emits raw records; a new one (1.1) readable columns', () => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const trigger = nodeNamed(newIncident, TRIGGER);
	// The trigger alone (the harness does not load n8n-nodes-base's e-mail node; a poll runs only the trigger).
	const polled = (version: number): WorkflowJson => ({
		...atVersion(newIncident, TRIGGER, version),
		nodes: atVersion(newIncident, TRIGGER, version).nodes.filter((node) => node.type === TRIGGER),
		connections: {},
	});

	beforeAll(async () => {
		fakeNowClock();
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});
	afterAll(() => jest.useRealTimers());

	/** A new incident, as the trigger of `version` emits it after its first poll. */
	const emitted = async (version: number) => {
		await later(sb().coreUrl, 120);
		const first = await harness.poll(polled(version), trigger, { staticData: {} });
		expect(first.items).toEqual([]);
		const created = await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'incident-registrations', action: 'create' },
		});
		const [id] = created.body.ids as string[];
		const next = await harness.poll(polled(version), trigger, { staticData: first.staticData });
		expect(next.items).toHaveLength(1);
		return { id, json: next.items[0].json as IDataObject };
	};

	it('1: the record as Field Ops sends it', async () => {
		const { id, json } = await emitted(1);
		expect(json).toMatchObject({ id, _event: 'new', projectId: expect.any(String) });
		// The title under the service's own name (`title`, or `name` in the sandbox's alt variant).
		expect(json.title ?? json.name).toEqual(expect.any(String));
		expect(json).not.toHaveProperty('Title');
	});

	it('1.1: the Report’s readable columns, the record’s id and _event; no company or project IDs', async () => {
		const { id, json } = await emitted(1.1);
		expect(Object.keys(json)).toEqual(expect.arrayContaining([...INCIDENT_LABELS, 'id', '_event']));
		expect(Object.keys(json).slice(0, INCIDENT_LABELS.length)).toEqual(INCIDENT_LABELS);
		expect(json).toMatchObject({ id, _event: 'new', Title: expect.any(String) });
		expect(json['Project Number']).toMatch(/^P\d+/);
		for (const raw of ['projectId', 'companyId', 'reportedByUserId', 'title'])
			expect(json).not.toHaveProperty(raw);
	});
});

describe('a new Field Ops Trigger (1.1) keeps what identifies each record, whatever the export calls it', () => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const trigger = nodeNamed(newIncident, TRIGGER);
	/** The saved trigger on another export, its backlog from the start, at `version`. */
	const watching = (feed: string, version: number): WorkflowJson => {
		const node = newIncident.nodes.find((candidate) => candidate.type === TRIGGER)!;
		return {
			...newIncident,
			nodes: [
				{
					...node,
					typeVersion: version,
					parameters: { ...node.parameters, feed, events: ['new', 'changed'], startFrom: 'everything' },
				},
			],
			connections: {},
		};
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	// Time registrations and users name their id `timeRegistrationId` / `userId` in the sandbox's alt variant.
	it.each(['timeRegistrations', 'users', 'images'])('%s: the same records as the raw ones', async (value) => {
		const feed = REPORT_FEEDS.find((candidate) => candidate.value === value)!;
		const keys = async (version: number) => {
			const { items } = await harness.poll(watching(value, version), trigger, { staticData: {} });
			return items.map((item) => recordKey(feed, item.json as IDataObject));
		};
		const raw = await keys(1);
		expect(raw.length).toBeGreaterThan(0);
		expect(raw).not.toContain(undefined);
		expect(await keys(1.1)).toEqual(raw);
	});
});
