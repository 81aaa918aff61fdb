import type { IDataObject } from 'n8n-workflow';

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
