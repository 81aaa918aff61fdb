/**
 * Report periods, time zones, what the output says, and the Excel writer: the pure parts directly, the rest
 * through n8n's engine against the sandbox.
 */
import type { IBinaryData, IDataObject, INodeParameters } from 'n8n-workflow';

import { periodDays, periodWindow, type PeriodName } from '../../nodes/FieldOps/resources/report/period';
import { columnName, crc32, crc32Combine, serialOf } from '../../nodes/FieldOps/resources/report/output/xlsx';
import { instantOrNaN } from '../../nodes/FieldOps/parameters/dates';
import { addDays, isoDay, isoInZone, type CalendarDay } from '../../nodes/FieldOps/parameters/zones';
import { N8nHarness } from '../harness';
import { canvasSubtitle, loadOptions } from '../helpers/editor';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const XLSX = require('@e965/xlsx') as typeof import('@e965/xlsx');

const H = 3_600_000;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const LONG_MONTHS = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];
const window = (period: Exclude<PeriodName, 'custom'>, now: string, zone: string) => {
	const w = periodWindow(period, Date.parse(now), zone);
	return { from: isoInZone(zone, w.from), to: isoInZone(zone, w.to), hours: (w.to - w.from) / H };
};

describe('report periods (pure)', () => {
	it('counts whole days in the zone: 23- and 25-hour days at the changes, weeks from Monday, months across a year', () => {
		expect(window('today', '2026-03-29T12:00:00Z', 'Europe/Oslo')).toEqual({
			from: '2026-03-29T00:00:00.000+01:00',
			to: '2026-03-30T00:00:00.000+02:00',
			hours: 23,
		});
		expect(window('yesterday', '2026-10-26T12:00:00Z', 'Europe/Oslo').hours).toBe(25);
		// A Sunday evening in New York is already Monday in Oslo: each zone counts its own week.
		expect(window('thisWeek', '2026-03-30T01:00:00Z', 'America/New_York').from).toBe(
			'2026-03-23T00:00:00.000-04:00',
		);
		expect(window('thisWeek', '2026-03-30T01:00:00Z', 'Europe/Oslo').from).toBe(
			'2026-03-30T00:00:00.000+02:00',
		);
		expect(window('lastWeek', '2026-11-02T12:00:00Z', 'America/New_York')).toEqual({
			from: '2026-10-26T00:00:00.000-04:00',
			to: '2026-11-02T00:00:00.000-05:00',
			hours: 169,
		});
		expect(window('lastMonth', '2026-01-10T00:00:00Z', 'Pacific/Auckland')).toMatchObject({
			from: '2025-12-01T00:00:00.000+13:00',
			to: '2026-01-01T00:00:00.000+13:00',
		});
		expect(window('thisMonth', '2026-12-31T23:30:00Z', 'UTC').to).toBe('2027-01-01T00:00:00.000+00:00');
		// A day that starts in a gap (Santiago moves 00:00 → 01:00): it starts when the gap ends.
		expect(window('today', '2026-09-06T15:00:00Z', 'America/Santiago')).toMatchObject({
			from: '2026-09-06T01:00:00.000-03:00',
			hours: 23,
		});
	});

	it('reads a date typed without a zone in the workflow’s zone, never the host’s', () => {
		const at = (text: string, zone: string) => new Date(instantOrNaN(text, zone)).toISOString();
		expect(at('2026-11-01T00:00:00', 'Asia/Tokyo')).toBe('2026-10-31T15:00:00.000Z');
		expect(at('2026-11-01T00:00:00', 'America/New_York')).toBe('2026-11-01T04:00:00.000Z');
		expect(at('2026-11-01', 'UTC')).toBe('2026-11-01T00:00:00.000Z');
		expect(at('2026-11-01T00:00:00+01:00', 'Asia/Tokyo')).toBe('2026-10-31T23:00:00.000Z');
		// In the spring gap the time moves forward; in the autumn fold it is the first of the two.
		expect(at('2026-03-29T02:30:00', 'Europe/Oslo')).toBe('2026-03-29T01:30:00.000Z');
		expect(at('2026-10-25T02:30:00', 'Europe/Oslo')).toBe('2026-10-25T00:30:00.000Z');
		expect(instantOrNaN('next Tuesday', 'UTC')).toBeNaN();
	});

	it('writes ZIP checksums of joined parts and Excel’s serial dates', () => {
		const a = Buffer.from('<row r="1">Ærlig</row>');
		const b = Buffer.from('x'.repeat(100_003));
		expect(crc32Combine(crc32(a), crc32(b), b.length)).toBe(crc32(Buffer.concat([a, b])));
		expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
		expect([columnName(1), columnName(26), columnName(27), columnName(703)]).toEqual(['A', 'Z', 'AA', 'AAA']);
		expect(serialOf('1900-03-01')).toBe(61);
		expect(serialOf('2026-03-23 06:30')).toBeCloseTo(46104.2708333, 6);
		expect(serialOf('2026-02-30')).toBeUndefined();
	});
});

