import type { IDataObject } from 'n8n-workflow';

import { WHEN_PRESENT, type Column } from '../../reporting/columns';
import type { ReportFeed } from '../../reporting/feeds';
import { offsetAt } from '../../parameters/zones';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const NUMBER = /^-?\d+(\.\d+)?$/;
const QUARTER_HOUR = 15 * 60_000;
const pad = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * Instants shown as wall-clock time in one time zone, `yyyy-MM-dd HH:mm`. The zone's offset is asked of `Intl`
 * once per quarter hour of UTC (every zone changes its offset on a quarter hour), so a million records cost a
 * few thousand `Intl` calls.
 */
export class LocalTime {
	private readonly offsets = new Map<number, number>();

	constructor(private readonly zone: string) {}

	/**
	 * An ISO 8601 date-time as local time; one without a zone is the service's UTC (as the trigger reads it,
	 * docs/assumptions.md R18). Anything else (a day, not a date) as it is.
	 */
	show(value: unknown): unknown {
		const iso = typeof value === 'string' ? ISO_INSTANT.exec(value) : null;
		if (!iso) return value;
		const ms = Date.parse(iso[1] ? (value as string) : `${value as string}Z`);
		if (Number.isNaN(ms)) return value;
		const local = new Date(ms + this.offset(ms));
		return `${local.getUTCFullYear()}-${pad(local.getUTCMonth() + 1)}-${pad(local.getUTCDate())} ${pad(local.getUTCHours())}:${pad(local.getUTCMinutes())}`;
	}

	private offset(ms: number): number {
		const quarter = Math.floor(ms / QUARTER_HOUR);
		let offset = this.offsets.get(quarter);
		if (offset === undefined) {
			offset = offsetAt(this.zone, quarter * QUARTER_HOUR);
			if (this.offsets.size > 100_000) this.offsets.clear();
			this.offsets.set(quarter, offset);
		}
		return offset;
	}
}

/** The first of the column's fields holding a value (a scalar, or an object with `pick`), or undefined. */
export function columnField(column: Column, record: IDataObject): string | undefined {
	for (const field of column.from) {
		const raw = record[field];
		if (raw === undefined || raw === null || raw === '') continue;
		if (column.pick !== undefined ? typeof raw === 'object' : typeof raw !== 'object') return field;
	}
	return undefined;
}

function value(column: Column, raw: unknown, time: LocalTime): unknown {
	if (column.pick !== undefined && raw !== undefined) raw = (raw as IDataObject)[column.pick];
	if (raw === undefined) return null;
	if (column.kind === 'time') return time.show(raw);
	if (column.kind === 'date' && typeof raw === 'string') return DAY_PREFIX.exec(raw)?.[0] ?? raw;
	// A number sent as text ("7.5") is a number a spreadsheet can sum.
	if (column.kind === 'number' && typeof raw === 'string' && NUMBER.test(raw)) return Number(raw);
	return raw;
}

/**
 * The columns a person reads, for one export: readable names in a fixed order, instants in local time, dates
 * as days. Every column is there for every record (empty where the record holds none of its fields, never an
 * error; only the tombstone fields of exports the spec does not give them to appear just where present); the
 * IDs and technical fields the table names are left out, and so are the empty fields a column could have been
 * read from; any other field (a second name holding a value too, or one the table does not know) follows
 * unchanged under its own name, so nothing the service sends is lost.
 */
export function simplifier(feed: ReportFeed, timeZone: string): (record: IDataObject) => IDataObject {
	const time = new LocalTime(timeZone);
	const optional = WHEN_PRESENT.filter(
		(column) => !feed.columns.some((listed) => listed.label === column.label),
	);
	const drop = new Set(feed.drop);
	const candidates = new Set(feed.columns.flatMap((column) => column.from));
	return (record) => {
		const simple: IDataObject = {};
		const used = new Set<string>();
		for (const column of feed.columns) {
			const field = columnField(column, record);
			if (field !== undefined) used.add(field);
			simple[column.label] = value(
				column,
				field === undefined ? undefined : record[field],
				time,
			) as IDataObject[string];
		}
		for (const column of optional) {
			const field = column.from.find((name) => name in record);
			if (field !== undefined) {
				used.add(field);
				simple[column.label] = value(column, record[field], time) as IDataObject[string];
			}
		}
		for (const key in record) {
			if (used.has(key) || drop.has(key) || key in simple) continue;
			const raw = record[key];
			// An unused name of a column is left out only when it holds nothing.
			if (candidates.has(key) && (raw === undefined || raw === null || raw === '')) continue;
			simple[key] = raw;
		}
		return simple;
	};
}
