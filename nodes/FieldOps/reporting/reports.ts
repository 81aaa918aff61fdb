/**
 * The reporting API's feeds, as the spec lists them: path, the filters each accepts, whether it has a date window
 * (full mode) and tombstones (incremental mode), which files its records link to, Simplify's columns, the
 * trigger's cursor and the words for it. The Report resource and the Field Ops Trigger are both built from the one
 * table of shared/reportFeeds.ts: adding a feed is one entry there (and one kind of the sandbox).
 */
import type { Column } from './columns';

export type ReportFilter =
	| 'ProjectId'
	| 'CompanyId'
	| 'Approved'
	| 'ApprovedPayroll'
	| 'Locked'
	| 'IncludeSensitiveData'
	| 'Sources'
	| 'RequireGeoCoordinate'
	| 'OwnCompanyDataOnly'
	| 'ExcludeDataFromSubsidiaries';

export interface ReportFeed {
	value: string;
	name: string;
	path: string;
	/** What one record is, for descriptions ("time registration"). */
	record: string;
	/** The action's words where a clerk searches for others than the feed's name (the node creator matches them). */
	action?: string;
	filters: ReportFilter[];
	/**
	 * The spec lists FromDateTime/ToDateTime for it. Metadata lists have none; checklists and incidents take
	 * "standard filters incl. ProjectId, ModifiedSince, ContinuationToken", which names no date window.
	 */
	dateWindow: boolean;
	/**
	 * The spec says incremental mode reports deleted records with `isDeleted: true`. Other feeds may too (not
	 * shown): `isDeleted === true` is read on every record that carries it.
	 */
	tombstones: boolean;
	/** Where the spec does not show the record's id field: the names tried after `id`, in order. */
	idFields?: string[];
	/** Files the records link to: image variants, or a generated PDF (`pdfUrl`). */
	files?: 'image' | 'pdf';
	/** The action's record in title case where it is not the record's words ("Payroll Line (Extended)"). */
	title?: string;
	/** Simplify's columns, in order, and the IDs and technical fields it leaves out (shared/reportColumns.ts). */
	columns: Column[];
	drop: string[];
	/**
	 * Records carry the day they belong to (the site's work day, the Date column): a period keeps the records of
	 * its days, whatever zone the report is in (docs/assumptions.md N8).
	 */
	workDay?: boolean;
	/**
	 * The trigger's cursor: the field carrying the modification time, where the spec SHOWS it, and whether
	 * incremental pages come in that order across the whole read. Without it the trigger uses its poll clock.
	 */
	cursor?: { modified: string; ordered: boolean };
}

export { REPORT_FEEDS } from './feeds';

export const MAX_CHUNK_LIMIT = 10_000;

/**
 * The record's own id: image rows are one per (image, parent record); a record of a shape the spec does not show
 * has `id` or the feed's own named id (`timeRegistrationId`; a WBS element is an `activityId`, as images call it).
 * Undefined when there is none: the caller decides what identifies the record then.
 */
export function recordKey(feed: ReportFeed, record: Record<string, unknown>): string | undefined {
	if (feed.value === 'images')
		return `${String(record.id)}|${String(record.collectionRef)}|${String(record.idRef)}`;
	for (const field of ['id', ...(feed.idFields ?? [])]) {
		const value = record[field];
		// A plain `id` is its own key, as stored trigger states know it.
		if ((typeof value === 'string' && value !== '') || typeof value === 'number')
			return field === 'id' ? String(value) : `${field}:${String(value)}`;
	}
	return undefined;
}
