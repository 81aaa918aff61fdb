/** How long the next ModifiedBefore window is, from what the last one held. */
import {
	FILL,
	GROWTH,
	MIN_SAMPLE,
	PROBE,
	SHRINK,
	SPARSE_GROWTH,
	type CursorState,
	type ReadPlan,
	type Version,
} from './state';

/**
 * Too many for one poll: the next window ends before this one, a BISECT of the way (`up`: a window under the
 * same ceiling that held few records turns the search toward the ceiling). With record times, the records read
 * bound it: everything up to the newest of them is too many already, and their density sizes the next one.
 */
export function tooFull<T>(
	next: CursorState,
	plan: ReadPlan,
	state: CursorState,
	serviceTime: number,
	read?: Array<Version<T>>,
): CursorState {
	const sized: CursorState = {
		...next,
		ceiling: Math.max(plan.before ?? serviceTime, state.cursor + 1),
		guess: true,
	};
	delete sized.span;
	delete sized.up;
	if (read && read.length > 0) {
		const newest = read.reduce((time, version) => Math.max(time, version.at), state.cursor);
		sized.ceiling = Math.min(sized.ceiling as number, Math.max(newest + 1, state.cursor + 1));
		sized.span = (FILL * ((sized.ceiling as number) - state.cursor)) / read.length;
		delete sized.guess;
	}
	return sized;
}

export interface WindowRead {
	/** The window's length (ms) and the records found in it. */
	length: number;
	found: number;
	caughtUp: boolean;
	/** Every record found was handled; `waiting`: some were held back. */
	all: boolean;
	waiting: boolean;
}

/**
 * Sized from this window's records per millisecond, to hold FILL of what the poll may emit (`span`: milliseconds
 * per record). A window with records that fit ends the search below a ceiling; an empty one only narrows it.
 * A window holding too few records to measure is followed by a longer one, the longer the emptier it was.
 */
export function resize(next: CursorState, read: WindowRead, target: number): void {
	const { length, found } = read;
	if (read.caughtUp) {
		delete next.span;
		delete next.guess;
		delete next.ceiling;
		return;
	}
	if (read.waiting) return;
	if (found > 0) delete next.ceiling;
	// Under a ceiling, a window that held few turns the search up toward it.
	if (next.ceiling !== undefined) next.up = true;
	const planned = Math.max(1, length) / Math.max(1, target);
	if (found >= Math.min(MIN_SAMPLE, (target * FILL) / PROBE) || !read.all) {
		const perRecord = (length * FILL) / Math.max(1, found);
		next.span = Math.min(Math.max(perRecord, planned / SHRINK), planned * GROWTH);
		delete next.guess;
	} else {
		next.span = planned * (found === 0 ? SPARSE_GROWTH : GROWTH);
		next.guess = true;
	}
}
