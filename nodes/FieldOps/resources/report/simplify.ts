import type { IDataObject } from 'n8n-workflow';

import { SIMPLE_COLUMNS, WHEN_PRESENT, type Column } from './columns';

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DAY_PREFIX = /^\d{4}-\d{2}-\d{2}/;
const QUARTER_HOUR = 15 * 60_000;
const pad = (value: number) => (value < 10 ? `0${value}` : String(value));

/**
 * Instants shown as wall-clock time in one time zone, `yyyy-MM-dd HH:mm`. The zone's offset is asked of `Intl`
 * once per quarter hour of UTC (every zone changes its offset on a quarter hour), so a million records cost a
 * few thousand `Intl` calls.
 */
export class LocalTime {
	private readonly offsets = new Map<number, number>();
	private readonly format: Intl.DateTimeFormat;

	constructor(timeZone: string) {
		let format: Intl.DateTimeFormat;
		try {
			format = this.formatter(timeZone);
		} catch {
			format = this.formatter('UTC');
		}
		this.format = format;
	}

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
			const at = quarter * QUARTER_HOUR;
			const parts: Record<string, number> = {};
			for (const part of this.format.formatToParts(at)) parts[part.type] = Number(part.value);
			const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
			offset = wall - at;
			if (this.offsets.size > 100_000) this.offsets.clear();
			this.offsets.set(quarter, offset);
		}
		return offset;
	}

	private formatter(timeZone: string): Intl.DateTimeFormat {
		return new Intl.DateTimeFormat('en-US', {
			timeZone,
			hourCycle: 'h23',
			year: 'numeric',
			month: 'numeric',
			day: 'numeric',
			hour: 'numeric',
			minute: 'numeric',
			second: 'numeric',
		});
	}
}

function value(column: Column, record: IDataObject, time: LocalTime): unknown {
	let raw: unknown = record[column.from];
	if (column.pick !== undefined)
		raw = raw !== null && typeof raw === 'object' ? (raw as IDataObject)[column.pick] : raw;
	if (raw === undefined) return null;
	if (column.kind === 'time') return time.show(raw);
	if (column.kind === 'date' && typeof raw === 'string') return DAY_PREFIX.exec(raw)?.[0] ?? raw;
	return raw;
}

/**
 * The columns a person reads, for one export: readable names in a fixed order, instants in local time, dates
 * as days. Every column is there for every record (empty where the record lacks its field, never an error;
 * only the tombstone fields of exports the spec does not give them to appear just where present);
 * the IDs and technical fields the table names are left out; any field the table does not know follows
 * unchanged under its own name, so nothing the service adds is lost.
 */
export function simplifier(feed: string, timeZone: string): (record: IDataObject) => IDataObject {
	const table = SIMPLE_COLUMNS[feed];
	if (!table) return (record) => record;
	const time = new LocalTime(timeZone);
	const optional = WHEN_PRESENT.filter(
		(column) => !table.columns.some((listed) => listed.from === column.from),
	);
	const known = new Set([...[...table.columns, ...optional].map((column) => column.from), ...table.drop]);
	return (record) => {
		const simple: IDataObject = {};
		for (const column of table.columns)
			simple[column.label] = value(column, record, time) as IDataObject[string];
		for (const column of optional)
			if (column.from in record) simple[column.label] = value(column, record, time) as IDataObject[string];
		for (const key in record) if (!known.has(key) && !(key in simple)) simple[key] = record[key];
		return simple;
	};
}
