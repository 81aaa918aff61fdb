import { recordKey, type ReportFeed } from '../FieldOps/shared/reports';
import { fingerprintOf, parseTimestamp, type Feed } from './cursor';

type Row = Record<string, unknown>;

/**
 * Which record field carries the modification time, per feed, as far as the spec SHOWS it: machine registrations
 * (`modifiedDateTime`) and images (`parentModifiedDateTime`, their parent's last modification, which is what
 * incremental image extraction orders by). The other record shapes are "not shown" in the spec, so those feeds
 * use the cursor's poll-clock fallback (overlap + identity/content dedupe) rather than a field we cannot rely on.
 */
const MODIFIED_FIELD: Record<string, string> = {
	machineRegistrations: 'modifiedDateTime',
	images: 'parentModifiedDateTime',
};

/**
 * Incremental pages come in modification order across the whole read (spec: sync modes); image rows only
 * within each source (feed, alert, checklist), so images are read in time windows instead.
 */
const ORDERED = new Set(['machineRegistrations']);

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
	const modified = MODIFIED_FIELD[feed.value];
	return {
		// No id field we know: the content is the identity (an edit then looks like a new record, never a lost one).
		identity: (record) => recordKey(feed, record) ?? `content:${fingerprintOf(record)}`,
		...(modified
			? { modifiedAt: (record: Row) => parseTimestamp(record[modified]), ordered: ORDERED.has(feed.value) }
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
