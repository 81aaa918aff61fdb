/**
 * Cursor of the Field Ops Trigger: for one poll of one reporting feed, which reads to make (ModifiedSince,
 * ModifiedBefore, page size), which records to emit (new / changed / deleted, oldest first, at most
 * `maxPerPoll`) and the next state.
 *
 * Pure: no I/O, no clock. The caller loops `planRead` → read the pages → `applyRead` until the poll is `done`,
 * passing n8n's clock (`now`) and the service's (each read's HTTP `Date` header), and stores the state only
 * after the last read, so a failed poll leaves the stored state exactly as it was.
 *
 * Rules:
 * - Everything modified before `cursor` has been handled. Mode 'modified' (the records show their modification
 *   time): the cursor is the newest time handled, never a clock. Mode 'polled' (they do not): the cursor is the
 *   end of the last `ModifiedBefore` window read whole, or the service's time (the Date header of the read's
 *   first answer) for a read to the present; never n8n's clock, so a skew between the two cannot duplicate or
 *   drop records. Without a Date header n8n's clock stands in (then the re-read window must cover the skew).
 * - Late writes: reads start at `horizon`, one re-read window (`overlapMs`) before the cursor, so a record
 *   stamped before it became visible is still caught if it is at most that late; later writes are missed. A
 *   polled window that closed a re-read window before the service's time needs no re-read but its last
 *   millisecond. `seen` holds every version handled at or above the horizon (48-bit hashes of identity and
 *   content), so a re-read emits nothing and a record edited again is emitted again as `changed`.
 * - Boundaries: modified mode sends ModifiedSince 1 ms early and ignores what is older than the horizon; polled
 *   windows overlap by 1 ms and `seen` dedupes it; so neither an exclusive ModifiedSince nor an inclusive
 *   ModifiedBefore can skip or repeat a record.
 * - Backlogs are read once. Feeds whose pages come in modification order (`ordered`) stop reading once they hold
 *   the cap plus what the re-read returns, and the cursor stops at the last record read. The others read
 *   ModifiedBefore windows sized from the records per millisecond of the last one, to hold about 80 % of what
 *   the poll may still emit; several per poll. A window found too full after its first page is dropped unread
 *   and halved (while the density is unknown, e.g. "Everything", that page is an eighth of the cap). A window of
 *   one millisecond cannot shrink: it is read whole and worked through over several polls, as is a window the
 *   cap or `holdBack` cut. Records sharing one millisecond (or, ordered, one time) beyond the cap are read again
 *   on each poll until all are emitted.
 * - Events: a tombstone (`isDeleted`) is `deleted`; a record in `seen` is `changed`. Otherwise, with a created
 *   time, `new` when created at or after the horizon; a record modified before activation (the service's time
 *   at the first read, minus the re-read window) was never emitted, so it is `new` when created at or after the
 *   start. Every record dropped from `seen` was created before the horizon, which only moves on: a record
 *   emitted as `new` is never `new` again. The price: a record never emitted, created before the horizon and
 *   first read after it (edited before the trigger reached it) is `changed`. Without a created time a record
 *   is `new` the first time its identity is seen; `ids` remembers the last IDENTITY_MEMORY identities seen
 *   (32 KB), so a record changed again after more than that many others may be `new` again.
 * - Unselected events advance the cursor like emitted ones and do not count against the cap.
 */

import {
	capOf,
	chunk,
	FILL,
	GROWTH,
	MAX_READS_PER_POLL,
	MIN_LEFT,
	MIN_SAMPLE,
	overlapOf,
	PROBE,
	recall,
	remember,
	rereads,
	SHRINK,
	windowed,
	type CursorOptions,
	type CursorState,
	type Feed,
	type Poll,
	type ReadPlan,
	type ReadResult,
	type Version,
} from './state';
import { classify, latestVersions } from './versions';

export * from './state';
export { newestForTest } from './versions';
export { fingerprintOf, parseTimestamp } from './hashing';

