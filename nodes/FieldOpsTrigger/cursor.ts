/**
 * How the cursor and the horizon move after a read. Mode 'modified' (the records show their modification time):
 * the cursor follows the records' times. Mode 'polled' (they do not): the end of the last window read whole, or
 * the service's time for a read to the present. Late writes: a record is assumed visible at most one re-read
 * window after the time it is stamped with; only there are records read twice (the horizon), and `seen` tells
 * them apart. A backlog older than that is read once.
 */
import { windowed, type Batch, type Handled, type Poll, type Read } from './state';

/**
 * The cursor's rule: everything modified before the cursor has been handled (emitted, or passed over as an
 * unselected event), so the cursor never passes a version it has not emitted. It moves only over what a read
 * returned whole and handled whole:
 * - Pages in modification order: to the newest time handled (+1 once the read is complete: a cut read's last
 *   millisecond may go on in the next page), or to the first run left for later.
 * - A window read whole and handled whole: to its end; a read to the present ends at its Date (poll clock) or
 *   after the newest record handled (record times). Cut by the cap: a poll-clock window is read again (`seen`
 *   dedupes it), a record-time one moves to the first run left.
 * - Recent records that wait to settle (after a whole read) keep it before them.
 * Caught up: complete, all handled, and read to the present (a window ending past the read's Date counts).
 */
export function moveCursor<T>(
	{ state, feed }: Poll<T>,
	{ plan, result, readAt, until }: Read<T>,
	{ versions, pending, settling }: Batch<T>,
	{ stopAt }: Handled<T>,
): { cursor: number; caughtUp: boolean } {
	if (settling) return { cursor: Math.max(state.cursor, plan.since), caughtUp: false };
	const all = stopAt === undefined;
	const newest = (list: typeof versions) =>
		list.reduce((time, version) => Math.max(time, version.at), state.cursor - 1);
	const end = plan.recent || plan.whole ? undefined : plan.before;
	const polled = state.mode === 'polled';
	if (!windowed(state, feed)) {
		if (!all) return { cursor: Math.max(state.cursor, stopAt), caughtUp: false };
		const cursor = result.complete ? newest(pending) + 1 : newest(versions);
		return { cursor: Math.max(state.cursor, cursor), caughtUp: result.complete };
	}
	if (result.complete && all) {
		const caughtUp = end === undefined || end > until;
		// Polled: a window's end, even within the Date's second (a record written there after the read is like a
		// late write: the horizon, never past the Date, has the next poll read it); a read to the present: its Date.
		if (polled)
			return {
				cursor: Math.max(state.cursor, end === undefined ? readAt : Math.min(end, until + 1)),
				caughtUp,
			};
		return { cursor: Math.max(state.cursor, end ?? newest(pending) + 1), caughtUp };
	}
	if (!polled && result.complete && !all) return { cursor: Math.max(state.cursor, stopAt), caughtUp: false };
	return { cursor: state.cursor, caughtUp: false };
}

/**
 * Reads start at the horizon: the cursor, or one re-read window before the service's time where the cursor is
 * that recent (late writes), never below the start, and never past a record left for later (a late one may be
 * older than the cursor; a polled one's time is only known to be within its read).
 */
export function moveHorizon<T>(
	{ state }: Poll<T>,
	{ plan, fresh }: Read<T>,
	{ stopAt }: Handled<T>,
	cursor: number,
): number {
	const polled = state.mode === 'polled';
	const left = stopAt === undefined ? Infinity : polled ? plan.since : stopAt;
	return Math.max(state.horizon, Math.min(polled ? cursor - 1 : cursor, fresh, left), state.floor);
}
