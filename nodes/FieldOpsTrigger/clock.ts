/** The service's clock as a read tells it, and what else a read tells about the feed. */
import {
	MIN_SAMPLE,
	overlapOf,
	type CursorOptions,
	type CursorState,
	type Feed,
	type ReadResult,
} from './state';

/**
 * The service's clock is taken from a read's Date header while it is within the re-read window (and the
 * header's second) of n8n's clock around the read. Further off, `off` says by how much (+: ahead). The records'
 * own times (mode 'modified') need the clock only to tell which are recent: a Date far ahead (a proxy with a
 * wrong clock) is then dropped and n8n's clock stands in. Otherwise the caller stops the poll: a cursor from the
 * service's clock cannot tell a wrong Date from a service whose records carry that clock too.
 */
export function checkClock<T>(
	read: ReadResult<T>,
	sentAt: number,
	receivedAt: number,
	options: CursorOptions,
	modified: boolean,
): { read: ReadResult<T>; off?: number } {
	const tolerance = overlapOf(options) + 1000;
	const dates = [read.serverTime, read.lastServerTime].filter((date) => date !== undefined);
	const behind = dates.find((date) => date < sentAt - tolerance);
	if (behind !== undefined) return { read, off: behind - sentAt };
	const ahead = dates.find((date) => date > receivedAt + tolerance);
	if (ahead === undefined) return { read };
	if (!modified) return { read, off: ahead - receivedAt };
	const undated = { ...read };
	delete undated.serverTime;
	delete undated.lastServerTime;
	return { read: undated };
}

/**
 * Rows per parent (image rows); and where records come in order only within each of several sources (image rows),
 * the sources a whole read showed: its runs of ascending times, each long enough not to be chance.
 */
export function learn<T>(next: CursorState, read: ReadResult<T>, feed: Feed<T>): void {
	const { records } = read;
	if (feed.parentOf && records.length > 0)
		next.fanout = records.length / new Set(records.map(feed.parentOf)).size;
	if (!feed.modifiedAt || feed.ordered || !read.complete) return;
	const times = records.map((record) => feed.modifiedAt?.(record)).filter((time) => time !== undefined);
	const runs = times.filter((time, i) => i > 0 && time < times[i - 1]).length + 1;
	if (runs > (next.sources ?? 1) && runs * MIN_SAMPLE <= times.length) next.sources = runs;
}
