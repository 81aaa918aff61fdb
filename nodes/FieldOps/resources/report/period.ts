import type { IDataObject } from 'n8n-workflow';

import {
	addDays,
	DAY_MS,
	dayOf,
	isoDay,
	isoInZone,
	startOfDay,
	wallAt,
	wallOfDay,
	type CalendarDay,
} from '../../parameters/zones';

/** The periods people report on; `custom` is the From/To fields. Weeks start on Monday (ISO 8601). */
export const PERIODS = {
	today: 'Today',
	yesterday: 'Yesterday',
	thisWeek: 'This Week',
	lastWeek: 'Last Week',
	thisMonth: 'This Month',
	lastMonth: 'Last Month',
	custom: 'Custom',
} as const;

export type PeriodName = keyof typeof PERIODS;

/** A window of whole calendar days in a zone: `from` inclusive, `to` exclusive (the next day's start). */
export interface DayWindow {
	period: PeriodName;
	zone: string;
	firstDay: CalendarDay;
	/** The last day inside the window. */
	lastDay: CalendarDay;
	from: number;
	to: number;
}

/** The days of a named period around `nowMs`, as the calendar of `zone` counts them. */
export function periodDays(
	period: Exclude<PeriodName, 'custom'>,
	nowMs: number,
	zone: string,
): [CalendarDay, CalendarDay] {
	const today = dayOf(wallAt(zone, nowMs));
	// 1 = Monday … 7 = Sunday
	const weekday = ((new Date(Date.UTC(today.year, today.month - 1, today.day)).getUTCDay() + 6) % 7) + 1;
	const monday = addDays(today, 1 - weekday);
	const monthStart = (year: number, month: number): CalendarDay =>
		month < 1 ? { year: year - 1, month: 12, day: 1 } : { year, month, day: 1 };
	const thisMonth = monthStart(today.year, today.month);
	const nextMonth = monthStart(today.year + (today.month === 12 ? 1 : 0), (today.month % 12) + 1);
	const lastMonth = monthStart(today.year, today.month - 1);
	switch (period) {
		case 'today':
			return [today, today];
		case 'yesterday':
			return [addDays(today, -1), addDays(today, -1)];
		case 'thisWeek':
			return [monday, addDays(monday, 6)];
		case 'lastWeek':
			return [addDays(monday, -7), addDays(monday, -1)];
		case 'thisMonth':
			return [thisMonth, addDays(nextMonth, -1)];
		case 'lastMonth':
			return [lastMonth, addDays(thisMonth, -1)];
	}
}

export function periodWindow(period: Exclude<PeriodName, 'custom'>, nowMs: number, zone: string): DayWindow {
	const [firstDay, lastDay] = periodDays(period, nowMs, zone);
	return {
		period,
		zone,
		firstDay,
		lastDay,
		from: startOfDay(zone, firstDay),
		to: startOfDay(zone, addDays(lastDay, 1)),
	};
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTHS = [
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

/** "Monday 23 March 2026". */
export function dayInWords(day: CalendarDay): string {
	const weekday = WEEKDAYS[new Date(Date.UTC(day.year, day.month - 1, day.day)).getUTCDay()];
	return `${weekday} ${day.day} ${MONTHS[day.month - 1]} ${day.year}`;
}

/** What the output says about the window it covers: in words, and as ISO values in the period's zone. */
export interface WindowDescription extends IDataObject {
	period: string;
	text: string;
	timeZone: string;
	from: string | null;
	to: string | null;
	/** What a file of the window is named after: 2026-W47, 2026-11, 2026-11-23, 2026-11-01-to-2026-11-15. */
	fileSuffix: string;
}

/** The ISO 8601 week of a day, as a file or a payroll run names it: `2026-W09` (weeks start on Monday). */
export function isoWeek(day: CalendarDay): string {
	const date = wallOfDay(day);
	const monday0 = (new Date(date).getUTCDay() + 6) % 7;
	// The week belongs to the year of its Thursday.
	const thursday = date + (3 - monday0) * DAY_MS;
	const year = new Date(thursday).getUTCFullYear();
	const week = 1 + Math.floor((thursday - Date.UTC(year, 0, 1)) / (7 * DAY_MS));
	return `${year}-W${String(week).padStart(2, '0')}`;
}

function periodSuffix(window: DayWindow): string {
	switch (window.period) {
		case 'thisWeek':
		case 'lastWeek':
			return isoWeek(window.firstDay);
		case 'thisMonth':
		case 'lastMonth':
			return isoDay(window.firstDay).slice(0, 7);
		default:
			return isoDay(window.firstDay) === isoDay(window.lastDay)
				? isoDay(window.firstDay)
				: `${isoDay(window.firstDay)}-to-${isoDay(window.lastDay)}`;
	}
}

export function describeDays(window: DayWindow): WindowDescription {
	const { firstDay, lastDay, zone } = window;
	const days = isoDay(firstDay) === isoDay(lastDay) ? 'day' : 'days';
	const span = days === 'day' ? dayInWords(firstDay) : `${dayInWords(firstDay)} – ${dayInWords(lastDay)}`;
	return {
		period: PERIODS[window.period],
		text: `${PERIODS[window.period]}: ${span} (${zone})`,
		timeZone: zone,
		from: isoInZone(zone, window.from),
		to: isoInZone(zone, window.to),
		firstDay: isoDay(firstDay),
		lastDay: isoDay(lastDay),
		fileSuffix: periodSuffix(window),
	};
}

/** A window of instants (Custom, or the dated window of Changed Since); either end may be open. */
export function describeInstants(
	label: string,
	zone: string,
	from: number | undefined,
	to: number | undefined,
): WindowDescription {
	const show = (ms: number) => isoInZone(zone, ms).slice(0, 16).replace('T', ' ');
	const span =
		from !== undefined && to !== undefined
			? `${show(from)} – ${show(to)}`
			: from !== undefined
				? `from ${show(from)}`
				: to !== undefined
					? `until ${show(to)}`
					: 'no date limit';
	// A file is named after the days: the last is the day before an end at midnight.
	const day = (ms: number) => isoDay(dayOf(wallAt(zone, ms)));
	const first = from === undefined ? undefined : day(from);
	const last =
		to === undefined ? undefined : day(isoInZone(zone, to).endsWith('T00:00:00.000', 23) ? to - 1 : to);
	let fileSuffix = first === last ? (first ?? '') : `${first}-to-${last}`;
	if (first === undefined && last !== undefined) fileSuffix = `until-${last}`;
	if (first !== undefined && last === undefined) fileSuffix = `from-${first}`;
	return {
		period: label,
		text: `${label}: ${span} (${zone})`,
		timeZone: zone,
		from: from === undefined ? null : isoInZone(zone, from),
		to: to === undefined ? null : isoInZone(zone, to),
		fileSuffix,
	};
}
