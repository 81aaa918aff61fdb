import { FieldOpsFailure } from '../transport/errors';
import { instantOf } from './zones';

/** The two date formats of the legacy v4 users API (spec: User (v4)). */
export type UserDateFormat = 'yyyy-MM-dd' | 'dd.MM.yyyy';

interface YearMonthDay {
	year: number;
	month: number;
	day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** What a date picker, an expression (Luxon or JS date) or a typed string gave, as text. */
function asText(value: unknown): string {
	if (value && typeof value === 'object' && 'toISO' in value)
		return String((value as { toISO: () => string }).toISO());
	if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString();
	return String(value).trim();
}

/** The calendar date at the start of an ISO value or a `dd.MM.yyyy` value, if it is a real date (no 30 February). */
function calendarDate(text: string): YearMonthDay | undefined {
	let match = /^(\d{4})-(\d{2})-(\d{2})(?:$|T)/.exec(text);
	let date: YearMonthDay | undefined;
	if (match) date = { year: +match[1], month: +match[2], day: +match[3] };
	else if ((match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text)))
		date = { year: +match[3], month: +match[2], day: +match[1] };
	if (!date) return undefined;
	const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
	return check.getUTCMonth() === date.month - 1 && check.getUTCDate() === date.day ? date : undefined;
}

/** ISO 8601 date-time: date, then hours and minutes, optional seconds and fraction, optional zone. */
const ISO_TIME = /^T([01]\d|2[0-3]):[0-5]\d(:[0-5]\d(\.\d{1,9})?)?(Z|[+-]([01]\d|2[0-3]):?[0-5]\d)?$/;

/** A day written day first (23.11.2026, 23/11/2026, 3-11-2026) that is a real date, as yyyy-MM-dd. */
function dayFirst(text: string): string | undefined {
	const match = /^(\d{1,2})[./-](\d{1,2})[./-](\d{4})(?:[ T](\d{1,2}):(\d{2}))?$/.exec(text);
	if (!match) return undefined;
	const iso = `${match[3]}-${pad(+match[2])}-${pad(+match[1])}`;
	if (!calendarDate(iso)) return undefined;
	return match[4] === undefined ? iso : `${iso}T${pad(+match[4])}:${match[5]}:00`;
}

function invalid(label: string, value: unknown, example: string, iso: boolean): FieldOpsFailure {
	const text = asText(value);
	const meant = iso ? dayFirst(text) : undefined;
	if (meant)
		return new FieldOpsFailure(
			`${label} "${text}" is written day first: Field Ops needs year-month-day, here ${meant}`,
			`Write ${label} as ${meant} (year-month-day${meant.includes('T') ? ', then the time' : ''}), or pick it in the date picker.`,
		);
	return new FieldOpsFailure(
		`${label} is not a valid date: "${text}"`,
		`Pick ${label} in the date picker, or write it as ${example}.`,
	);
}

/**
 * A date-time for the ISO 8601 endpoints, checked before sending: a real calendar date, optionally with a time
 * and zone (a date alone becomes midnight). Anything else ("next Tuesday", 2026-02-30, 23.11.2026) is refused.
 */
export function isoDateTime(label: string, value: unknown): string {
	const text = asText(value);
	const date = calendarDate(text);
	const time = text.slice(10);
	if (!date || text[4] !== '-' || (time !== '' && !ISO_TIME.test(time)))
		throw invalid(label, value, 'year-month-day, e.g. 2026-11-23, or with a time 2026-11-23T07:00:00', true);
	return time === '' ? `${text}T00:00:00` : text;
}

/** A date as the v4 users API takes it: `yyyy-MM-dd` or `dd.MM.yyyy` (any time of day is dropped). */
export function userDate(label: string, value: unknown, format: UserDateFormat): string {
	const text = asText(value);
	const date = calendarDate(text);
	const time = /^\d{4}-/.test(text) ? text.slice(10) : '';
	if (!date || (time !== '' && !ISO_TIME.test(time)))
		throw invalid(label, value, 'year-month-day or day.month.year, e.g. 2024-08-15 or 15.08.2024', false);
	return format === 'dd.MM.yyyy'
		? `${pad(date.day)}.${pad(date.month)}.${pad(date.year, 4)}`
		: `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** Epoch milliseconds of a checked ISO date-time (a time without a zone is UTC). */
export function epochOf(isoValue: string): number {
	return Date.parse(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(isoValue) ? isoValue : `${isoValue}Z`);
}

/**
 * A date-time the user typed, picked or computed, as an instant: with a zone (an expression's `$now`, `…Z`)
 * that instant; without one (the date picker's `2026-11-01T00:00:00`), wall-clock time in `zone`, the
 * workflow's time zone, never the n8n host's. Checked as {@link isoDateTime}.
 */
export function typedInstant(label: string, value: unknown, zone: string): number {
	return instantOf(isoDateTime(label, value), zone);
}

/** {@link typedInstant}, or NaN when it is not a date (the trigger's Start Date says so itself). */
export function instantOrNaN(value: unknown, zone: string): number {
	try {
		return typedInstant('Date', value, zone);
	} catch {
		return NaN;
	}
}
