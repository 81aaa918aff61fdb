/**
 * Report → Simplify: the columns a person reads, readable names, local times; the raw records one switch away;
 * on for new nodes (version 1.1), off for nodes saved at version 1; never failing on a field it does not know.
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { WHEN_PRESENT } from '../../nodes/FieldOps/reporting/columns';
import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { N8nHarness } from '../harness';
import { readFeed } from '../helpers/reporting';
import { kindDefinition } from '../sandbox/reporting/feeds';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const DAY = 86_400_000;
const feedOf = (value: string) => REPORT_FEEDS.find((feed) => feed.value === value)!;

/**
 * Wall-clock time of an instant in a zone, `yyyy-MM-dd HH:mm`, straight from Intl (no caching); a time without a
 * zone is UTC; a missing one is null.
 */
function wallClock(iso: unknown, timeZone: string): string | null {
	if (iso === undefined || iso === null) return null;
	const text = String(iso);
	const parts = Object.fromEntries(
		new Intl.DateTimeFormat('en-CA', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: '2-digit',
			day: '2-digit',
			hour: '2-digit',
			minute: '2-digit',
		})
			.formatToParts(new Date(/(Z|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`))
			.map((part) => [part.type, part.value]),
	);
	return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

/**
 * Columns the sandbox's seeded data leaves empty (its images have no work order or activity, its projects are not
 * finished): where they are read from is covered by the shapes of the other feeds and by the unit tests of Simplify.
 */
const OFTEN_EMPTY = ['Work Order', 'Activity Number', 'Finished Date'];

describe('Field Ops → Report → Simplify', () => {
	const sb = useSandbox({ scale: 200 });
	let harness: N8nHarness;
	const from = new Date(Date.now() - 90 * DAY).toISOString();
	const to = new Date(Date.now() + DAY).toISOString();
	const run = async (parameters: INodeParameters, version = 1.1, timeZone = 'Europe/Oslo') => {
		const workflow = fieldOpsWorkflow({ resource: 'report', returnAll: true, ...parameters });
		workflow.nodes[1].typeVersion = version;
		workflow.settings = { timezone: timeZone };
		const result = await harness.run(workflow);
		expect(result.error).toBeUndefined();
		return result.items['Field Ops'].map((item) => item.json);
	};
	const windowed = (operation: string) => ({
		operation,
		syncMode: 'window',
		fromDateTime: from,
		toDateTime: to,
	});

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('is on for a new node (1.1), off for a node saved at version 1, and one switch turns it either way', async () => {
		const labels = feedOf('timeRegistrations').columns.map((column) => column.label);
		const newNode = await run({ ...windowed('timeRegistrations'), limit: 3, returnAll: false });
		const saved = await run({ ...windowed('timeRegistrations'), limit: 3, returnAll: false }, 1);
		const rawNew = await run({
			...windowed('timeRegistrations'),
			limit: 3,
			returnAll: false,
			simplify: false,
		});
		const simpleSaved = await run(
			{ ...windowed('timeRegistrations'), limit: 3, returnAll: false, simplify: true },
			1,
		);

		expect(Object.keys(newNode[0]).slice(0, labels.length)).toEqual(labels);
		expect(Object.keys(simpleSaved[0]).slice(0, labels.length)).toEqual(labels);
		// The raw record, under the service's own names.
		expect(Object.keys(saved[0])).not.toContain('Employee');
		expect(Object.values(saved[0])).toContainEqual(expect.stringMatching(/^\d{4}-\d\d-\d\dT/));
		expect(rawNew).toEqual(saved);
	});

	it('shows time registrations as a person reads them: names, project, work order, local times, no IDs', async () => {
		const served = await readFeed(sb(), '/v1/time-registrations', { FromDateTime: from, ToDateTime: to });
		// Read under the sandbox's own names, whichever names the variant serves [F…].
		const alt =
			sb().sandbox.variant.recordFieldNames === 'alt' ? kindDefinition('time-registrations')?.altNames : {};
		const raw = served.map((record) =>
			Object.fromEntries(
				Object.entries(alt ?? {})
					.map(([name, altName]) => [name, altName in record ? record[altName] : record[name]])
					.concat(Object.entries(record)),
			),
		) as Record<string, unknown>[];
		const oslo = await run(windowed('timeRegistrations'));
		const newYork = await run(windowed('timeRegistrations'), 1.1, 'America/New_York');
		expect(oslo).toHaveLength(raw.length);
		oslo.forEach((simple, index) => {
			const record = raw[index];
			expect(simple).toMatchObject({
				Employee: record.employeeName,
				'Employee Number': record.employeeNumber,
				'Project Number': record.projectNumber,
				Project: record.projectName,
				'Work Order': record.taskName,
				Date: record.date,
				Start: wallClock(record.startDateTime, 'Europe/Oslo'),
				End: wallClock(record.stopDateTime, 'Europe/Oslo'),
				Hours: record.hours,
				Approved: record.approved,
				Comment: record.comment,
				'Last Changed': wallClock(record.modifiedDateTime, 'Europe/Oslo'),
			});
			expect(simple).not.toHaveProperty('id');
			expect(simple).not.toHaveProperty('projectId');
			expect(newYork[index].Start).toBe(wallClock(record.startDateTime, 'America/New_York'));
		});
		// Times of many days and hours, each placed by its own offset (not one shift for all).
		expect(new Set(oslo.map((simple) => simple.Start)).size).toBeGreaterThan(10);
	});

	it.each(REPORT_FEEDS.map((feed) => [feed.name, feed] as const))(
		'%s: every readable column, no ID, nothing of the record lost unnoticed',
		async (_name, feed) => {
			const params = feed.dateWindow ? windowed(feed.value) : { operation: feed.value, listMode: 'all' };
			const raw = await run({ ...params, simplify: false });
			const simple = await run(params);
			expect(simple.length).toBe(raw.length);
			expect(simple.length).toBeGreaterThan(0);
			const labels = feed.columns.map((column) => column.label);
			const optional = WHEN_PRESENT.filter((column) => !labels.includes(column.label));
			const read = new Set([...feed.columns, ...optional].flatMap((column) => column.from));
			const drop = new Set(feed.drop);
			simple.forEach((record, index) => {
				// The table's columns first, in order, then tombstone fields where present; then, unchanged, whatever
				// no column reads.
				const present = optional
					.filter((column) => column.from.some((name) => name in raw[index]))
					.map((column) => column.label);
				const passed = Object.keys(raw[index]).filter((key) => !read.has(key) && !drop.has(key));
				expect(Object.keys(record)).toEqual([...labels, ...present, ...passed]);
				for (const key of passed) expect(record[key]).toEqual(raw[index][key]);
				expect(record).not.toHaveProperty('id');
			});
			// The sandbox's record shapes, under either variant's field names: every field is shown under a
			// readable name or deliberately left out, and every column holds a value somewhere, except Last Changed
			// and Created where the variant serves no timestamps on records the spec shows without them [C4].
			const shown = [...labels, ...optional.map((column) => column.label)];
			expect(simple.flatMap((record) => Object.keys(record).filter((key) => !shown.includes(key)))).toEqual(
				[],
			);
			const stamped = raw.some((record) => Object.keys(record).some((key) => /modified|changed/i.test(key)));
			const empty = labels.filter((label) => simple.every((record) => record[label] === null));
			const allowed = ['Deleted', 'Deleted At', ...(stamped ? [] : ['Created', 'Last Changed'])];
			expect(empty.filter((label) => !allowed.includes(label) && !OFTEN_EMPTY.includes(label))).toEqual([]);
		},
	);

	it('passes through fields it does not know and never fails on a missing or odd one', async () => {
		const record: IDataObject = {
			id: 'tr-1',
			companyId: 'c-1',
			projectNumber: 'P-1',
			// employeeName, taskName and hours are missing; the service sends durationHours instead of hours.
			durationHours: 7.5,
			date: '2026-03-29',
			startDateTime: '2026-03-29T07:00:00',
			stopDateTime: 'not a date',
			modifiedDateTime: '2026-03-29T01:30:00Z',
			overtime: { paid: true, hours: 1 },
			approved: null,
		};
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/v1/time-registrations', status: 200, body: { data: [record], continuationToken: '' } },
		});
		const [simple] = await run(windowed('timeRegistrations'));
		expect(simple).toEqual({
			Employee: null,
			'Employee Number': null,
			'Project Number': 'P-1',
			Project: null,
			'Work Order': null,
			Date: '2026-03-29',
			// Without a zone a time is the service's UTC (as the trigger reads it): 09:00 summer time in Oslo.
			Start: '2026-03-29 09:00',
			// Not a date: as sent.
			End: 'not a date',
			Hours: null,
			Approved: null,
			Comment: null,
			// 01:30 UTC on the night Oslo moves to summer time: 03:30 local.
			'Last Changed': '2026-03-29 03:30',
			durationHours: 7.5,
			overtime: { paid: true, hours: 1 },
		});
	});
});
