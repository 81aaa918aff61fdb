import type { IDataObject } from 'n8n-workflow';

import { typedInstant } from '../../parameters/dates';
import { FieldOpsFailure } from '../../transport/errors';
import type { Item } from '../../items/items';
import { GUESSED } from '../../reporting/columns';
import type { ReportFeed } from '../../reporting/feeds';
import { DAY_MS, isTimeZone, isoDay, dayOf, wallAt, WORKFLOW_ZONE } from '../../parameters/zones';
import {
	describeDays,
	describeInstants,
	periodWindow,
	type PeriodName,
	type WindowDescription,
} from './period';
import { columnField } from './simplify';

/** The date part of a report's query, and what the output says about it. */
export interface ReportWindow {
	query: IDataObject;
	zone: string;
	description?: WindowDescription;
	/** The work-day rule: keeps a record of the period's days; notes what it saw. */
	keep?: (record: IDataObject) => boolean;
	/** Said in the output once the pages are read. */
	notes: () => string[];
}

/**
 * A work day is the site's calendar day, in the site's zone, which the report does not know: the window sent is
 * widened by two days on each side (the UTC offsets span −12 to +14 hours, a night shift ends the next day, and
 * a service may filter on another time of the record), and the records are kept by their day.
 */
const WORK_DAY_MARGIN_MS = 2 * DAY_MS;

/** The Time Zone field (default: the workflow's), checked. */
export function zoneOf(item: Item): string {
	const raw = item.param('timeZone');
	const chosen = typeof raw === 'string' ? raw.trim() : '';
	const zone = chosen === '' || chosen === WORKFLOW_ZONE ? item.context.getTimezone() : chosen;
	if (!isTimeZone(zone))
		throw new FieldOpsFailure(
			`Time Zone "${String(zone)}" is not a time zone`,
			'Write it as Region/City, e.g. Europe/Oslo or America/New_York, or choose the workflow’s time zone.',
		);
	return zone;
}

/** A date parameter as an instant; a date typed without a zone is wall-clock time in the report's zone. */
function instant(item: Item, name: string, label: string, zone: string): number | undefined {
	const raw = item.param(name);
	if (raw === '' || raw === null || raw === undefined) return undefined;
	return typedInstant(label, raw, zone);
}

/** An ISO date-time of the service; without a zone it is UTC (docs/assumptions.md R18). */
const utcInstant = (text: string) => Date.parse(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(text) ? text : `${text}Z`);

const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());

function ordered(from: number | undefined, to: number | undefined, fromLabel: string, toLabel: string) {
	if (from !== undefined && to !== undefined && from > to)
		throw new FieldOpsFailure(`${fromLabel} is later than ${toLabel}`, 'Swap the two dates.');
}

/** The work-day rule for one read: keep a record of the period's days, and notice a site in another zone. */
function workDayRule(feed: ReportFeed, window: ReturnType<typeof periodWindow>) {
	const first = isoDay(window.firstDay);
	const last = isoDay(window.lastDay);
	const dateColumn = feed.columns.find((column) => column.kind === 'date') ?? GUESSED.date;
	let placed = 0;
	let elsewhere = 0;
	let undated = 0;
	const keep = (record: IDataObject): boolean => {
		const field = columnField(dateColumn, record);
		const startField = columnField(GUESSED.start, record);
		const start = startField === undefined ? NaN : utcInstant(String(record[startField]));
		const startDay = Number.isNaN(start) ? undefined : isoDay(dayOf(wallAt(window.zone, start)));
		const day = field === undefined ? startDay : String(record[field]).slice(0, 10);
		if (day === undefined) {
			undated++;
			return true;
		}
		if (day < first || day > last) return false;
		if (field !== undefined && startDay !== undefined) {
			placed++;
			if (startDay !== day) elsewhere++;
		}
		return true;
	};
	const notes = () => [
		...(elsewhere > 0
			? [
					`${elsewhere} of ${placed} ${feed.name.toLowerCase()} started on another day in ${window.zone} than their work day: the site keeps another time zone than this report. Each row is in the period by its work day (Date); Start and End are shown in ${window.zone}.`,
				]
			: []),
		...(undated > 0
			? [
					`${undated} ${feed.name.toLowerCase()} carried no day and no start time: they are kept as Field Ops sent them for the days around the period.`,
				]
			: []),
	];
	return { keep, notes };
}

/** The window of a report with a date window: a named period, the Custom From/To, or the dated change window. */
export function readWindow(item: Item, feed: ReportFeed, nowMs: number): ReportWindow {
	const zone = zoneOf(item);
	const changes = (item.param('syncMode') ?? 'window') !== 'window';
	const period = (item.param<string>('period') ?? 'custom') as PeriodName;
	if (changes || period === 'custom') {
		const [fromName, toName, fromLabel, toLabel] = changes
			? ['datedFrom', 'datedTo', 'Dated From', 'Dated To']
			: ['fromDateTime', 'toDateTime', 'From', 'To'];
		const from = instant(item, fromName, fromLabel, zone);
		const to = instant(item, toName, toLabel, zone);
		ordered(from, to, fromLabel, toLabel);
		return {
			query: {
				...(from !== undefined && { FromDateTime: iso(from) }),
				...(to !== undefined && { ToDateTime: iso(to) }),
			},
			zone,
			description:
				changes && from === undefined && to === undefined
					? undefined
					: describeInstants(changes ? 'Dated' : 'Custom', zone, from, to),
			notes: () => [],
		};
	}
	const window = periodWindow(period, nowMs, zone);
	const margin = feed.workDay ? WORK_DAY_MARGIN_MS : 0;
	const rule = feed.workDay ? workDayRule(feed, window) : undefined;
	return {
		// ToDateTime 1 ms before the next day: the period's end, whether the service reads To as inclusive or not.
		query: { FromDateTime: iso(window.from - margin), ToDateTime: iso(window.to + margin - 1) },
		zone,
		description: describeDays(window),
		keep: rule?.keep,
		notes: rule?.notes ?? (() => []),
	};
}

/** Modified Since / Before, typed in the report's zone, checked before sending. */
export function changeWindow(item: Item, zone: string): IDataObject {
	const since = instant(item, 'modifiedSince', 'Modified Since', zone);
	if (since === undefined)
		throw new FieldOpsFailure('Modified Since is empty', 'Set the moment from which changes are wanted.');
	const before = instant(item, 'modifiedBefore', 'Modified Before', zone);
	if (before !== undefined && before <= since)
		throw new FieldOpsFailure(
			'Modified Before must be later than Modified Since',
			'Field Ops only accepts a change window whose end is after its start. Leave Modified Before empty for "until now".',
		);
	return { ModifiedSince: iso(since), ...(before !== undefined && { ModifiedBefore: iso(before) }) };
}