export function beginPoll<T>(state: CursorState): Poll<T> {
	return { state, emit: [], reads: 0, done: false, caughtUp: false };
}

/** The next read of a poll that is not `done`. `now` is n8n's clock, only used to guess the service's. */
export function planRead<T>(poll: Poll<T>, feed: Feed<T>, options: CursorOptions, now: number): ReadPlan {
	const { state } = poll;
	const cap = capOf(options);
	const left = cap - poll.emit.length;
	// Records the read returns again: what `seen` holds above the horizon; a partial read counts all of it.
	const all = left + rereads(state, true);
	if (!windowed(state, feed)) {
		return { since: Math.max(0, state.horizon - 1), chunkLimit: chunk(all), stopAfter: all, partial: true };
	}
	const since = state.mode === 'modified' ? Math.max(0, state.horizon - 1) : state.horizon;
	const serviceNow = now + (state.offset ?? 0);
	const from = state.cursor;
	let before: number | undefined;
	if (state.ceiling !== undefined && state.ceiling > from) {
		before = from + Math.max(1, Math.floor((state.ceiling - from) / 2));
	} else if (state.span !== undefined) {
		const share = state.guess || !Number.isFinite(cap) ? 1 : left / cap;
		before = from + Math.max(1, Math.round(state.span * share));
		if (before >= serviceNow) before = undefined;
	}
	// Polled, windows end at activation until the cursor passes it: all they hold was last modified before the
	// first read, so never emitted and new; a window reaching into the present could not tell.
	const activated = (state.activatedAt ?? Infinity) - overlapOf(options);
	if (state.mode === 'polled' && from < activated && (before ?? Infinity) > activated) before = activated;
	if ((before ?? serviceNow) - from <= 1) {
		return { since, before, chunkLimit: chunk(all + 1), stopAfter: all + 1, partial: true };
	}
	const again = rereads(state, false);
	const size = state.guess ? chunk(again + left / PROBE + 1) : chunk(again + left + 1);
	return {
		since,
		before,
		chunkLimit: size,
		stopAfter: state.guess ? size : again + left + 1,
		partial: false,
	};
}

