/**
 * An in-memory reporting feed for the cursor tests: records with a server-side modification time, keyset
 * pagination over the live data (so an edit while pages are read moves a record to a later page, as the API
 * does), inclusive or exclusive `ModifiedSince`, late writes (stamped before they become visible) and
 * tombstones. Every version ever written is kept as ground truth.
 */
import { fingerprintOf, parseTimestamp, type Feed } from '../../nodes/FieldOpsTrigger/cursor';

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
	createdAt: (record) => parseTimestamp(record.createdDateTime),
	isDeleted: (record) => record.isDeleted === true,
};

/** The same records read as if they carried no modification time (fallback mode). */
export const untimedFeed: Feed<Rec> = {
	identity: (record) => record.id,
	createdAt: (record) => parseTimestamp(record.createdDateTime),
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
	exclusive?: boolean;
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
		const since = Date.parse(modifiedSince);
		const pageSize = options.pageSize ?? 1000;
		const received: Rec[] = [];
		let last: { modified: number; id: string } | undefined;
		for (;;) {
			const page: Row[] = [];
			for (const row of this.ordered()) {
				if (page.length === pageSize) break;
				if (options.exclusive ? row.modified <= since : row.modified < since) continue;
				if (last && (row.modified < last.modified || (row.modified === last.modified && row.record.id <= last.id))) {
					continue;
				}
				page.push(row);
			}
			received.push(...page.map((row) => structuredClone(row.record)));
			if (page.length < pageSize) return received;
			last = { modified: page[page.length - 1].modified, id: page[page.length - 1].record.id };
			options.betweenPages?.();
		}
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
