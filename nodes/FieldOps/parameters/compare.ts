import type { IDataObject } from 'n8n-workflow';

/**
 * Whether the value Field Ops holds is the value a write would send, in the service's terms (Create or Update's
 * field-by-field compare): formats that differ but mean the same are the same; what cannot be told is not.
 */

interface DateParts {
	day: string;
	/** Time of day as `HH:mm:ss.fffffffff`; midnight when only a day was given. */
	time: string;
	dayOnly: boolean;
	/** Offset in minutes; null when the value names no zone. */
	offset: number | null;
}

const MIDNIGHT = '00:00:00.000000000';

/** A date as `yyyy-MM-dd`, `dd.MM.yyyy` (v4) or ISO 8601 with a time, a fraction and a zone; else undefined. */
function dateParts(text: string): DateParts | undefined {
	const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
	if (dotted)
		return { day: `${dotted[3]}-${dotted[2]}-${dotted[1]}`, time: MIDNIGHT, dayOnly: true, offset: null };
	const match =
		/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
			text.trim(),
		);
	if (!match) return undefined;
	const [, day, hours, minutes, seconds = '00', fraction = '', zone] = match;
	const offset =
		zone === undefined
			? null
			: /^z$/i.test(zone)
				? 0
				: (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
	return {
		day,
		time: hours === undefined ? MIDNIGHT : `${hours}:${minutes}:${seconds}.${fraction.padEnd(9, '0')}`,
		dayOnly: hours === undefined,
		offset,
	};
}

const instantOf = (parts: DateParts) =>
	Date.parse(`${parts.day}T${parts.time.slice(0, 12)}Z`) - (parts.offset ?? 0) * 60_000;

/** A calendar day: a date alone, or midnight without a zone (what the node sends for a date given without a time). */
const isDay = (parts: DateParts) => parts.dayOnly || (parts.offset === null && parts.time === MIDNIGHT);

/**
 * Whether a date Field Ops answers is the date we would send. Formats differ (`2026-11-23`, `…T00:00:00`,
 * `…T00:00:00.000Z`, `23.11.2026`): a day equals midnight of that day however the answer writes its zone (a
 * birth date is a day); times with zones compare as instants. A time of day with a zone on one side only cannot
 * be told apart (the service's own zone is not shown): not the same.
 */
function sameDate(sent: string, read: string): boolean {
	if (sent === read) return true;
	const a = dateParts(sent);
	const b = dateParts(read);
	if (!a || !b) return false;
	if (isDay(a) || isDay(b)) return a.day === b.day && a.time === MIDNIGHT && b.time === MIDNIGHT;
	if (a.offset === null && b.offset === null) return a.day === b.day && a.time === b.time;
	if (a.offset === null || b.offset === null) return false;
	return a.time.slice(12) === b.time.slice(12) && instantOf(a) === instantOf(b);
}

/**
 * Whether the value Field Ops holds is the value we would send, in the service's terms: a number written as text,
 * a date in another format, a list in another order. A field the answer does not show is never the same.
 */
export function sameValue(sent: unknown, read: unknown, isDate = false): boolean {
	if (read === undefined) return false;
	if (sent === null) return read === null;
	if (isDate && typeof sent === 'string') return typeof read === 'string' && sameDate(sent, read);
	if (typeof sent === 'number')
		return read === sent || (typeof read === 'string' && read.trim() !== '' && Number(read) === sent);
	if (typeof sent === 'boolean') return read === sent || String(read).toLowerCase() === String(sent);
	if (typeof sent === 'string') return read === sent || (typeof read === 'number' && String(read) === sent);
	if (Array.isArray(sent)) {
		if (!Array.isArray(read) || read.length !== sent.length) return false;
		const left = [...read];
		return sent.every((element) => {
			const at = left.findIndex((candidate) => sameValue(element, candidate));
			if (at >= 0) left.splice(at, 1);
			return at >= 0;
		});
	}
	if (sent && typeof sent === 'object') {
		if (!read || typeof read !== 'object' || Array.isArray(read)) return false;
		return Object.entries(sent).every(([name, value]) => sameValue(value, (read as IDataObject)[name]));
	}
	return false;
}
