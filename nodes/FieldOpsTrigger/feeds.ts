import { recordKey, type ReportFeed } from '../FieldOps/shared/reports';
import { fingerprintOf, parseTimestamp } from './hashing';
import type { Feed } from './state';

type Row = Record<string, unknown>;

/**
 * The spec lists ModifiedBefore for every reporting endpoint except these ("Standard filters incl. ProjectId,
 * ModifiedSince, ContinuationToken"): the trigger asks once whether the service honours it before it reads a
 * backlog in windows (docs/assumptions.md, R3).
 */
const BEFORE_UNLISTED = new Set([
	'checklistRegistrations',
	'machineChecklistRegistrations',
	'incidentRegistrations',
	'machineIncidentRegistrations',
]);

/**
 * New vs changed is best told from the creation time: the spec shows `createdDateTime` on machine registrations
 * and images; the other shapes are not shown, so it is used when a record carries one (else: first seen).
 */
const CREATED_FIELD = 'createdDateTime';

/** How the cursor reads one feed's records. */
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
		// Image rows: one per image and parent record, and ChunkLimit counts parents.
		...(feed.value === 'images'
			? { parentOf: (record: Row) => `${String(record.collectionRef)}|${String(record.idRef)}` }
			: {}),
		...(BEFORE_UNLISTED.has(feed.value) ? { beforeUnlisted: true } : {}),
	};
}
