/**
 * Cursor of the Field Ops Trigger: for one poll of one reporting feed, which reads to make (plan.ts), which
 * records to emit (new / changed / deleted, oldest first, about `maxPerPoll`) and the next state.
 *
 * Pure: no I/O, no clock. The caller loops `planRead` → read the pages → `applyRead` until the poll is `done`,
 * passing n8n's clock (`now`) and the service's (each read's HTTP `Date` header, as `checkClock` takes it),
 * and stores the state only after the last read, so a failed poll leaves the stored state exactly as it was.
 *
 * Rules:
 * - Everything modified before `cursor` has been handled. Mode 'modified' (the records show their modification
 *   time): the cursor follows the records' times. Mode 'polled' (they do not): the end of the last
 *   `ModifiedBefore` window read whole, or the service's time for a read to the present.
 * - Late writes: a record is assumed visible at most one re-read window (`overlapMs`) after the time it is
 *   stamped with. Reads start at `horizon`: the cursor, or one window before the service's time where the cursor
 *   is that recent. Only there are records read twice, and `seen` (hashes of identity and content of every
 *   version handled at or above the horizon) tells them apart. A backlog older than that is read once.
 * - `seen` stays under SEEN_BYTES: recent records that would not fit wait (not caught up) until they are older
 *   than the re-read window and need no memory; a polled window (its versions stay until the next one) is sized
 *   to fit. A millisecond is never split where a read holds all of it: its records go out together, beyond the
 *   cap if need be, so each poll moves past at least a page's worth whatever the ties.
 * - Boundaries: modified mode sends ModifiedSince 1 ms early and ignores what is older than the horizon; polled
 *   windows overlap by 1 ms and `seen` dedupes it; so neither an exclusive ModifiedSince nor an inclusive
 *   ModifiedBefore can skip or repeat a record.
 * - Backlogs: feeds whose pages come in modification order (`ordered`) stop reading at the cap; the others read
 *   ModifiedBefore windows sized from the records per millisecond of the last one (rows per parent where
 *   ChunkLimit counts parents), to hold about 80 % of what the poll may still emit (windows.ts). A window found
 *   too full is dropped and the next one ends below it. Where the spec lists no ModifiedBefore the service is asked
 *   once whether it honours it; if not, each poll reads everything since the horizon (one execution, whatever
 *   the cap) and then what changed within the re-read window, which alone stays in `seen`.
 * - Events: see labels.ts. Unselected events advance the cursor like emitted ones and do not count against the
 *   cap.
 */
import { learn } from './clock';
import { classify } from './labels';
import { recall, remember, withPassed } from './memory';
import { roomOf } from './plan';
import {
	capOf,
	MAX_READS_PER_POLL,
	MIN_LEFT,
	overlapOf,
	windowed,
	type CursorOptions,
	type CursorState,
	type Feed,
	type Poll,
	type ReadPlan,
	type ReadResult,
	type Version,
} from './state';
import { latestVersions } from './versions';
import { resize, timesOf, tooFull } from './windows';

export * from './state';
export { readState } from './stored';
export { identityCapacity } from './memory';
export { checkClock } from './clock';
export { planRead, queryOf } from './plan';
export { newestForTest } from './versions';
export { fingerprintOf, parseTimestamp } from './hashing';

