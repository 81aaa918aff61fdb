import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from '../transport/errors';
import type { FieldOpsContext } from '../transport/transport';
import type { Column } from './columns';
import { recordKey, type ReportFeed } from './feeds';
import { readReportPages, type PageInfo, type ReadOptions, type ReportPage } from './pages';

/**
 * A period read in parallel time slices (docs/assumptions.md R19). Continuation tokens make one chain of pages
 * strictly sequential, so against a distant service a long period waits on one round trip per page; cut into
 * time slices, each with its own chain, a few are read at once.
 *
 * - The first request is the sequential read's first page. A period that fits in it costs that one request.
 * - Otherwise slices follow, each `[edge − 1 ms, next edge]`: neighbours overlap by a millisecond, so a record on
 *   an edge is read whether the service counts ToDateTime in or not (R4) and FromDateTime in or not. A record
 *   that a slice and the first page of the slice after it both hold is left out of the first: it comes with the
 *   second, where a sequential read has it. Slice 0 is the first page's own chain (the whole window): it is cut
 *   at its first record the next slice with records holds, and asks for no page before its last one is judged.
 * - Slices are written in their order, each in the service's order: for a full-mode read ordered by date (what
 *   the feed's `fullModeDate` says), the order of a sequential read.
 * - A slice's width is learnt (R20): the first page's records per millisecond (over the span of its dates, a day
 *   counting whole), then those of the latest slice read, each slice aimed at a little less than one page, at
 *   most 4 times wider or narrower than the one before (4 times wider after an empty one: a gap or the end of the
 *   records is crossed in a few requests). Edges fall on half seconds, where records stamped with whole seconds,
 *   minutes or days never are.
 * - Parallel Requests bounds the requests in flight (R21); a 429 or a Retry-After halves it for the rest of the read
 *   (the transport still retries that request). Pages read ahead of the one being written are bounded too.
 * - A failing slice fails the read with its window named; nothing after it is written.
 */

/** Parallel Requests when the option is not set (see the option's hint). */
export const DEFAULT_PARALLEL_REQUESTS = 4;
export const MAX_PARALLEL_REQUESTS = 16;
/** A slice aims at this share of a page: mostly one request, rarely a second short one. */
const SLICE_SHARE_OF_PAGE = 0.8;
const MIN_SLICE_MS = 1000;
const OVERLAP_MS = 1;

export interface SliceOptions extends ReadOptions {
	/** The window the query sends (FromDateTime, ToDateTime), in epoch milliseconds. */
	from: number;
	to: number;
	/** Requests in flight at most (2 or more; 1 is a sequential read). */
	parallel: number;
	/** The record's full-mode date, or near it, in epoch milliseconds: sizes the first slices. */
	dateOf: (record: IDataObject) => number | undefined;
	/** The time one date value stands for: a day where the date is a day, 0 where it is an instant. */
	dateStep: number;
	/** Records wanted (a Limit and one more): no slice is started for records beyond them. */
	wanted?: number;
}

interface Slice {
	index: number;
	/** FromDateTime and ToDateTime sent (slice 0 sends the query's own). */
	from: number;
	to: number;
	/** Slice 0: the first page's chain over the whole window, cut where the next slice begins. */
	open: boolean;
	/** Pages read and not written yet. */
	pages: Array<{ page: ReportPage; info: PageInfo }>;
	/** The identities of its first page's records (once it is read), and whether more pages followed. */
	firstKeys?: Set<string>;
	firstCount: number;
	more: boolean;
	records: number;
	/** Records of it left out because the next slice has them. */
	handedOn: number;
	ended: boolean;
	/** Read no further: cut, or the read is over. */
	cut: boolean;
}

const iso = (ms: number) => new Date(ms).toISOString();
const HAS_ZONE = /(?:[zZ]|[+-]\d\d:?\d\d)$/;

/**
 * Reads a record's full-mode date from the feed's column, in epoch milliseconds: a day is its start in UTC, a
 * time without a zone is UTC (R18). Only sizes slices: a wrong guess costs requests, never records.
 */
export function fullModeDateOf(column: Column): (record: IDataObject) => number | undefined {
	return (record) => {
		for (const field of column.from) {
			const value = record[field];
			if (typeof value !== 'string' || value === '') continue;
			const ms = Date.parse(value.length <= 10 || HAS_ZONE.test(value) ? value : `${value}Z`);
			return Number.isNaN(ms) ? undefined : ms;
		}
		return undefined;
	};
}

