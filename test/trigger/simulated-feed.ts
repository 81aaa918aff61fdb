/**
 * An in-memory reporting feed for the cursor tests: records with a server-side modification time, keyset
 * pagination over the live data (so an edit while pages are read moves a record to a later page, as the API
 * does), inclusive or exclusive `ModifiedSince` and `ModifiedBefore`, a Date header from its own clock, late
 * writes (stamped before they become visible) and tombstones. Every version ever written is kept as ground truth.
 */
import {
	applyRead,
	beginPoll,
	fingerprintOf,
	parseTimestamp,
	planRead,
	type CursorOptions,
	type CursorState,
	type Feed,
	type Poll,
	type ReadPlan,
	type ReadResult,
} from '../../nodes/FieldOpsTrigger/cursor';

export interface Rec {
	id: string;
	createdDateTime: string;
	modifiedDateTime: string;
	isDeleted?: boolean;
	rev: number;
	note: string;
}

export const recordFeed: Feed<Rec> = {
	identity: (record) => record.id,
	modifiedAt: (record) => parseTimestamp(record.modifiedDateTime),
	ordered: true,
	createdAt: (record) => parseTimestamp(record.createdDateTime),
	isDeleted: (record) => record.isDeleted === true,
};

/** The same records, as if their pages were not in modification order (images): read in windows. */
export const unorderedFeed: Feed<Rec> = { ...recordFeed, ordered: false };

/** The same records read as if they carried no modification time (poll-clock mode). */
export const untimedFeed: Feed<Rec> = {
	identity: (record) => record.id,
	createdAt: (record) => parseTimestamp(record.createdDateTime),
	isDeleted: (record) => record.isDeleted === true,
};

/** Records showing neither a modification nor a creation time: poll clock, and new means first seen. */
export const bareFeed: Feed<Rec> = {
	identity: (record) => record.id,
	isDeleted: (record) => record.isDeleted === true,
};

