/**
 * An in-memory reporting feed for the cursor tests: records with a server-side modification time, keyset
 * pagination over the live data (so an edit while pages are read moves a record to a later page, as the API
 * does), inclusive or exclusive `ModifiedSince` and `ModifiedBefore`, a Date header from its own clock, late
 * writes (stamped before they become visible) and tombstones. Every version ever written is kept as ground truth.
 * As images: several rows per record (`rows`: one per photo, `photo` numbers them) with ChunkLimit counting
 * records, and pages in order within each of `sources` only; a service may also ignore or refuse ModifiedBefore.
 */
import { applyRead, beginPoll } from '../../nodes/FieldOpsTrigger/apply';
import { fingerprintOf, parseTimestamp } from '../../nodes/FieldOpsTrigger/hashing';
import { planRead } from '../../nodes/FieldOpsTrigger/plan';
import type {
	CursorOptions,
	CursorState,
	Feed,
	Poll,
	ReadPlan,
	ReadResult,
} from '../../nodes/FieldOpsTrigger/state';

export interface Rec {
	id: string;
	createdDateTime: string;
	modifiedDateTime: string;
	isDeleted?: boolean;
	rev: number;
	note: string;
	/** Image rows: which photo of the record. */
	photo?: number;
}

export interface FeedShape {
	/** Rows per record (images: photos per parent); ChunkLimit then counts records. */
	rows?: (id: string) => number;
	/** Pages are in modification order within each source only, sources one after the other. */
	sources?: number;
	/** How the service treats ModifiedBefore: honours it (default), ignores it, or refuses it (400). */
	before?: 'honoured' | 'ignored' | 'refused';
}

/** Image rows: one per photo and record; ChunkLimit counts records (parents). */
export const imageFeed: Feed<Rec> = {
	identity: (record) => `${record.id}#${record.photo ?? 0}`,
	modifiedAt: (record) => parseTimestamp(record.modifiedDateTime),
	createdAt: (record) => parseTimestamp(record.createdDateTime),
	isDeleted: (record) => record.isDeleted === true,
	parentOf: (record) => record.id,
};

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
	source: number;
}

export class RefusedError extends Error {
	readonly httpCode = '400';
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
	private sorted: Row[][] | undefined;
	/** Every version ever written, per id, as fingerprints. */
	readonly versions = new Map<string, string[]>();
	/** Every version ever written, per id, whole. */
	readonly history = new Map<string, Rec[]>();
	/** When each version became visible (this clock), per id. */
	readonly visible = new Map<string, number[]>();
	/** The ids written, one entry per version, in the order written. */
	readonly written: string[] = [];
	private created = 0;

	constructor(
		public clock: number,
		readonly shape: FeedShape = {},
	) {}

	tick(ms: number): void {
		this.clock += ms;
	}

	create(lagMs = 0, note = ''): Rec {
		const id = `r${String(++this.created).padStart(4, '0')}`;
		const at = this.clock - lagMs;
		if (id === process.env.SOAK_TRACE) console.log('create', id, iso(at), 'clock', iso(this.clock));
		return this.write(id, at, { id, createdDateTime: iso(at), modifiedDateTime: iso(at), rev: 0, note });
	}

	/** A record stamped with this exact time (e.g. the cursor's millisecond), visible now. */
	createAt(at: number, note = ''): Rec {
		const id = `r${String(++this.created).padStart(4, '0')}`;
		return this.write(id, at, { id, createdDateTime: iso(at), modifiedDateTime: iso(at), rev: 0, note });
	}

	edit(id: string, lagMs = 0, note = ''): Rec {
		const { record, modified } = this.row(id);
		const at = Math.max(modified + 1, this.clock - lagMs);
		if (id === process.env.SOAK_TRACE) console.log('edit', id, iso(at), 'clock', iso(this.clock));
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
	serve(plan: ReadPlan, options: ReadOptions = {}): ReadResult<Rec> & { pages: number } {
		const date = () => Math.floor(this.clock / 1000) * 1000;
		const result: ReadResult<Rec> & { records: Rec[]; pages: number } = {
			records: [],
			complete: true,
			serverTime: date(),
			pages: 0,
		};
		if (plan.before !== undefined && this.shape.before === 'refused')
			throw new RefusedError('ModifiedBefore is not a parameter of this report');
		const before = this.shape.before === 'ignored' ? undefined : plan.before;
		const inside = (row: Row) =>
			(options.exclusive ? row.modified > plan.since : row.modified >= plan.since) &&
			(before === undefined || (options.inclusiveBefore ? row.modified <= before : row.modified < before));
		const end = before === undefined ? Infinity : before;
		const size = Math.min(plan.chunkLimit, options.pageSize ?? Infinity);
		let last: { source: number; modified: number; id: string } | undefined;
		for (;;) {
			const page: Row[] = [];
			let more = false;
			for (let source = last?.source ?? 0; source < this.sourceCount() && !more; source++) {
				const rows = this.ordered(source);
				let index = last && last.source === source ? this.after(rows, last) : this.from(rows, plan.since);
				for (; index < rows.length && rows[index].modified <= end; index++) {
					if (!inside(rows[index])) continue;
					if (page.length === size) {
						more = true;
						break;
					}
					page.push(rows[index]);
				}
			}
			result.records.push(...page.flatMap((row) => this.rowsOf(row.record)));
			result.pages++;
			result.lastServerTime = date();
			result.complete = !more;
			if (!more || (plan.stopAfter !== undefined && result.records.length >= plan.stopAfter)) return result;
			const tail = page[page.length - 1];
			last = { source: tail.source, modified: tail.modified, id: tail.record.id };
			options.betweenPages?.();
		}
	}

	/** The rows a record is served as (one, or one per photo). */
	rowsOf(record: Rec): Rec[] {
		const count = this.shape.rows?.(record.id);
		if (count === undefined) return [structuredClone(record)];
		return Array.from({ length: count }, (_, photo) => ({ ...structuredClone(record), photo }));
	}

	private sourceCount(): number {
		return this.shape.sources ?? 1;
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

	/** Rows of one source in (modification time, id) order: the keyset the pages follow. */
	private ordered(source: number): Row[] {
		if (!this.sorted) {
			this.sorted = Array.from({ length: this.sourceCount() }, () => [] as Row[]);
			for (const row of this.rows.values()) this.sorted[row.source].push(row);
			for (const rows of this.sorted)
				rows.sort((a, b) => a.modified - b.modified || (a.record.id < b.record.id ? -1 : 1));
		}
		return this.sorted[source];
	}

	private row(id: string) {
		const row = this.rows.get(id);
		if (!row) throw new Error(`no record ${id}`);
		return row;
	}

	private write(id: string, modified: number, record: Rec): Rec {
		const source = Number.parseInt(id.slice(1), 10) % this.sourceCount();
		this.rows.set(id, { record, modified, source });
		this.sorted = undefined;
		this.versions.set(id, [...(this.versions.get(id) ?? []), fingerprintOf(record)]);
		this.history.set(id, [...(this.history.get(id) ?? []), record]);
		this.visible.set(id, [...(this.visible.get(id) ?? []), this.clock]);
		this.written.push(id);
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
	let poll = beginPoll<T>({ feed, options }, state);
	while (!poll.done) {
		const plan = planRead(poll, now());
		poll = applyRead(poll, plan, serve(plan), now());
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
