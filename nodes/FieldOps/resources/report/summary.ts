import type { IDataObject } from 'n8n-workflow';

import type { ReportFeed } from '../../reporting/feeds';
import type { WindowDescription } from './period';

/** What one export did, said in its output: the window it covered, how many records, whether the Limit cut it. */
export interface ExportSummary {
	window?: WindowDescription;
	returned: number;
	/** The Limit stopped the read while more records matched. */
	moreExist: boolean;
	/** Sentences for the reader: the Limit, a site in another zone. */
	notes: string[];
}

/** The summary as output fields: the window in words and as ISO values, whether more exist, the notes. */
export function summaryFields(summary: ExportSummary): IDataObject {
	const { window } = summary;
	return {
		...(window && {
			window: window.text,
			windowFrom: window.from,
			windowTo: window.to,
			timeZone: window.timeZone,
		}),
		moreExist: summary.moreExist,
		...(summary.notes.length > 0 && { note: summary.notes.join(' ') }),
	};
}

/** The summary in one line: "Last Week: Monday 16 … (Europe/Oslo): 312 time registrations". */
export function summaryLine(summary: ExportSummary, feed: ReportFeed): string {
	const what = summary.returned === 1 ? feed.record : feed.name.toLowerCase();
	const count = `${summary.returned} ${what}${summary.moreExist ? ' (the Limit; more exist)' : ''}`;
	return summary.window ? `${summary.window.text}: ${count}` : count;
}