/** mulberry32: small, seeded, good enough to drive a simulation. */
export function seededRandom(seed: number): () => number {
	let state = seed >>> 0;
	const { imul } = Math;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = imul(t ^ (t >>> 15), t | 1);
		t ^= t + imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

interface Row {
	record: Rec;
	modified: number;
}

export interface ReadOptions {
	/** ModifiedSince exclusive (default inclusive). */
	exclusive?: boolean;
	/** ModifiedBefore inclusive (default exclusive). */
	inclusiveBefore?: boolean;
	/** Pages at most this long (shorter than the plan's ChunkLimit: a server may send less). */
	pageSize?: number;
	/** Called after each full page, before the next one is read. */
	betweenPages?: () => void;
}

export class SimulatedFeed {
	private readonly rows = new Map<string, Row>();
	private sorted: Row[] | undefined;
	/** Every version ever written, per id, as fingerprints. */
	readonly versions = new Map<string, string[]>();
	private created = 0;

	constructor(public clock: number) {}

	tick(ms: number): void {
		this.clock += ms;
	}

	create(lagMs = 0, note = ''): Rec {
		const id = `r${String(++this.created).padStart(4, '0')}`;
		const at = this.clock - lagMs;
		return this.write(id, at, { id, createdDateTime: iso(at), modifiedDateTime: iso(at), rev: 0, note });
	}

	edit(id: string, lagMs = 0, note = ''): Rec {
		const { record, modified } = this.row(id);
		const at = Math.max(modified + 1, this.clock - lagMs);
		return this.write(id, at, { ...record, modifiedDateTime: iso(at), rev: record.rev + 1, note });
	}

	/** Tombstone, as machine and absence registrations report deletions in incremental mode. */
	remove(id: string): Rec {
		const { record, modified } = this.row(id);
		const at = Math.max(modified + 1, this.clock);
		return this.write(id, at, { ...record, modifiedDateTime: iso(at), rev: record.rev + 1, isDeleted: true });
	}

	/** Ids that can still be edited or deleted. */
	live(): string[] {
		return [...this.rows.values()].filter((row) => !row.record.isDeleted).map((row) => row.record.id);
	}

	current(id: string): Rec {
		return this.row(id).record;
	}

	ids(): string[] {
		return [...this.rows.keys()];
	}

	modifiedAt(id: string): number {
		return this.row(id).modified;
	}

	/** All pages of one incremental read, in the order received. */
	read(modifiedSince: string, options: ReadOptions = {}): Rec[] {
		return this.serve(
			{ since: Date.parse(modifiedSince), chunkLimit: options.pageSize ?? 1000, partial: true },
			options,
		).records as Rec[];
	}

	/** One read as the API serves it: its pages until the last or until `stopAfter`, dated by this clock. */
	serve(plan: ReadPlan, options: ReadOptions = {}): ReadResult<Rec> {
		const date = () => Math.floor(this.clock / 1000) * 1000;
		const result: ReadResult<Rec> & { records: Rec[] } = { records: [], complete: true, serverTime: date() };
		const inside = (row: Row) =>
			(options.exclusive ? row.modified > plan.since : row.modified >= plan.since) &&
			(plan.before === undefined ||
				(options.inclusiveBefore ? row.modified <= plan.before : row.modified < plan.before));
		let last: { modified: number; id: string } | undefined;
		for (;;) {
			const rows = this.ordered();
			let index = last ? this.after(rows, last) : this.from(rows, plan.since);
			const page: Row[] = [];
			const size = Math.min(plan.chunkLimit, options.pageSize ?? Infinity);
			const end = plan.before === undefined ? Infinity : plan.before;
			for (; index < rows.length && page.length < size && rows[index].modified <= end; index++) {
				if (inside(rows[index])) page.push(rows[index]);
			}
			let more = false;
			for (; index < rows.length && !more && rows[index].modified <= end; index++) more = inside(rows[index]);
			result.records.push(...page.map((row) => structuredClone(row.record)));
			result.lastServerTime = date();
			result.complete = !more;
			if (!more || (plan.stopAfter !== undefined && result.records.length >= plan.stopAfter)) return result;
			last = { modified: page[page.length - 1].modified, id: page[page.length - 1].record.id };
			options.betweenPages?.();
		}
	}

	private from(rows: Row[], since: number): number {
		let lo = 0;
		let hi = rows.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			if (rows[mid].modified < since - 1) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	private after(rows: Row[], last: { modified: number; id: string }): number {
		let lo = 0;
		let hi = rows.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const row = rows[mid];
			if (row.modified < last.modified || (row.modified === last.modified && row.record.id <= last.id))
				lo = mid + 1;
			else hi = mid;
		}
		return lo;
	}

	/** Rows in (modification time, id) order: the keyset the pages follow. */
	private ordered(): Row[] {
		this.sorted ??= [...this.rows.values()].sort(
			(a, b) => a.modified - b.modified || (a.record.id < b.record.id ? -1 : 1),
		);
		return this.sorted;
	}

	private row(id: string) {
		const row = this.rows.get(id);
		if (!row) throw new Error(`no record ${id}`);
		return row;
	}

	private write(id: string, modified: number, record: Rec): Rec {
		this.rows.set(id, { record, modified });
		this.sorted = undefined;
		this.versions.set(id, [...(this.versions.get(id) ?? []), fingerprintOf(record)]);
		return record;
	}
}

/**
 * One whole poll: reads as the cursor plans them, served by `serve` (the feed, with faults or concurrent
 * writes), with n8n's clock at `now()`.
 */
export function runPoll<T>(
	state: CursorState,
	serve: (plan: ReadPlan) => ReadResult<T>,
	feed: Feed<T>,
	options: CursorOptions,
	now: () => number,
): Poll<T> {
	let poll = beginPoll<T>(state);
	while (!poll.done) {
		const plan = planRead(poll, feed, options, now());
		poll = applyRead(poll, plan, serve(plan), feed, options, now());
	}
	return poll;
}

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

export function deepFreeze<T>(value: T): T {
	if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}