/** Decides one read: its records, in the order received. */
export function applyRead<T>(
	poll: Poll<T>,
	plan: ReadPlan,
	read: ReadResult<T>,
	feed: Feed<T>,
	options: CursorOptions,
	now: number,
): Poll<T> {
	const { state } = poll;
	const overlap = overlapOf(options);
	const cap = capOf(options);
	const polled = state.mode === 'polled';
	const inWindows = windowed(state, feed);
	const reads = poll.reads + 1;
	const serviceTime = read.serverTime ?? now;
	const next: CursorState = { ...state, activatedAt: state.activatedAt ?? read.serverTime ?? state.floor };
	if (read.serverTime !== undefined) next.offset = read.serverTime - now;

	if (inWindows && !read.complete && !plan.partial) {
		// Too many for one poll: dropped unread, and the next window goes half way to this one's end.
		next.ceiling = Math.max(plan.before ?? serviceTime, state.cursor + 1);
		next.guess = true;
		delete next.span;
		return { ...poll, state: next, reads, done: reads >= MAX_READS_PER_POLL, caughtUp: false };
	}

	// A polled version is stamped with the latest time it can have: its window's end, or the last answer's.
	const latest = Math.min((plan.before ?? Infinity) - 1, (read.lastServerTime ?? serviceTime) + 999);
	const versions = latestVersions(read.records, feed, polled ? latest : state.cursor);
	const memory = recall(state);
	const pending = versions.filter((version) => {
		const known = memory.seen.get(version.id);
		if (known?.fp !== version.fp) return polled || version.at >= state.horizon;
		// Read again: a polled version is kept while reads may still return it (an inclusive ModifiedBefore
		// returns it one window later than its stamp says).
		if (polled) known.at = Math.max(known.at, version.at);
		return false;
	});
	const activated = (next.activatedAt as number) - overlap;
	const windowBeforeActivation = plan.before !== undefined && plan.before <= activated;
	const selected = new Set(options.events);
	const emit = [...poll.emit];
	let heldBackAt: number | undefined;
	let waiting = false;
	let handled = 0;
	for (const version of pending) {
		const event = classify(
			version,
			feed,
			memory,
			state,
			polled ? windowBeforeActivation : version.at < activated,
		);
		if (selected.has(event)) {
			waiting = emit.length < cap && feed.holdBack?.(version.record) === true;
			if (emit.length >= cap || waiting) {
				heldBackAt = version.at;
				break;
			}
			emit.push({ event, record: version.record });
		}
		handled++;
		memory.seen.set(version.id, { fp: version.fp, at: version.at });
		if (version.created === undefined) {
			memory.ids.delete(version.id);
			memory.ids.add(version.id);
		}
	}

	const newest = (list: Array<Version<T>>) =>
		list.reduce((time, version) => Math.max(time, version.at), -Infinity);
	const all = heldBackAt === undefined;
	let cursor = state.cursor;
	let caughtUp = false;
	if (!inWindows) {
		// In order: nothing older than the last record read is still unread.
		cursor = Math.max(cursor, all ? newest(read.complete ? pending : versions) : (heldBackAt as number));
		caughtUp = read.complete && all;
	} else if (read.complete && all) {
		caughtUp = plan.before === undefined || plan.before > serviceTime;
		if (polled) cursor = Math.max(cursor, Math.min(plan.before ?? Infinity, serviceTime));
		else cursor = Math.max(cursor, caughtUp ? newest(pending) : (plan.before as number));
	} else if (!polled && read.complete) {
		cursor = Math.max(cursor, heldBackAt as number);
	}
	// Otherwise (polled, cut by the cap or unread pages) the window is read again and `seen` dedupes it.

	if (inWindows) {
		const length = (plan.before === undefined ? Math.max(serviceTime, cursor) : plan.before) - state.cursor;
		if (caughtUp) {
			delete next.span;
			delete next.guess;
			delete next.ceiling;
		} else if ((read.complete && all) || (!all && !waiting)) {
			// Sized from this window's records per millisecond, to hold FILL of a poll's cap. A window with
			// records that fit ends the search below a ceiling; an empty one only narrows it.
			if (pending.length > 0) delete next.ceiling;
			if (pending.length >= Math.min(MIN_SAMPLE, (cap * FILL) / PROBE) || !all) {
				const span = (length * FILL * cap) / Math.max(1, pending.length);
				next.span = Math.min(Math.max(span, length / SHRINK), length * GROWTH);
				delete next.guess;
			} else {
				next.span = Math.max(1, length) * GROWTH;
				next.guess = true;
			}
		}
	}

	next.cursor = cursor;
	next.horizon = Math.max(
		state.horizon,
		polled ? Math.min(cursor - 1, serviceTime - overlap) : cursor - overlap,
		state.floor,
	);
	Object.assign(next, remember(memory, next.horizon));
	if (next.ids === undefined) delete next.ids;

	const progressed = cursor > state.cursor || handled > 0;
	let done = reads >= MAX_READS_PER_POLL || caughtUp || waiting || emit.length >= cap || !progressed;
	if (inWindows && emit.length > poll.emit.length && cap - emit.length < cap * MIN_LEFT) done = true;
	return { state: next, emit, reads, done, caughtUp };
}

/** ModifiedSince and ModifiedBefore of a read, as the API takes them (ISO 8601, UTC). */
export function queryOf(plan: ReadPlan): { ModifiedSince: string; ModifiedBefore?: string } {
	const iso = (time: number) => new Date(time).toISOString();
	return {
		ModifiedSince: iso(plan.since),
		...(plan.before === undefined ? {} : { ModifiedBefore: iso(plan.before) }),
	};
}