/** The time one value of the column stands for (SliceOptions.dateStep). */
export const dateStepOf = (column: Column) => (column.kind === 'date' ? 86_400_000 : 0);

/** An edge on a half second (never where whole seconds, minutes or days put many records at once). */
const edgeAt = (ms: number) => Math.floor(ms / 1000) * 1000 + 500;

class Stopped extends Error {}

class SlicedRead {
	private readonly slices: Slice[] = [];
	private limit: number;
	private active = 0;
	/** Requests waiting for a slot. */
	private queued = 0;
	private held = 0;
	private requests = 0;
	/** The slice being written. */
	private writing = 0;
	/** Whether slices follow the first page, and where the next one starts. */
	private sliced = false;
	private cursor: number;
	/**
	 * Records per millisecond where the slices have got to: the first page's, then the latest slice's read (by
	 * time, not by when it was read). The width of the slice started last.
	 */
	private rate: { perMs: number; index: number } | undefined;
	private lastWidth = 0;
	private stopped = false;
	private failure: unknown;
	private waiters: Array<() => void> = [];

	constructor(
		private readonly context: FieldOpsContext,
		private readonly feed: ReportFeed,
		private readonly options: SliceOptions,
	) {
		this.limit = Math.max(1, Math.floor(options.parallel));
		this.cursor = options.to;
	}

	async run(): Promise<number> {
		this.start(this.add(this.options.from, this.options.to, true));
		try {
			await this.write();
		} finally {
			this.stopped = true;
			this.notify();
		}
		return this.requests;
	}

	private add(from: number, to: number, open = false): Slice {
		const slice: Slice = {
			index: this.slices.length,
			from,
			to,
			open,
			pages: [],
			firstCount: 0,
			more: false,
			records: 0,
			handedOn: 0,
			ended: false,
			cut: false,
		};
		this.slices.push(slice);
		return slice;
	}

	private start(slice: Slice): void {
		const { query } = this.options;
		readReportPages(this.context, this.feed, {
			...this.options,
			query: slice.open ? query : { ...query, FromDateTime: iso(slice.from), ToDateTime: iso(slice.to) },
			label: slice.open
				? undefined
				: `records dated ${iso(slice.from)} – ${iso(slice.to)} (one of the time slices read in parallel)`,
			around: async (send) => await this.slot(slice, send),
			throttled: () => this.halve(),
			enough: () => slice.cut || this.stopped,
			onPage: (page, info) => this.received(slice, page, info),
		}).then(
			() => {
				slice.ended = true;
				if (!slice.open) this.learn(slice.records, slice.to - slice.from, slice.index);
				this.progress();
			},
			(error: unknown) => {
				slice.ended = true;
				// A request given up because the read is over, or slice 0 was cut, is no failure.
				if (this.stopped || slice.cut) return this.progress();
				this.failure ??= error;
				this.stopped = true;
				this.notify();
			},
		);
	}

	private learn(records: number, ms: number, index: number): void {
		if (this.rate && this.rate.index > index) return;
		this.rate = { perMs: records / Math.max(ms, 1), index };
	}

	/** The service asked to slow down: half as many requests at once from now on. */
	private halve(): void {
		this.limit = Math.max(1, Math.floor(this.limit / 2));
	}

	/** Budget of pages in flight and read ahead of the writing, beyond the slices the writing waits for. */
	private get budget(): number {
		return this.limit + 1;
	}

	private mayStart(slice: Slice): boolean {
		if (this.active >= this.limit) return false;
		const awaited =
			slice.index === this.writing || (slice.index === this.writing + 1 && slice.firstKeys === undefined);
		return awaited || this.held + this.active < this.budget;
	}

	/** One request of a slice, when a slot is free (Parallel Requests) and the pages read ahead allow it. */
	private async slot<T>(slice: Slice, send: () => Promise<T>): Promise<T> {
		this.queued++;
		try {
			while (!this.mayStart(slice)) {
				if (this.stopped || slice.cut) throw new Stopped();
				await this.changed();
			}
			if (this.stopped || slice.cut) throw new Stopped();
		} finally {
			this.queued--;
		}
		this.active++;
		this.requests++;
		try {
			return await send();
		} finally {
			this.active--;
			this.progress();
		}
	}

