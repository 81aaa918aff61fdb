/**
 * What one read does to a poll, top-down: what it teaches (learn.ts); which of its versions were not handled
 * before; which of those go out now, a millisecond at a time, labelled (labels.ts), within the cap, the memory's
 * room and the holds; how the cursor moves (cursor.ts); how long the next window is (learn.ts); and what is
 * remembered (memory.ts).
 *
 * Pure: no I/O, no clock. The poll (poll.ts) loops `planRead` → read the pages → `applyRead` until the poll is
 * `done`, passing n8n's clock (`now`) and the service's (each read's HTTP `Date` header, as `checkClock` takes
 * it), and stores the state only after the last read, so a failed poll leaves the stored state as it was.
 *
 * - `seen` holds the versions handled at or above the horizon and stays under SEEN_BYTES: recent records that
 *   would not fit wait (not caught up) until they are older than the re-read window and need no memory; a
 *   polled window (its versions stay until the next one) is sized to fit.
 * - A millisecond is never split where a read holds all of it: its records go out together, beyond the cap if
 *   need be, so each poll moves past at least a page's worth whatever the ties.
 * - Boundaries: modified mode sends ModifiedSince 1 ms early and ignores what is older than the horizon; polled
 *   windows overlap by 1 ms and `seen` dedupes it; so neither an exclusive ModifiedSince nor an inclusive
 *   ModifiedBefore can skip or repeat a record.
 * - Where the spec lists no ModifiedBefore the service is asked once whether it honours it; if not, each poll
 *   reads everything since the horizon (one execution, whatever the cap) and then what changed within the re-read
 *   window, which alone stays in `seen`.
 * - Unselected events advance the cursor like emitted ones and do not count against the cap.
 */
import { moveCursor, moveHorizon } from './cursor';
import { classify } from './labels';
import { learn, resize, timesOf, tooFull } from './learn';
import { recall, remember, withPassed, type Memory } from './memory';
import {
	capOf,
	MAX_READS_PER_POLL,
	MIN_LEFT,
	overlapOf,
	windowed,
	type CursorState,
	type Batch,
	type Handled,
	type Poll,
	type Read,
	type ReadPlan,
	type ReadResult,
	type Trigger,
	type Version,
} from './state';
import { latestVersions } from './versions';

/** State fields left out when they hold nothing. */
const TRANSIENT = [
	'passed',
	'ids',
	'idSet',
	'idsFrom',
	'firstSeen',
	'span',
	'guess',
	'ceiling',
	'up',
	'tail',
	'usual',
] as const;

export function beginPoll<T>(trigger: Trigger<T>, state: CursorState): Poll<T> {
	return { ...trigger, state, emit: [], reads: 0, done: false, caughtUp: false, reread: 0 };
}

