import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { ReportPage } from '../../../reporting/pages';
import type { ExportSummary } from '../summary';

/** Where the records of one input item's export go, page by page. */
export interface ReportOutput {
	/** One page's records (Limit and Deleted Records already applied); `number` is the page's, from 1. */
	page(records: IDataObject[], page: ReportPage, number: number): Promise<void> | void;
	/**
	 * Reads the pages with `read` (which answers how many it read) and answers the output items, which say what
	 * `summary` says once the pages are read.
	 */
	collect(read: () => Promise<number>, summary: () => ExportSummary): Promise<INodeExecutionData[]>;
}

/** What Simplify (or nothing) makes of each record before it is output. */
export type Shape = (record: IDataObject) => IDataObject;