	private async received(slice: Slice, page: ReportPage, info: PageInfo): Promise<void> {
		if (slice.cut || this.stopped) return;
		if (slice.firstKeys === undefined) {
			slice.firstKeys = new Set();
			for (const record of page.data) {
				const key = recordKey(this.feed, record);
				if (key !== undefined) slice.firstKeys.add(key);
			}
			slice.firstCount = page.data.length;
			slice.more = Boolean(page.continuationToken);
			// A later slice holding the period's first record: the service did not narrow it to the slice's
			// window (or that page lies within a second). Nothing is written yet: read it in one sequence.
			const held = this.slices[0].pages[0];
			const first = held?.info.number === 1 ? held.page.data[0] : undefined;
			if (!slice.open && first && slice.firstKeys.has(recordKey(this.feed, first) as string))
				return this.unslice();
		}
		slice.records += page.data.length;
		slice.pages.push({ page, info });
		this.held++;
		if (slice.open && info.number === 1 && page.continuationToken) this.plan(page);
		this.progress();
		// Slice 0 asks for its next page only once this one is taken: cut where the next slice begins, or read on.
		while (slice.open && slice.pages.length > 0 && !slice.cut && !this.stopped) await this.changed();
	}

	/**
	 * After a first page with more to come: whether to slice, and where slice 1 starts. It starts at the first
	 * page's last date (rounded down to a half second), so that it overlaps the page's end and slice 0 needs no
	 * second page; without readable dates, a share of the window.
	 */
	private plan(page: ReportPage): void {
		// Read in one sequence: a first page that is not full (nothing to learn a density from), one that holds
		// what a Limit wants, or records without an identity (slices are joined by it).
		const { wanted, chunkLimit } = this.options;
		if (this.limit < 2 || page.data.length < chunkLimit) return;
		if (wanted !== undefined && page.data.length >= wanted) return;
		if (page.data.some((record) => recordKey(this.feed, record) === undefined)) return;
		const { from, to } = this.options;
		let first = Infinity;
		let last = -Infinity;
		for (const record of page.data) {
			const date = this.options.dateOf(record);
			if (date === undefined) continue;
			first = Math.min(first, date);
			last = Math.max(last, date);
		}
		const start = last - from > MIN_SLICE_MS && last < to ? edgeAt(last - 1) : undefined;
		// The page's records over the time they span (the window may begin long before its first record); a day
		// stands for all of it, so a page of one day's records spans that day, not nothing (nor the whole window).
		const span = last + this.options.dateStep - Math.max(from, first);
		if (start !== undefined) this.learn(page.data.length, Math.max(span, MIN_SLICE_MS), 0);
		this.cursor = start ?? from + (to - from) / (4 * this.limit);
		if (to - this.cursor < MIN_SLICE_MS) return;
		this.sliced = true;
	}

	/** Back to one sequence: slice 0 reads on alone, the other slices stop and their pages are dropped. */
	private unslice(): void {
		this.sliced = false;
		for (const slice of this.slices.splice(1)) {
			slice.cut = true;
			this.held -= slice.pages.length;
			slice.pages.length = 0;
		}
		this.progress();
	}

	/** Starts the next slices while requests and the read-ahead allow (the one the writing waits for always). */
	private spawn(): void {
		const { to } = this.options;
		while (this.sliced && !this.stopped && this.cursor < to) {
			const needed = this.slices.length === this.writing + 1;
			const free = this.active + this.queued < this.limit && this.held + this.active < this.budget;
			if (!needed && (!free || this.enoughPlanned())) return;
			const start = this.cursor;
			const target = SLICE_SHARE_OF_PAGE * this.options.chunkLimit;
			// Aimed at `target` records at the latest rate; at most 4 times wider or narrower than the last slice,
			// 4 times wider after an empty one (the end of the records, or a gap, is crossed in a few requests).
			let width = this.rate?.perMs ? target / this.rate.perMs : (to - start) / (2 * this.limit);
			if (this.lastWidth > 0)
				width =
					this.rate?.perMs === 0
						? 4 * this.lastWidth
						: Math.min(Math.max(width, this.lastWidth / 4), 4 * this.lastWidth);
			width = Math.max(width, MIN_SLICE_MS);
			this.lastWidth = width;
			const end = start + width * 1.5 >= to ? to : edgeAt(start + width);
			this.cursor = end;
			this.start(this.add(start - OVERLAP_MS, end));
		}
	}

