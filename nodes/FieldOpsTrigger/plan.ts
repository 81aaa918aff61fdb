/**
 * What the next read of a poll asks: its ModifiedSince, ModifiedBefore, page size and when it may stop. Reads
 * start at the horizon (the re-read window) until one has handled it. Backlogs: feeds whose pages come in
 * modification order (`ordered`) stop reading at the cap; the others read ModifiedBefore windows sized from the
 * records per millisecond of the last one (rows per parent where ChunkLimit counts parents) to hold about 80 %
 * of what the poll may still emit (learn.ts); a window found too full is dropped and the next one ends below it.
 */
import { rereads, roomOf } from './memory';
import {
	BISECT,
	capOf,
	chunk,
	MAX_CHUNK_LIMIT,
	overlapOf,
	PROBE,
	windowed,
	type Poll,
	type ReadPlan,
} from './state';

/** The next read of a poll that is not `done`. `now` is n8n's clock, only used to guess the service's. */
export function planRead<T>(poll: Poll<T>, now: number): ReadPlan {
	const { state, feed, options } = poll;
	const overlap = overlapOf(options);
	const serviceNow = now + (state.offset ?? 0);
	if (poll.held) {
		// After a whole read: which of its records changed within the re-read window (those are remembered).
		const since = Math.max(state.horizon, poll.held.serverTime - overlap);
		return { since, chunkLimit: MAX_CHUNK_LIMIT, partial: true, recent: true };
	}
	if (state.mode === 'polled' && feed.beforeUnlisted && state.before === false)
		return { since: state.horizon, chunkLimit: MAX_CHUNK_LIMIT, partial: true, whole: true };
	const cap = capOf(options);
	// A polled window stays in `seen` until the next one: it must fit (record times: only recent ones stay).
	const room =
		state.mode === 'polled' ? roomOf(state, Math.min(serviceNow - overlap, state.cursor - 1)) : Infinity;
	const left = Math.max(1, Math.min(cap - poll.emit.length, room));
	// Rows per page: ChunkLimit counts parent records where rows share a parent (images).
	const pages = (rows: number) => chunk(feed.parentOf ? rows / (state.fanout ?? 1) : rows);
	const modified = state.mode === 'modified';
	// Reads start at the horizon (the re-read window) until one has handled it; later reads of the poll go on
	// from the cursor, as nothing turns up late within seconds. Modified mode asks from 1 ms earlier, for an
	// exclusive ModifiedSince.
	const start = poll.covered
		? Math.max(state.horizon, modified ? state.cursor : state.cursor - 1)
		: state.horizon;
	const since = modified ? Math.max(0, start - 1) : start;
	// Records the read returns again: those `seen` holds from there on, and (inclusive ModifiedSince) those of
	// the millisecond before the horizon.
	const again =
		rereads(state, modified ? start - 1 : start) +
		(modified && start === state.horizon ? (state.tail ?? 0) : 0);
	if (!windowed(state, feed)) {
		const all = again + left;
		return { since, chunkLimit: pages(all), stopAfter: all, partial: true };
	}
	const from = state.cursor;
	let before: number | undefined;
	const ceiling = state.ceiling !== undefined && state.ceiling > from ? state.ceiling : undefined;
	// Without a cap (Infinity) a window has no length to size: below a ceiling, or to the present.
	const length = state.span === undefined ? NaN : state.span * left;
	if (!Number.isNaN(length)) {
		before = from + Math.max(1, Math.round(length));
		if (ceiling !== undefined) before = Math.min(before, Math.max(from + 1, ceiling - 1));
		else if (before >= serviceNow) before = undefined;
	} else if (ceiling !== undefined) {
		const share = state.up ? (BISECT - 1) / BISECT : 1 / BISECT;
		before = from + Math.max(1, Math.floor((ceiling - from) * share));
	}
	// Polled, windows end at activation until the cursor passes it: all they hold was last modified before the
	// first read, so never emitted and new; a window reaching into the present could not tell.
	const activated = (state.activatedAt ?? Infinity) - overlap;
	if (state.mode === 'polled' && from < activated && (before ?? Infinity) > activated) before = activated;
	if (before !== undefined && feed.beforeUnlisted && state.before === undefined) {
		// A window before any record: a service that ignores ModifiedBefore answers with records, one that
		// refuses it with an error; either way the trigger reads whole instead.
		return { since: 0, before: 1, chunkLimit: 1, stopAfter: 1, partial: true, probe: true };
	}
	// One millisecond cannot be split: read whole (it may hold more than the cap). A read to the present is never
	// one: the Date's whole seconds make the present uncertain, and a too-full one is searched in windows.
	if (before !== undefined && before - from <= 1)
		return { since, before, chunkLimit: MAX_CHUNK_LIMIT, partial: true, tie: true, target: left };
	// Probing (density unknown) uses a small page; so does a read to the present after one that was caught up,
	// sized to a few times what that one found: a burst then costs a small page, not a full one.
	const usual =
		before === undefined && state.usual !== undefined ? Math.max(4 * state.usual, left / PROBE) : left;
	const size = state.guess ? again + left / PROBE + 1 : again + Math.min(left, usual) + 1;
	return { since, before, chunkLimit: pages(size), stopAfter: Math.ceil(size), partial: false, target: left };
}

/** ModifiedSince and ModifiedBefore of a read, as the API takes them (ISO 8601, UTC). */
export function queryOf(plan: ReadPlan): { ModifiedSince: string; ModifiedBefore?: string } {
	const iso = (time: number) => new Date(time).toISOString();
	return {
		ModifiedSince: iso(plan.since),
		...(plan.before === undefined ? {} : { ModifiedBefore: iso(plan.before) }),
	};
}
