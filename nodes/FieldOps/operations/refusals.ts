import { NodeApiError } from 'n8n-workflow';

import { failureDetails } from '../transport/errors';

export interface EntryDetail {
	code?: string;
	field?: string;
	message?: string;
}

/** The entry position an error points at, when its field names one (`[2].employeeNumber`, `certificates[2]…`, `2.employeeNumber`). */
export function entryOf(detail: EntryDetail): number | undefined {
	const match = /(?:^|\[)(\d+)(?:\]|\.)/.exec(detail.field ?? '');
	return match ? Number(match[1]) : undefined;
}

/**
 * The entries a 400 refusal of a whole batch names, with their details; undefined when the error is not such a
 * refusal or names no entry (then every entry failed for the same reason).
 */
export function refusedEntries(error: unknown, count: number): Map<number, EntryDetail[]> | undefined {
	if (!(error instanceof NodeApiError) || String(error.httpCode) !== '400') return undefined;
	const byEntry = new Map<number, EntryDetail[]>();
	for (const detail of failureDetails(error)) {
		const entry = entryOf(detail);
		if (entry !== undefined && entry < count) byEntry.set(entry, [...(byEntry.get(entry) ?? []), detail]);
	}
	return byEntry.size > 0 ? byEntry : undefined;
}

/** A detail's field without its entry prefix (`[2].endTime` → `endTime`). */
export const withoutEntry = (detail: EntryDetail): EntryDetail => ({
	...detail,
	field: detail.field?.replace(/^.*?\]?\./, ''),
});
