/**
 * What a read teaches about the service and the feed: the service's clock against n8n's, rows per parent record
 * and sources in order (image rows), and the density that sizes the next ModifiedBefore window.
 */
import {
	ENDED,
	FILL,
	GROWTH,
	MIN_SAMPLE,
	PROBE,
	SHRINK,
	type CursorState,
	type Poll,
	type ReadResult,
	type Version,
} from './state';

/**
 * The next state with what any read tells: the service's time at the first read and its clock against n8n's;
 * rows per parent (image rows); and where records come in order only within each of several sources (image
 * rows), the sources a whole read showed: its runs of ascending times, each long enough not to be chance.
 */
export function learn<T>(poll: Poll<T>, read: ReadResult<T>, now: number): CursorState {
	const { state, feed } = poll;
	const next: CursorState = { ...state, activatedAt: state.activatedAt ?? read.serverTime ?? state.floor };
	if (read.serverTime !== undefined) next.offset = read.serverTime - now;
	const { records } = read;
	if (feed.parentOf && records.length > 0)
		next.fanout = records.length / new Set(records.map(feed.parentOf)).size;
	if (!feed.modifiedAt || feed.ordered || !read.complete) return next;
	const times = records.map((record) => feed.modifiedAt?.(record)).filter((time) => time !== undefined);
	const runs = times.filter((time, i) => i > 0 && time < times[i - 1]).length + 1;
	if (runs > (next.sources ?? 1) && runs * MIN_SAMPLE <= times.length) next.sources = runs;
	return next;
}

/**
 * Times that size the next window after one found too full. Polled records carry none: their creation times
 * stand in (a burst of new records is modified when created); only the search's speed depends on them.
 */
export function timesOf<T>(versions: Array<Version<T>>, polled: boolean): Times {
	if (!polled) {
		const received = [...versions].sort((a, b) => a.index - b.index).map((version) => version.at);
		return { times: received, dense: false };
	}
	const created = versions.map((version) => version.created).filter((time) => time !== undefined);
	return { times: created, dense: true };
}

/** Times read (in the order received), and whether they only tell a density (creation times). */
interface Times {
	times: number[];
	dense: boolean;
}

/**
 * Too many for one poll: the next window ends before `reach`, the end of what this read may hold (to the present:
 * the end of its last Date's second, as records written within it may be among them), a BISECT of the way (`up`:
 * a window under the same ceiling that held few records turns the search toward it). With record times, what
 * was read tells more: up to the newest of them is too many already where the read held the target, and the
 * next window ends where they put FILL of the target, extrapolated from the newest of them where they hold
 * fewer. Poll-clock records show no modification time: their creation times (`dense`) size the window from
 * their density alone (a guess: a burst of new records; edits of older records are newer than their creation).
 */
export function tooFull(
	next: CursorState,
	state: CursorState,
	reach: number,
	target: number | undefined,
	read: Times = { times: [], dense: false },
): CursorState {
	const sized: CursorState = {
		...next,
		ceiling: Math.max(reach, state.cursor + 1),
		guess: true,
	};
	delete sized.span;
	delete sized.up;
	const times = read.times.filter((time) => time >= state.cursor);
	if (times.length > 0) {
		const oldest = Math.min(...times);
		const newest = Math.max(...times);
		const records = Math.max(1, target ?? times.length);
		// As many as the target up to the newest: too many already (a smaller page only shows there are more).
		if (times.length >= records || read.dense) sized.ceiling = Math.min(sized.ceiling as number, newest + 1);
		// In order only within each of several sources: the first one read tells the density, the others hold
		// about as many again each.
		const sources = state.sources ?? 1;
		const end = times.findIndex((time, i) => i > 0 && time < times[i - 1]);
		const run = end === -1 ? times : times.slice(0, end);
		const bySource = sources > 1 && run.length >= MIN_SAMPLE;
		const density = bySource
			? (FILL * (run[run.length - 1] + 1 - run[0])) / (run.length * sources)
			: (FILL * (newest + 1 - oldest)) / times.length;
		const before = oldest - state.cursor;
		// What was read shows how the records spread over time (a burst among quiet traffic is not one density):
		// the window ends where FILL of the target lies, the other sources holding about as many each.
		const ordered = bySource ? run : [...times].sort((a, b) => a - b);
		const wanted = Math.floor((FILL * records) / (bySource ? sources : 1));
		// Fewer read than wanted: the newest of them tell how densely the rest follows.
		const tail = Math.max(2, Math.floor(ordered.length / 4));
		const last = ordered[ordered.length - 1];
		if (read.dense || !Number.isFinite(records)) sized.span = density;
		else if (wanted >= 1 && wanted < ordered.length)
			sized.span = Math.max(1, ordered[wanted] - state.cursor) / records;
		else if (ordered.length > 2 * tail) {
			const perRecord = (last - ordered[ordered.length - 1 - tail]) / tail;
			sized.span = Math.max(1, last + (wanted - ordered.length + 1) * perRecord - state.cursor) / records;
		} else sized.span = before <= 0 ? density : before / records + (bySource ? density : 0);
		delete sized.guess;
	}
	return sized;
}

