/**
 * "Weekly hours to spreadsheet" as it runs on a Monday morning, in n8n's real engine: the workflow's time zone
 * America/New_York, Europe/Oslo or Pacific/Auckland, a site in Europe/Oslo, "now" in a week with a
 * daylight-saving change (the week reported has a 23- or a 25-hour day in Oslo), registrations on both edges of
 * every day. The rows are exactly the registrations whose work day is in last week; Date is the work day, Start
 * and End are in the workflow's zone, Hours a number; the .xlsx is read back with a spreadsheet library (SheetJS).
 * Under `npm run test:alt` the service names its fields otherwise: every readable column is filled all the same.
 *
 * "Now" is set by faking `Date` alone (timers, ticks and I/O run as usual): n8n's `$now`, the node and the
 * sandbox's records all see the same Monday.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { isoWeek } from '../../nodes/FieldOps/resources/report/period';
import { addDays, dayOf, instantOf, isoDay, isoInZone, wallAt } from '../../nodes/FieldOps/parameters/zones';
import { N8nHarness, type WorkflowJson } from '../harness';
import { fakeDateOnly } from '../helpers/fake-date';
import { call, useSandbox } from '../helpers/sandbox';
import { useSandboxCredential } from '../helpers/workflows';
import { feedStore, kindDefinition } from '../sandbox/reporting/feeds';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const XLSX = require('@e965/xlsx') as typeof import('@e965/xlsx');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const example = require('../../examples/weekly-hours-to-spreadsheet.json') as WorkflowJson;

const SITE = 'Europe/Oslo';
const ZONES = ['America/New_York', 'Europe/Oslo', 'Pacific/Auckland'];
const LABELS = REPORT_FEEDS.find((feed) => feed.value === 'timeRegistrations')!.columns.map((c) => c.label);
const FIELD_OPS = "Last week's hours as a spreadsheet";

interface Week {
	/** Monday 09:00 in Oslo, after the week with the change. */
	now: string;
	monday: string;
	/** Length of the week reported, in Oslo, hours. */
	osloHours: number;
}

const WEEKS: Week[] = [
	{ now: '2026-03-30T07:00:00Z', monday: '2026-03-23', osloHours: 167 },
	{ now: '2026-10-26T08:00:00Z', monday: '2026-10-19', osloHours: 169 },
];

/** `yyyy-MM-dd HH:mm` of an instant in a zone. */
const wall = (ms: number, zone: string) => isoInZone(zone, ms).slice(0, 16).replace('T', ' ');

/** A sheet's cell as a person sees it: the text of its number format, or the value. */
function shown(cell: { t: string; v: unknown; z?: string } | undefined): unknown {
	if (!cell) return null;
	if (cell.t === 'n' && cell.z) return XLSX.SSF.format(cell.z, cell.v as number);
	return cell.v;
}

