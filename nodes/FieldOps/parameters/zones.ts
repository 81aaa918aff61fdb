/**
 * Wall-clock time in IANA time zones with `Intl` alone (a community node may not bring Luxon in): the offset in
 * force at an instant, the instant of a wall-clock time, and calendar days. Daylight-saving changes give days of
 * 23 and 25 hours; a wall-clock time that does not exist (the spring gap) is moved forward, one that exists twice
 * (the autumn fold) is its first occurrence, as Luxon and n8n's `$now` do.
 */
const HOUR = 3_600_000;
export const DAY_MS = 24 * HOUR;

export interface CalendarDay {
	year: number;
	month: number;
	day: number;
}

const formats = new Map<string, Intl.DateTimeFormat>();

function formatOf(zone: string): Intl.DateTimeFormat {
	let format = formats.get(zone);
	if (!format) {
		format = new Intl.DateTimeFormat('en-US', {
			timeZone: zone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
		formats.set(zone, format);
	}
	return format;
}

/** The Time Zone choice that stands for the workflow's own zone (Workflow Settings → Timezone). */
export const WORKFLOW_ZONE = 'workflow';

/** Every IANA time zone this Node knows, UTC among them, by name. */
export function timeZoneNames(): string[] {
	const intl = Intl as unknown as { supportedValuesOf?: (key: 'timeZone') => string[] };
	const zones = intl.supportedValuesOf?.('timeZone') ?? [];
	return [...new Set([...zones, 'UTC'])].sort();
}

/** Whether `zone` names a time zone this Node knows (`Europe/Oslo`, `UTC`). */
export function isTimeZone(zone: unknown): zone is string {
	if (typeof zone !== 'string' || zone.trim() === '') return false;
	try {
		formatOf(zone);
		return true;
	} catch {
		return false;
	}
}

/** Milliseconds the zone's wall clock is ahead of UTC at `ms` (+3,600,000 for Oslo in winter). */
export function offsetAt(zone: string, ms: number): number {
	const at = Math.floor(ms / 1000) * 1000;
	const parts: Record<string, number> = {};
	for (const part of formatOf(zone).formatToParts(at)) parts[part.type] = Number(part.value);
	return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second) - at;
}

/** The wall-clock time at `ms` as a UTC-based number (read it with getUTC…). */
export const wallAt = (zone: string, ms: number): number => ms + offsetAt(zone, ms);

/**
 * The instant whose wall-clock time in `zone` is `wall` (a UTC-based number, e.g. `Date.UTC(2026, 2, 29, 2, 30)`).
 * In a fold the first of the two; in a gap the wall time is moved forward by the gap (02:30 → 03:30).
 */
export function instantOfWall(zone: string, wall: number): number {
	const before = offsetAt(zone, wall - DAY_MS);
	const after = offsetAt(zone, wall + DAY_MS);
	const candidates = [before, after, offsetAt(zone, wall)]
		.map((offset) => wall - offset)
		.filter((instant) => wallAt(zone, instant) === wall);
	return candidates.length > 0 ? Math.min(...candidates) : wall - before;
}

export const dayOf = (wall: number): CalendarDay => {
	const date = new Date(wall);
	return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
};

export const wallOfDay = (day: CalendarDay): number => Date.UTC(day.year, day.month - 1, day.day);

/** The calendar day `days` after `day` (negative: before). */
export const addDays = (day: CalendarDay, days: number): CalendarDay => dayOf(wallOfDay(day) + days * DAY_MS);

/** The first instant of a calendar day in `zone` (its midnight, or the end of a gap at midnight). */
export const startOfDay = (zone: string, day: CalendarDay): number => instantOfWall(zone, wallOfDay(day));

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** `yyyy-MM-dd`. */
export const isoDay = (day: CalendarDay): string => `${pad(day.year, 4)}-${pad(day.month)}-${pad(day.day)}`;

/** `2026-03-23T00:00:00.000+01:00`: the instant with the zone's offset, as Luxon's toISO() writes it. */
export function isoInZone(zone: string, ms: number): string {
	const offset = offsetAt(zone, ms);
	const wall = new Date(ms + offset).toISOString().slice(0, 23);
	const minutes = Math.abs(offset) / 60_000;
	const sign = offset < 0 ? '-' : '+';
	return `${wall}${sign}${pad(Math.floor(minutes / 60))}:${pad(minutes % 60)}`;
}

/** A date-time text, checked ISO 8601: with a zone it is that instant; without, wall-clock time in `zone`. */
export function instantOf(isoText: string, zone: string): number {
	if (/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(isoText)) return Date.parse(isoText);
	return instantOfWall(zone, Date.parse(`${isoText}Z`));
}