export function beginPoll<T>(state: CursorState): Poll<T> {
	return { state, emit: [], reads: 0, done: false, caughtUp: false, reread: 0 };
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
	learn(next, read, feed);
	const spent = reads >= MAX_READS_PER_POLL;
	const stopped = { ...poll, state: next, reads, done: spent, caughtUp: false };
	if (plan.probe) {
		next.before = !read.refused && read.records.length === 0;
		return stopped;
	}

	const memory = recall(state);
	const freshFrom = serviceTime - overlap;
	const room = roomOf(state, polled ? Math.min(freshFrom, state.cursor - 1) : freshFrom);
	// The Date has whole seconds: the read may have seen records written up to the end of its last answer's
	// second. A polled version is stamped with the latest time it can have: its window's end, or that.
	const readUntil = (read.lastServerTime ?? serviceTime) + 999;
	const latest = Math.min((plan.before ?? Infinity) - 1, readUntil);
	let versions: Array<Version<T>>;
	let readAt = serviceTime;
	let recentWait = false;
	if (plan.recent && poll.held) {
		// What changed within the re-read window keeps its place in `seen`; the rest of the whole read is older.
		// Recent ones too many to remember wait until they are older than the window (read again then).
		const recent = latestVersions(read.records, feed, latest);
		const kept = new Set(recent.map((version) => version.id));
		const older = latestVersions(poll.held.records, feed, poll.held.serverTime - overlap - 1);
		recentWait = recent.length > room;
		versions = [...older.filter((version) => !kept.has(version.id)), ...(recentWait ? [] : recent)];
		readAt = poll.held.serverTime;
	} else {
		versions = latestVersions(read.records, feed, polled ? latest : state.cursor);
	}
	let reread = 0;
	const pending = versions.filter((version) => {
		const known = memory.seen.get(version.id);
		if (known?.fp !== version.fp) return polled || version.at >= state.horizon;
		reread++;
		// Read again: a polled version is kept while reads may still return it (an inclusive ModifiedBefore
		// returns it one window later than its stamp says).
		if (polled) known.at = Math.max(known.at, version.at);
		return false;
	});
	if (plan.whole && pending.length > Math.min(cap, room)) {
		// Too many to remember: which of them are recent is read next.
		return { ...stopped, done: false, held: { records: read.records, serverTime: serviceTime } };
	}
	// More than the poll may emit: dropped unread (with record times, what was read sizes the next window).
	if (inWindows && !plan.partial && !read.complete)
		return { ...stopped, state: tooFull(next, state, latest + 1, plan.target, timesOf(versions, polled)) };
	// Every version of a polled window stays in `seen` until the next window: it must fit.
	if (polled && !plan.tie && !plan.recent && pending.length > room)
		return { ...stopped, state: tooFull(next, state, latest + 1, plan.target) };

	const selected = new Set(options.events);
	const emit = [...poll.emit];
	// Runs of one millisecond go out whole (a polled 1 ms window is one run). An ordered read cut by its page
	// may go on with its last millisecond in the next page: that one the cap may split, and `seen` keeps it.
	const runs: Array<Array<Version<T>>> = [];
	for (const version of pending) {
		const run = runs[runs.length - 1];
		if (run && (polled ? plan.tie : run[0].at === version.at)) run.push(version);
		else runs.push([version]);
	}
	if (!inWindows && !read.complete && runs.length > 0)
		runs.push(...(runs.pop() as Array<Version<T>>).map((v) => [v]));
	let stopAt: number | undefined;
	let waiting = false;
	let handled = 0;
	let handledUntil = -Infinity;
	let space = room;
	const times = new Set(state.seen.map(([at]) => at));
	for (let r = 0; r < runs.length; r++) {
		const run = runs[r];
		const events = run.map((version) => classify(version, feed, memory, state, version.at));
		const chosen = run.filter((_, i) => selected.has(events[i]));
		const fresh = polled ? 0 : run.filter((version) => version.at >= freshFrom).length;
		const cost = fresh === 0 ? 0 : fresh + (times.has(run[0].at) ? 0 : 2);
		waiting = chosen.some((version) => feed.holdBack?.(version.record) === true) || cost > space;
		// The cap never splits a time; a whole read's backlog cannot be split at all (no ModifiedBefore).
		const full = !plan.recent && chosen.length > 0 && emit.length > 0 && emit.length + chosen.length > cap;
		if (waiting || full) {
			stopAt = run[0].at;
			break;
		}
		space -= cost;
		times.add(run[0].at);
		run.forEach((version, i) => {
			if (selected.has(events[i])) emit.push({ event: events[i], record: version.record });
			memory.seen.set(version.id, { fp: version.fp, at: version.at });
			memory.ids.delete(version.id);
			memory.ids.set(version.id, readAt);
		});
		handled += run.length;
		handledUntil = Math.max(handledUntil, run[0].at);
	}

	const all = stopAt === undefined;
	const newest = (list: Array<Version<T>>) =>
		list.reduce((time, version) => Math.max(time, version.at), state.cursor - 1);
	const until = plan.recent || plan.whole ? undefined : plan.before;
	let cursor = state.cursor;
	let caughtUp = false;
	if (!inWindows) {
		// In order: nothing older than the last record read is still unread; its time may go on.
		if (!all) cursor = Math.max(cursor, stopAt as number);
		else cursor = Math.max(cursor, read.complete ? newest(pending) + 1 : newest(versions));
		caughtUp = read.complete && all;
	} else if (read.complete && all) {
		caughtUp = until === undefined || until > readUntil;
		// Polled: a window's end, even within the Date's second (a record written there after the read is like
		// a late write: the horizon, never past the Date, has the next poll read it); a read to the present: its Date.
		if (polled) cursor = Math.max(cursor, until === undefined ? readAt : Math.min(until, readUntil + 1));
		else cursor = Math.max(cursor, until ?? newest(pending) + 1);
	} else if (!polled && read.complete) {
		cursor = Math.max(cursor, stopAt as number);
	}
	// Otherwise (polled, cut by the cap) the window is read again and `seen` dedupes it.
	if (recentWait) {
		cursor = Math.max(state.cursor, plan.since);
		caughtUp = false;
		waiting = true;
	}
	if (inWindows && !plan.recent && !plan.whole) {
		const length = (until ?? Math.max(serviceTime, cursor)) - state.cursor;
		const times = polled ? undefined : pending.map((version) => version.at - state.cursor);
		const found = pending.length;
		resize(next, { length, found, caughtUp, all, waiting, tie: plan.tie, times }, plan.target ?? cap);
	}

	next.cursor = cursor;
	// Never past a record left for later (a late one may be older than the cursor; a polled one's time is only
	// known to be within its read).
	const left = all ? Infinity : polled ? plan.since : (stopAt as number);
	next.horizon = Math.max(
		state.horizon,
		Math.min(polled ? cursor - 1 : cursor, serviceTime - overlap, left),
		state.floor,
	);
	// When it read past them: from the first answer's Date to the end of the last one's second.
	const lastAnswer = plan.recent ? readAt : (read.lastServerTime ?? serviceTime);
	next.passed = withPassed(state, Math.max(cursor, handledUntil + 1), readAt, lastAnswer + 999);
	if (!polled) {
		let tail = 0;
		for (const { at } of memory.seen.values()) if (at === next.horizon - 1) tail++;
		next.tail = next.horizon === state.horizon ? state.tail : tail || undefined;
	}
	Object.assign(next, remember(memory, next.horizon, state.idsFrom));
	for (const key of ['passed', 'ids', 'idsFrom', 'span', 'guess', 'ceiling', 'up', 'tail', 'usual'] as const)
		if (next[key] === undefined) delete next[key];

	const progressed = cursor > state.cursor || handled > 0;
	let done =
		spent || caughtUp || waiting || emit.length >= cap || !progressed || !!plan.recent || !!plan.whole;
	if (emit.length > poll.emit.length && cap - emit.length < cap * MIN_LEFT) done = true;
	// The next window would be one millisecond holding more than is left: it would be read only to wait.
	if (emit.length > 0 && inWindows && (next.span ?? Infinity) * (cap - emit.length) < 1) done = true;
	const covered = poll.covered || (plan.since <= state.horizon && (stopAt ?? Infinity) >= state.cursor);
	return {
		state: next,
		emit,
		reads,
		done,
		caughtUp: caughtUp && !waiting,
		reread: poll.reread + reread,
		...(covered ? { covered: true as const } : {}),
	};
}