/** A window read whole: its length (ms), the records found in it and, with record times, their times from its start. */
export interface Window {
	length: number;
	found: number;
	times?: number[];
	/** Poll clock: the creation times of records created within it, from its start, ascending. */
	created?: number[];
	/** One millisecond (a tie). */
	tie?: boolean;
}

/** What came of the window: read to the present, every record found handled, some held back. */
export interface WindowOutcome {
	caughtUp: boolean;
	all: boolean;
	waiting: boolean;
}

/**
 * Sized from this window's records per millisecond, to hold FILL of what the poll may emit (`span`: milliseconds
 * per record). A window with records that fit ends the search below a ceiling; an empty one only narrows it.
 * A window holding too few records to measure is followed by one twice as long; after an empty one, or one
 * whose records stopped early, the rest is read to the present.
 */
export function resize(next: CursorState, window: Window, outcome: WindowOutcome, target: number): void {
	const { length, found } = window;
	// One millisecond that holds about what the measured density says is too small a sample to size by.
	if (window.tie && next.span !== undefined && found * next.span >= FILL / 2) return;
	if (outcome.caughtUp) {
		delete next.span;
		delete next.guess;
		delete next.ceiling;
		// What a read to the present brings: the next one that finds many times more met a burst.
		next.usual = found;
		return;
	}
	delete next.usual;
	if (outcome.waiting) return;
	if (found > 0) delete next.ceiling;
	if (next.ceiling !== undefined) {
		// Empty under a ceiling: what made it too full lies above, so the search turns up toward it.
		next.up = true;
		next.guess = true;
		delete next.span;
		return;
	}
	// An empty window tells nothing of the density beyond it (a burst has ended): the rest is read to the
	// present in one full page, not in windows growing from the old density a step at a time. So does one whose
	// records stop long before its end (record times, ascending: a stretch many times their spacing holds none;
	// rows of one parent record share its time).
	const parents = found / (next.fanout ?? 1);
	const ends = window.times ?? window.created;
	const last = ends?.[ends.length - 1];
	const stopped =
		last !== undefined && parents >= MIN_SAMPLE && length - 1 - last > (ENDED * length) / parents;
	if (found === 0 || stopped) {
		delete next.span;
		delete next.guess;
		return;
	}
	const planned = Math.max(1, length) / Math.max(1, target);
	if (found >= Math.min(MIN_SAMPLE, (target * FILL) / PROBE) || !outcome.all) {
		const perRecord = (length * FILL) / Math.max(1, found);
		next.span = Math.min(Math.max(perRecord, planned / SHRINK), planned * GROWTH);
		// Its newer half far denser (a burst began, not the ups and downs of traffic): that density goes on.
		const half = Math.floor(found / 2);
		const recent =
			window.times && parents >= MIN_SAMPLE ? ((length - window.times[half]) * FILL) / (found - half) : 0;
		if (recent > 0 && recent < next.span / 2) next.span = recent;
		delete next.guess;
	} else {
		next.span = planned * GROWTH;
		next.guess = true;
	}
}
