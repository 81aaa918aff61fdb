import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { downloadFile, isOwnUrl } from '../../../transport/download';
import type { ReportFeed } from '../../../reporting/feeds';

const IMAGE_URL_FIELD: Record<string, string> = {
	original: 'downloadUrl',
	large: 'largeUrl',
	medium: 'mediumUrl',
	thumbnail: 'thumbnailUrl',
};
const DOWNLOAD_CONCURRENCY = 4;

export interface DownloadOptions {
	imageSize?: string;
	binaryPropertyName?: string;
}

/** Runs `work` over `entries` with at most `limit` at once. */
async function inPool<T>(entries: T[], limit: number, work: (entry: T) => Promise<void>): Promise<void> {
	let next = 0;
	const worker = async () => {
		while (next < entries.length) await work(entries[next++]);
	};
	await Promise.all(Array.from({ length: Math.min(limit, entries.length) }, worker));
}

/** Each record's image or PDF into its item's binary property; `_file` says what happened. */
export async function attachFiles(
	context: IExecuteFunctions,
	feed: ReportFeed,
	entries: INodeExecutionData[],
	options: DownloadOptions,
	itemIndex: number,
	timeoutMs: number,
) {
	const property = options.binaryPropertyName || 'data';
	const urlField = feed.files === 'image' ? IMAGE_URL_FIELD[options.imageSize ?? 'large'] : 'pdfUrl';
	await inPool(entries, DOWNLOAD_CONCURRENCY, async (entry) => {
		const record = entry.json;
		const url = record[urlField];
		if (typeof url !== 'string' || url === '') {
			record._file = {
				downloaded: false,
				reason:
					feed.files === 'pdf'
						? 'The PDF is not generated yet: Field Ops creates it when the record is submitted.'
						: `The record has no ${urlField}.`,
			};
			return;
		}
		if (!(await isOwnUrl(context, url))) {
			record._file = {
				downloaded: false,
				reason:
					'The file link does not point at an address of the Field Ops credential, so it was not fetched: the access token is only sent to your Field Ops addresses.',
				url,
			};
			return;
		}
		const fallbackName = String(
			record.fileNameOriginal ??
				record.fileName ??
				`${feed.record.replace(/\s+/g, '-')}-${String(record.id)}${feed.files === 'pdf' ? '.pdf' : ''}`,
		);
		entry.binary = { [property]: await downloadFile(context, { url, itemIndex, timeoutMs }, fallbackName) };
		record._file = { downloaded: true, property };
	});
}
