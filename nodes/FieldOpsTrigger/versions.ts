import { fingerprintOf, tokenOf } from './hashing';
import type { CursorOptions, Emitted, Feed, TriggerEvent, Version } from './state';

/** "Fetch Test Event": the newest `count` records (oldest of them first); it has no state to touch. */
export function newestForTest<T>(
	records: readonly T[],
	feed: Feed<T>,
	options: CursorOptions,
	count = 3,
): Array<Emitted<T>> {
	const selected = new Set(options.events);
	const versions = latestVersions(records, feed, 0);
	const picked: Array<Emitted<T>> = [];
	for (let i = versions.length - 1; i >= 0 && picked.length < count; i--) {
		const record = versions[i].record;
		const created = versions[i].created;
		const modified = feed.modifiedAt?.(record);
		// No state: a record never edited since its creation, or of unknown creation (first seen), is new.
		const event: TriggerEvent = feed.isDeleted?.(record)
			? 'deleted'
			: created === undefined || modified === undefined || created >= modified
				? 'new'
				: 'changed';
		if (selected.has(event)) picked.unshift({ event, record });
	}
	return picked;
}

/**
 * One version per identity, oldest first. A record edited while the pages were read shows up twice: the
 * newest copy wins (on equal times, the later one received) and takes its place in the order.
 */
export function latestVersions<T>(
	records: readonly T[],
	feed: Feed<T>,
	fallbackAt: number,
): Array<Version<T>> {
	const byIdentity = new Map<string, Version<T>>();
	records.forEach((record, index) => {
		const identity = feed.identity(record);
		const at = feed.modifiedAt?.(record) ?? fallbackAt;
		const known = byIdentity.get(identity);
		if (known && known.at > at) return;
		const fingerprint = feed.fingerprint ? feed.fingerprint(record) : fingerprintOf(record);
		byIdentity.set(identity, {
			record,
			id: tokenOf(identity),
			fp: tokenOf(fingerprint),
			at,
			created: feed.createdAt?.(record),
			index,
		});
	});
	return [...byIdentity.values()].sort((a, b) => a.at - b.at || a.index - b.index);
}
