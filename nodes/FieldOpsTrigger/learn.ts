/**
 * What a read teaches about the service and the feed: the service's clock against n8n's, rows per parent record
 * and sources in order (image rows), and the density that sizes the next ModifiedBefore window.
 */
import {
	FILL,
	GROWTH,
	MIN_SAMPLE,
	PROBE,
	SHRINK,
	SPARSE_GROWTH,
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
 * was read tells more: everything up to the newest of them is too many already, and the next window ends at the
 * oldest (nothing read lies before it) or is sized from their density. Poll-clock records show no modification
 * time: their creation times (`dense`) size the window from their density alone (a guess: a burst of new records).
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
		sized.ceiling = Math.min(sized.ceiling as number, newest + 1);
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
		sized.span =
			before <= 0 || read.dense
				? density
				: before / Math.max(1, target ?? times.length) + (bySource ? density : 0);
		delete sized.guess;
	}
	return sized;
}

/** A window read whole: its length (ms), the records found in it and, with record times, their times from its start. */
export interface Window {
	length: number;
	found: number;
	times?: number[];
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
 * A window holding too few records to measure is followed by a longer one, the longer the emptier it was.
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
	if (found === 0 && next.mode === 'modified') {
		// An empty window tells nothing of the density beyond it (a burst has ended): the rest is read to the
		// present in one full page, not in windows growing from the old density a step at a time. Not on the
		// poll clock: there a record's time is only known within its window, and a long one leaves more labels
		// to the identity memory (labels.ts: edited before the trigger read past its creation, or after).
		delete next.span;
		delete next.guess;
		return;
	}
	const planned = Math.max(1, length) / Math.max(1, target);
	if (found >= Math.min(MIN_SAMPLE, (target * FILL) / PROBE) || !outcome.all) {
		const perRecord = (length * FILL) / Math.max(1, found);
		next.span = Math.min(Math.max(perRecord, planned / SHRINK), planned * GROWTH);
		// Its newer half denser (a burst began): that density goes on.
		const half = Math.floor(found / 2);
		const recent =
			window.times && found >= MIN_SAMPLE ? ((length - window.times[half]) * FILL) / (found - half) : 0;
		if (recent > 0 && recent < next.span) next.span = recent;
		delete next.guess;
	} else {
		next.span = planned * (found === 0 ? SPARSE_GROWTH : GROWTH);
		next.guess = true;
	}
}
