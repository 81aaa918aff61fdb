/** The service's clock as a read tells it (its Date headers), and whether to trust it. */
import { overlapOf, type ReadResult, type Trigger } from './state';

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
	{ feed, options }: Trigger<T>,
): { read: ReadResult<T>; off?: number } {
	const tolerance = overlapOf(options) + 1000;
	const dates = [read.serverTime, read.lastServerTime].filter((date) => date !== undefined);
	const behind = dates.find((date) => date < sentAt - tolerance);
	if (behind !== undefined) return { read, off: behind - sentAt };
	const ahead = dates.find((date) => date > receivedAt + tolerance);
	if (ahead === undefined) return { read };
	if (!feed.modifiedAt) return { read, off: ahead - receivedAt };
	const undated = { ...read };
	delete undated.serverTime;
	delete undated.lastServerTime;
	return { read: undated };
}