	/** With a Limit: whether the slices started already hold the records wanted. */
	private enoughPlanned(): boolean {
		const { wanted, chunkLimit } = this.options;
		if (wanted === undefined) return false;
		const reading = this.slices.filter((slice) => !slice.ended).length;
		const read = this.slices.reduce((sum, slice) => sum + slice.records, 0);
		return read + reading * SLICE_SHARE_OF_PAGE * chunkLimit >= wanted;
	}

	/**
	 * Which records of slice `index` the slices after it hold: the first page of the next slice with records
	 * (for slice 0, read with the window's end), or of the next slice (the others end where it begins). Null
	 * while that is not known yet; undefined when no later slice holds any of them.
	 */
	private heldAfter(index: number): Slice | undefined | null {
		const slice = this.slices[index];
		if (!this.sliced && index === this.slices.length - 1) return undefined;
		for (let next = index + 1; ; next++) {
			const later = this.slices[next];
			if (!later) return this.sliced && this.cursor < this.options.to && !this.stopped ? null : undefined;
			if (later.firstKeys === undefined) return null;
			if (later.firstCount > 0 || !slice.open) return later.firstCount > 0 ? later : undefined;
		}
	}

	/** Writes the slices in order, each page once the next slice's first page says what to leave out. */
	private async write(): Promise<void> {
		const { onPage, enough } = this.options;
		let number = 0;
		for (let index = 0; ; index++) {
			while (index >= this.slices.length) {
				this.check();
				if (!this.sliced || this.cursor >= this.options.to) return;
				await this.changed();
			}
			this.writing = index;
			this.progress();
			const slice = this.slices[index];
			for (;;) {
				this.check();
				if (slice.pages.length === 0) {
					if (slice.ended) break;
					await this.changed();
					continue;
				}
				const next = this.heldAfter(index);
				if (next === null) {
					await this.changed();
					continue;
				}
				const { page, info } = slice.pages.shift() as { page: ReportPage; info: PageInfo };
				this.held--;
				const data = next ? this.leaveOut(slice, page.data, next) : page.data;
				if (slice.cut) {
					this.held -= slice.pages.length;
					slice.pages.length = 0;
				}
				// Every record of the next slice's first page was here too, and it has more: the overlap may go on.
				if (next && !slice.open && slice.handedOn >= next.firstCount && next.more)
					throw new FieldOpsFailure(
						`${this.feed.name}: more records share the edge at ${iso(next.from + OVERLAP_MS)} than one page holds, so the time slices cannot be joined exactly`,
						'Set Options → Parallel Requests to 1 to read the period in one sequence, or raise the Page Size.',
					);
				this.notify();
				await onPage(data === page.data ? page : { ...page, data }, { ...info, number: ++number });
				if (enough?.()) return;
			}
			// Written: what the next slice's first page held is no longer asked (a long read keeps no identities).
			this.slices[index + 1]?.firstKeys?.clear();
		}
	}

	/** The records of a page that the next slice does not hold (slice 0: those before the first it holds). */
	private leaveOut(slice: Slice, data: IDataObject[], next: Slice): IDataObject[] {
		const keys = next.firstKeys as Set<string>;
		if (slice.open) {
			const cut = data.findIndex((record) => keys.has(recordKey(this.feed, record) as string));
			if (cut < 0) return data;
			slice.cut = true;
			return data.slice(0, cut);
		}
		const kept = data.filter((record) => !keys.has(recordKey(this.feed, record) as string));
		slice.handedOn += data.length - kept.length;
		return kept.length === data.length ? data : kept;
	}

	private check(): void {
		if (this.failure !== undefined) throw this.failure;
	}

	private changed(): Promise<void> {
		return new Promise((resolve) => this.waiters.push(resolve));
	}

	/** Something changed: start what may start, wake whoever waits. */
	private progress(): void {
		this.spawn();
		this.notify();
	}

	private notify(): void {
		const waiters = this.waiters;
		this.waiters = [];
		for (const wake of waiters) wake();
	}
}

/**
 * Reads a full-mode window (`from`–`to`) in parallel time slices, handing `onPage` the pages in the order a
 * sequential read gives, each record once. Answers the number of requests sent.
 */
export async function readInSlices(
	context: FieldOpsContext,
	feed: ReportFeed,
	options: SliceOptions,
): Promise<number> {
	return await new SlicedRead(context, feed, options).run();
}