/** Decides one read: its records, in the order received. `now` is n8n's clock when the read was sent. */
export function applyRead<T>(poll: Poll<T>, plan: ReadPlan, result: ReadResult<T>, now: number): Poll<T> {
	const { state, feed, options } = poll;
	const cap = capOf(options);
	const polled = state.mode === 'polled';
	const inWindows = windowed(state, feed);
	const next = learn(poll, result, now);
	const reads = poll.reads + 1;
	const spent = reads >= MAX_READS_PER_POLL;
	const startedAt = poll.startedAt ?? result.serverTime ?? now;
	const stopped = { ...poll, state: next, reads, done: spent, caughtUp: false, startedAt };
	if (plan.probe) {
		next.before = !result.refused && result.records.length === 0;
		return stopped;
	}

	const read = timed(poll, plan, result, now);
	const memory = recall(state, polled ? Math.min(read.fresh, state.cursor - 1) : read.fresh);
	const batch = batchOf(poll, read, memory);
	const { versions, pending } = batch;
	if (plan.whole && pending.length > Math.min(cap, memory.room)) {
		// Too many to remember: which of them are recent is read next.
		return { ...stopped, done: false, held: { records: result.records, serverTime: read.at } };
	}
	// More than the poll may emit: dropped unread (with record times, what was read sizes the next window).
	if (inWindows && !plan.partial && !result.complete)
		return {
			...stopped,
			state: tooFull(next, state, read.latest + 1, plan.target, timesOf(versions, polled)),
		};
	// Every version of a polled window stays in `seen` until the next window: it must fit.
	if (polled && !plan.tie && !plan.recent && pending.length > memory.room)
		return { ...stopped, state: tooFull(next, state, read.latest + 1, plan.target) };

	const handled = handle(poll, read, batch, memory);
	const { cursor, caughtUp } = moveCursor(poll, read, batch, handled);
	const all = handled.stopAt === undefined;
	if (inWindows && !plan.recent && !plan.whole) {
		const length = (plan.before ?? Math.max(read.at, cursor)) - state.cursor;
		const times = polled ? undefined : pending.map((version) => version.at - state.cursor);
		// Poll clock: the records' creation times stand in for where they stop (a burst of new records ends).
		const created = polled ? createdWithin(pending, state.cursor) : undefined;
		const window = { length, found: pending.length, times, created, tie: plan.tie };
		resize(next, window, { caughtUp, all, waiting: handled.waiting }, plan.target ?? cap);
	}
	next.cursor = cursor;
	next.horizon = moveHorizon(poll, read, handled, cursor);
	// When it read past them: from the first answer's Date to the end of the last one's second.
	next.passed = withPassed(state, Math.max(cursor, handled.until + 1), read.readAt, read.passedUntil);
	if (!polled) next.tail = tailOf(memory, state, next.horizon);
	// Caught up: every record visible when the poll began has been handled.
	if (caughtUp && !handled.waiting) next.settled = startedAt;
	Object.assign(next, remember(memory, next, overlapOf(options)));
	for (const key of TRANSIENT) if (next[key] === undefined) delete next[key];

	const { emit } = handled;
	const progressed = cursor > state.cursor || handled.count > 0;
	let done =
		spent ||
		caughtUp ||
		handled.waiting ||
		emit.length >= cap ||
		!progressed ||
		!!plan.recent ||
		!!plan.whole;
	if (emit.length > poll.emit.length && cap - emit.length < cap * MIN_LEFT) done = true;
	// The next window would be one millisecond holding more than is left: it would be read only to wait.
	if (emit.length > 0 && inWindows && (next.span ?? Infinity) * (cap - emit.length) < 1) done = true;
	const covered =
		poll.covered || (plan.since <= state.horizon && (handled.stopAt ?? Infinity) >= state.cursor);
	return {
		feed,
		options,
		state: next,
		emit,
		reads,
		done,
		caughtUp: caughtUp && !handled.waiting,
		startedAt,
		reread: poll.reread + batch.reread,
		...(covered ? { covered: true as const } : {}),
	};
}

/** The service's times of a read (n8n's clock where it sent no Date). */
function timed<T>(poll: Poll<T>, plan: ReadPlan, result: ReadResult<T>, now: number): Read<T> {
	const at = result.serverTime ?? now;
	// The Date has whole seconds: the read may have seen records written up to the end of its last answer's
	// second. A polled version is stamped with the latest time it can have: its window's end, or that.
	const until = (result.lastServerTime ?? at) + 999;
	const readAt = plan.recent && poll.held ? poll.held.serverTime : at;
	return {
		plan,
		result,
		at,
		readAt,
		until,
		latest: Math.min((plan.before ?? Infinity) - 1, until),
		fresh: at - overlapOf(poll.options),
		passedUntil: plan.recent ? readAt + 999 : until,
	};
}

/**
 * The versions a read brought, one per identity, oldest first, and those of them not handled before (`seen`
 * holds the others). After a whole read (no ModifiedBefore), what changed within the re-read window keeps its
 * place in `seen` and the rest of the whole read is older; recent ones too many to remember wait (`settling`)
 * until they are older than the window (read again then).
 */