describe('Field Ops → Report: periods, zones and what the output says', () => {
	const sb = useSandbox({ scale: 300 });
	let harness: N8nHarness;
	const run = async (parameters: INodeParameters, zone = 'Europe/Oslo', version = 1.2) => {
		const workflow = fieldOpsWorkflow({ resource: 'report', operation: 'timeRegistrations', ...parameters });
		workflow.nodes[1].typeVersion = version;
		workflow.settings = { timezone: zone };
		return await harness.run(workflow);
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('shows on the canvas what a Report node reads: its period’s days in its time zone, and whether Limit applies', () => {
		const report = { resource: 'report', operation: 'timeRegistrations', syncMode: 'window' };
		const zone = 'Pacific/Auckland';
		const day = (d: CalendarDay) => `${d.day} ${MONTHS[d.month - 1]} ${d.year}`;
		const [monday, sunday] = periodDays('lastWeek', Date.now(), zone);
		const first =
			monday.month === sunday.month
				? `${monday.day}–`
				: monday.year === sunday.year
					? `${monday.day} ${MONTHS[monday.month - 1]} – `
					: `${day(monday)} – `;
		// A new node (1.3): the workflow's zone, Return All on.
		expect(canvasSubtitle(harness, { ...report, period: 'lastWeek' }, { timezone: zone })).toBe(
			`Last Week, ${first}${day(sunday)} · all`,
		);
		// A zone chosen in the node counts its own days.
		const [today] = periodDays('today', Date.now(), 'Pacific/Pago_Pago');
		expect(
			canvasSubtitle(
				harness,
				{ ...report, period: 'today', timeZone: 'Pacific/Pago_Pago' },
				{ timezone: 'Pacific/Kiritimati' },
			),
		).toBe(`Today, ${day(today)} · all`);
		const [month] = periodDays('lastMonth', Date.now(), zone);
		expect(
			canvasSubtitle(harness, { ...report, period: 'lastMonth' }, { version: 1.2, timezone: zone }),
		).toBe(`Last Month, ${LONG_MONTHS[month.month - 1]} ${month.year} · first 50`);
		expect(canvasSubtitle(harness, { ...report, period: 'custom', returnAll: true }, { version: 1.2 })).toBe(
			'From–To · all',
		);
		expect(
			canvasSubtitle(harness, { resource: 'report', operation: 'users', listMode: 'all', returnAll: true }),
		).toBe('All Records · all');
		expect(canvasSubtitle(harness, { resource: 'project', operation: 'get' })).toBe('Get a project');
	});

	it('names a week’s days in short: within a month, across months, across years', () => {
		// Thursdays: the week before each is Monday–Sunday of those days.
		const cases: Array<[string, string]> = [
			['2026-11-26T12:00:00Z', 'Last Week, 16–22 Nov 2026 · all'],
			['2026-11-05T12:00:00Z', 'Last Week, 26 Oct – 1 Nov 2026 · all'],
			['2026-01-08T12:00:00Z', 'Last Week, 29 Dec 2025 – 4 Jan 2026 · all'],
		];
		for (const [now, expected] of cases) {
			jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'setTimeout', 'setInterval'] });
			jest.setSystemTime(Date.parse(now));
			try {
				expect(
					canvasSubtitle(
						harness,
						{ resource: 'report', operation: 'timeRegistrations', period: 'lastWeek' },
						{ timezone: 'UTC' },
					),
				).toBe(expected);
			} finally {
				jest.useRealTimers();
			}
		}
	});

	it('offers Time Zone as a choice: the workflow’s zone by name first, then every zone', async () => {
		const zones = await loadOptions(
			harness,
			'getTimeZones',
			{ resource: 'report', operation: 'timeRegistrations' },
			{ timezone: 'Pacific/Auckland' },
		);
		expect(zones[0]).toMatchObject({
			name: 'The workflow’s time zone (now: Pacific/Auckland)',
			value: 'workflow',
		});
		expect(zones.map((zone) => zone.value)).toEqual(expect.arrayContaining(['Europe/Oslo', 'UTC']));
		// The choice is the workflow's zone when the node runs.
		const result = await run(
			{ period: 'lastWeek', timeZone: 'workflow', returnAll: true },
			'Asia/Tokyo',
			1.3,
		);
		const hints = result.run.data.resultData.runData['Field Ops'][0].hints ?? [];
		expect(hints.map((hint) => hint.message)).toContainEqual(
			expect.stringMatching(/^Last Week: .* \(Asia\/Tokyo\): \d+ /),
		);
	});

	it('says when the Limit stopped the export and more exist, and when it did not', async () => {
		const cut = await run({ period: 'lastMonth', returnAll: false, limit: 5 });
		const items = cut.items['Field Ops'].map((item) => item.json);
		expect(items).toHaveLength(5);
		expect(items[0]._report).toMatchObject({
			window: expect.stringMatching(/^Last Month: .* \(Europe\/Oslo\)$/),
			returned: 5,
			moreExist: true,
			note: expect.stringMatching(/^Stopped at the Limit of 5: more time registrations exist/),
		});
		const hints = cut.run.data.resultData.runData['Field Ops'][0].hints ?? [];
		expect(hints).toContainEqual(
			expect.objectContaining({ type: 'warning', message: expect.stringMatching(/Limit of 5/) }),
		);

		const all = await run({ period: 'lastMonth', returnAll: true });
		const total = all.items['Field Ops'].length;
		expect(total).toBeGreaterThan(5);
		const exact = await run({ period: 'lastMonth', returnAll: false, limit: total });
		expect(exact.items['Field Ops'][0].json._report).toMatchObject({ returned: total, moreExist: false });
		expect(exact.items['Field Ops'][0].json._report).not.toHaveProperty('note');
	});

	it('reads a typed From/To in the workflow’s zone; a node saved before 1.2 keeps its items as they were', async () => {
		const params = { syncMode: 'window', period: 'custom', returnAll: true };
		const from = new Date(Date.now() - 20 * 24 * H).toISOString().slice(0, 10);
		const to = new Date(Date.now() - 10 * 24 * H).toISOString().slice(0, 10);
		const typed = await run(
			{ ...params, fromDateTime: `${from}T00:00:00`, toDateTime: `${to}T00:00:00` },
			'Asia/Tokyo',
		);
		expect(typed.error).toBeUndefined();
		const expected = await readFeed(sb(), '/v1/time-registrations', {
			FromDateTime: `${new Date(Date.parse(`${from}T00:00:00+09:00`)).toISOString()}`,
			ToDateTime: `${new Date(Date.parse(`${to}T00:00:00+09:00`)).toISOString()}`,
		});
		expect(typed.items['Field Ops']).toHaveLength(expected.length);
		expect(typed.items['Field Ops'][0].json._report).toMatchObject({
			windowFrom: `${from}T00:00:00.000+09:00`,
			timeZone: 'Asia/Tokyo',
		});
		const saved = await run(
			{ ...params, simplify: false, fromDateTime: `${from}T00:00:00Z`, toDateTime: `${to}T00:00:00Z` },
			'UTC',
			1,
		);
		expect(saved.items['Field Ops'][0].json).not.toHaveProperty('_report');
	});

	it('refuses a Time Zone that is not one, naming the field', async () => {
		const result = await harness.run(
			fieldOpsWorkflow(
				{ resource: 'report', operation: 'timeRegistrations', timeZone: 'Oslo', returnAll: true },
				{ continueOnFail: true },
			),
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(/Time Zone "Oslo" is not a time zone/);
	});

	it('Excel: the raw records too, nested fields as dot columns, a column first seen on a later page in the header', async () => {
		// Two days of last week (the work-day rule keeps records by their date).
		const monday = periodWindow('lastWeek', Date.now(), 'Europe/Oslo').firstDay;
		const day = (n: number) => isoDay(addDays(monday, n));
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: [
				[{ id: 'a', hours: 7.5, approved: true, date: day(0), note: ' lead & <b> ' }],
				[{ id: 'b', hours: 2, extra: { code: 'X1' }, date: day(1) }],
			].map((data, index) => ({
				path: '/v1/time-registrations',
				status: 200,
				body: { data, continuationToken: index === 0 ? 't1' : '' },
			})),
		});
		const result = await run({
			period: 'lastWeek',
			simplify: false,
			returnAll: true,
			output: 'file',
			fileFormat: 'xlsx',
		});
		expect(result.error).toBeUndefined();
		const [item] = result.items['Field Ops'];
		expect(item.binary?.data).toMatchObject({
			fileName: 'time-registrations.xlsx',
			mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
		});
		const book = XLSX.read(await harness.binaryBuffer(item.binary?.data as IBinaryData), { cellNF: true });
		const rows = XLSX.utils.sheet_to_json<IDataObject>(book.Sheets[book.SheetNames[0]], { raw: true });
		expect(rows).toEqual([
			{ id: 'a', hours: 7.5, approved: true, date: expect.any(Date), note: ' lead & <b> ' },
			{ id: 'b', hours: 2, 'extra.code': 'X1', date: expect.any(Date) },
		]);
		// A date cell of the record's day.
		const cell = book.Sheets[book.SheetNames[0]].D3 as { t: string; v: number; z: string };
		expect([cell.t, cell.z, XLSX.SSF.format(cell.z, cell.v)]).toEqual(['n', 'yyyy-mm-dd', day(1)]);
		expect(item.json).toMatchObject({
			records: 2,
			columns: ['id', 'hours', 'approved', 'date', 'note', 'extra.code'],
		});
		expect(book.Props?.Title).toMatch(/^Time Registrations, Last Week: /);
	});
});
