import { CREATED_FIELD, parentKey, recordKey, type ReportFeed } from '../FieldOps/reporting/feeds';
import { fingerprintOf, parseTimestamp } from './hashing';
import type { Feed } from './state';

type Row = Record<string, unknown>;

/** How the cursor reads one feed's records: the facts of its entry in the feed table. */
export function cursorFeed(feed: ReportFeed): Feed<Row> {
	// Which field carries the modification time, as far as the spec SHOWS it (the feed table's `cursor`): other
	// feeds use the cursor's poll-clock fallback (overlap + identity/content dedupe).
	const modified = feed.cursor?.modified;
	return {
		// No id field we know: the content is the identity (an edit then looks like a new record, never a lost one).
		identity: (record) => recordKey(feed, record) ?? `content:${fingerprintOf(record)}`,
		...(modified
			? {
					modifiedAt: (record: Row) => parseTimestamp(record[modified]),
					ordered: feed.cursor?.ordered === true,
				}
			: {}),
		createdAt: (record: Row) => parseTimestamp(record[CREATED_FIELD]),
		// Any feed may report tombstones (the spec names two): read the flag wherever a record carries it.
		isDeleted: (record: Row) => record.isDeleted === true,
		// Rows per parent record (image rows): ChunkLimit counts parents.
		...(feed.parent ? { parentOf: (record: Row) => parentKey(feed, record) } : {}),
		...(feed.modifiedBeforeUnlisted ? { beforeUnlisted: true } : {}),
	};
}