describe.each(WEEKS)('Weekly hours to spreadsheet, the Monday after the week of $monday', (week) => {
	const sb = useSandbox({ scale: 150, siteTimeZone: SITE });
	let harness: N8nHarness;
	const first = {
		year: +week.monday.slice(0, 4),
		month: +week.monday.slice(5, 7),
		day: +week.monday.slice(8),
	};

	beforeAll(async () => {
		fakeDateOnly(Date.parse(week.now));
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
		// The service's clock on that Monday too; its history is seeded over the 60 days before it.
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { now: week.now } });
		// Registrations on both edges of every day (Oslo), from two days before the week to two days after it.
		for (let offset = -2; offset <= 8; offset++) {
			const day = isoDay(addDays(first, offset));
			for (const [time, hours] of [
				['00:05', 1.5],
				['23:40', 0.25],
			] as const)
				await call(sb().coreUrl, '/__sandbox/activity', {
					method: 'POST',
					json: {
						kind: 'time-registrations',
						action: 'create',
						at: new Date(instantOf(`${day}T${time}:00`, SITE)).toISOString(),
						hours,
					},
				});
		}
	});
	afterAll(() => jest.useRealTimers());

	/** The registrations of the week's work days the admin client sees, as the sheet should show them in `zone`. */
	function expectedRows(zone: string): string[] {
		const { world } = sb().sandbox;
		const visible = new Set(world.companyTree(world.clients[0].companyId));
		const last = isoDay(addDays(first, 6));
		return feedStore(sb().sandbox, kindDefinition('time-registrations')!)
			.records.filter((record) => visible.has(record.companyId) && record.deletedMs === null)
			.filter((record) => String(record.data.date) >= week.monday && String(record.data.date) <= last)
			.map((record) =>
				[
					record.data.date,
					wall(Date.parse(String(record.data.startDateTime)), zone),
					wall(Date.parse(String(record.data.stopDateTime)), zone),
					record.data.hours,
				].join(' | '),
			)
			.sort();
	}

	it.each(ZONES)(
		'in a workflow set to %s: exactly the work days of last week, as dates and numbers',
		async (zone) => {
			const result = await harness.run({ ...example, settings: { ...example.settings, timezone: zone } });
			expect(result.error).toBeUndefined();
			const [item] = result.items[FIELD_OPS];
			const json = item.json as IDataObject;
			const buffer = await harness.binaryBuffer(item.binary?.data as IBinaryData);
			const book = XLSX.read(buffer, { cellNF: true });
			const sheet = book.Sheets[book.SheetNames[0]];
			const range = XLSX.utils.decode_range(sheet['!ref'] as string);
			const header = Array.from(
				{ length: range.e.c + 1 },
				(_, c) => sheet[XLSX.utils.encode_cell({ r: 0, c })]?.v,
			);
			// Simplify's columns (then Deleted / Deleted At where the service sends tombstone fields [R10]).
			expect(header.slice(0, LABELS.length)).toEqual(LABELS);
			const column = (label: string) => header.indexOf(label);
			const cells = (r: number) =>
				header.map(
					(_, c) => sheet[XLSX.utils.encode_cell({ r, c })] as { t: string; v: unknown; z?: string },
				);
			const rows = Array.from({ length: range.e.r }, (_, index) => cells(index + 1));

			// Date, Start and End are date cells, Hours a number.
			for (const row of rows) {
				expect(row[column('Date')]).toMatchObject({ t: 'n', z: 'yyyy-mm-dd' });
				expect(row[column('Start')]).toMatchObject({ t: 'n', z: 'yyyy-mm-dd hh:mm' });
				expect(row[column('End')]).toMatchObject({ t: 'n', z: 'yyyy-mm-dd hh:mm' });
				expect(row[column('Hours')]).toMatchObject({ t: 'n', v: expect.any(Number) });
			}
			// Exactly last week's work days: each row's Date is its work day, Start and End in the workflow's zone.
			const got = rows
				.map((row) => ['Date', 'Start', 'End', 'Hours'].map((label) => shown(row[column(label)])).join(' | '))
				.sort();
			expect(got).toEqual(expectedRows(zone));
			expect(got.length).toBeGreaterThan(14);

			// Every readable column holds values (Last Changed only where the service sends a time of change [C4]).
			const stamped = sb().sandbox.variant.unshownTimestamps === 'included';
			for (const label of LABELS.filter((l) => stamped || l !== 'Last Changed'))
				expect([label, rows.some((row) => shown(row[column(label)]) !== null)]).toEqual([label, true]);

			// The file says which week, in words and ISO, in the workflow's zone; the sheet is named after its days.
			const last = isoDay(addDays(first, 6));
			expect(json).toMatchObject({
				fileName: `time-registrations-${isoWeek(first)}.xlsx`,
				fileFormat: 'xlsx',
				records: rows.length,
				window: expect.stringMatching(
					new RegExp(`^Last Week: Monday \\d+ \\w+ 2026 – Sunday \\d+ \\w+ 2026 \\(${zone}\\)$`),
				),
				windowFrom: isoInZone(zone, instantOf(`${week.monday}T00:00:00`, zone)),
				windowTo: isoInZone(zone, instantOf(`${isoDay(addDays(first, 7))}T00:00:00`, zone)),
				timeZone: zone,
				moreExist: false,
			});
			expect(book.SheetNames[0]).toBe(`${week.monday} – ${last}`);
			const hours = (Date.parse(String(json.windowTo)) - Date.parse(String(json.windowFrom))) / 3_600_000;
			if (zone === SITE) expect(hours).toBe(week.osloHours);
			// A site that keeps another zone than the workflow's is named, not silently shifted.
			if (zone === SITE) expect(json.note).toBeUndefined();
			else expect(json.note).toMatch(/the site keeps another time zone than this report/);
			expect(isoDay(dayOf(wallAt(zone, Date.now())))).toBe(isoDay(addDays(first, 7)));
		},
	);
});