function batchOf<T>(poll: Poll<T>, read: Read<T>, memory: Memory): Batch<T> {
	const { state, feed, held } = poll;
	const polled = state.mode === 'polled';
	let versions: Array<Version<T>>;
	let settling = false;
	if (read.plan.recent && held) {
		const recent = latestVersions(read.result.records, feed, read.latest);
		const kept = new Set(recent.map((version) => version.id));
		const older = latestVersions(held.records, feed, held.serverTime - overlapOf(poll.options) - 1);
		settling = recent.length > memory.room;
		versions = [...older.filter((version) => !kept.has(version.id)), ...(settling ? [] : recent)];
	} else {
		versions = latestVersions(read.result.records, feed, polled ? read.latest : state.cursor);
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
	return { versions, pending, reread, settling };
}

/**
 * Handles the versions a millisecond at a time, oldest first: labels them, emits the selected events and
 * remembers them, until the cap, a hold (road reference) or the memory's room stops it. Runs of one millisecond
 * go out whole (a polled 1 ms window is one run); an ordered read cut by its page may go on with its last
 * millisecond in the next page: that one the cap may split, and `seen` keeps it.
 */
function handle<T>(poll: Poll<T>, read: Read<T>, batch: Batch<T>, memory: Memory): Handled<T> {
	const { state, feed, options } = poll;
	const { plan, result } = read;
	const polled = state.mode === 'polled';
	const cap = capOf(options);
	const selected = new Set(options.events);
	const handled: Handled<T> = { emit: [...poll.emit], count: 0, until: -Infinity, waiting: false };
	const runs: Array<Array<Version<T>>> = [];
	for (const version of batch.pending) {
		const run = runs[runs.length - 1];
		if (run && (polled ? plan.tie : run[0].at === version.at)) run.push(version);
		else runs.push([version]);
	}
	if (!windowed(state, feed) && !result.complete && runs.length > 0)
		runs.push(...(runs.pop() as Array<Version<T>>).map((v) => [v]));
	let space = memory.room;
	const times = new Set(state.seen.map(([at]) => at));
	for (const run of runs) {
		const events = run.map((version) => classify(version, poll, memory));
		const chosen = run.filter((_, i) => selected.has(events[i]));
		// Versions within the re-read window stay in `seen`: each costs room, and a new time some more.
		const fresh = polled ? 0 : run.filter((version) => version.at >= read.fresh).length;
		const cost = fresh === 0 ? 0 : fresh + (times.has(run[0].at) ? 0 : 2);
		handled.waiting = chosen.some((version) => feed.holdBack?.(version.record) === true) || cost > space;
		// The cap never splits a time; a whole read's backlog cannot be split at all (no ModifiedBefore).
		const { emit } = handled;
		const full = !plan.recent && chosen.length > 0 && emit.length > 0 && emit.length + chosen.length > cap;
		if (handled.waiting || full) {
			handled.stopAt = run[0].at;
			break;
		}
		space -= cost;
		times.add(run[0].at);
		run.forEach((version, i) => {
			if (selected.has(events[i])) emit.push({ event: events[i], record: version.record });
			memory.seen.set(version.id, { fp: version.fp, at: version.at });
			memory.ids.delete(version.id);
			memory.ids.set(version.id, read.readAt);
			if (version.created === undefined) memory.firstSeen = read.readAt;
		});
		handled.count += run.length;
		handled.until = Math.max(handled.until, run[0].at);
	}
	// Recent records too many to remember wait, as if held back.
	handled.waiting ||= batch.settling;
	return handled;
}

/** Creation times from `from` on, ascending (those before `from` are edits of older records). */
function createdWithin<T>(versions: Array<Version<T>>, from: number): number[] {
	const times = versions.flatMap(({ created }) =>
		created !== undefined && created >= from ? [created - from] : [],
	);
	return times.sort((a, b) => a - b);
}

/** Modified mode: versions handled at the millisecond before the horizon (an inclusive read returns them). */
function tailOf(memory: Memory, state: CursorState, horizon: number): number | undefined {
	if (horizon === state.horizon) return state.tail;
	let tail = 0;
	for (const { at } of memory.seen.values()) if (at === horizon - 1) tail++;
	return tail || undefined;
}
