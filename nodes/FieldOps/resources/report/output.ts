import { BINARY_ENCODING, type IBinaryData, type IDataObject, type INodeExecutionData } from 'n8n-workflow';

import { CsvTable, flatten } from '../../shared/csv';
import { streamToBinary, type ByteChannel } from '../../shared/fileStream';
import type { Item } from '../../shared/items';
import type { ReportPage } from '../../shared/pagination';
import type { ReportFeed } from '../../shared/reports';
import { attachFiles, type DownloadOptions } from './downloads';
import type { FileOptions } from './outputFields';
import { simplifier } from './simplify';

export interface OutputOptions extends DownloadOptions {
	downloadFiles?: boolean;
	includeEnvelope?: boolean;
}

/** Where the records of one input item's export go, page by page. */
export interface ReportOutput {
	/** One page's records (Limit and Deleted Records already applied); `number` is the page's, from 1. */
	page(records: IDataObject[], page: ReportPage, number: number): Promise<void> | void;
	/** Reads the pages with `read` (which answers how many it read) and answers the output items. */
	collect(read: () => Promise<number>): Promise<INodeExecutionData[]>;
}

type Shape = (record: IDataObject) => IDataObject;

/** Text is handed to the binary store in slices of about this many characters. */
const SLICE = 256 * 1024;

const envelopeOf = (page: ReportPage): IDataObject => ({
	meta: page.meta,
	syncTypeName: page.syncTypeName,
	recordCount: page.recordCount,
	deletedRecordCount: page.deletedRecordCount,
});

/** Items: one per record (as before Output existed). Files are downloaded from the raw records, then shaped. */
function itemsOutput(
	item: Item,
	feed: ReportFeed,
	options: OutputOptions,
	shape: Shape,
	timeoutMs: number,
): ReportOutput {
	const entries: INodeExecutionData[] = [];
	const downloads = options.downloadFiles === true && feed.files !== undefined;
	return {
		page(records, page) {
			const envelope = options.includeEnvelope ? envelopeOf(page) : undefined;
			for (const record of records) {
				const json = downloads ? record : shape(record);
				entries.push({ json: envelope ? { ...json, _page: envelope } : json });
			}
		},
		async collect(read) {
			await read();
			if (downloads) {
				await attachFiles(item.context, feed, entries, options, item.index, timeoutMs);
				for (const entry of entries) entry.json = shape(entry.json);
			}
			return entries;
		},
	};
}

/** One item per page that has records: `{ page, records }`. */
function pagesOutput(options: OutputOptions, shape: Shape): ReportOutput {
	const entries: INodeExecutionData[] = [];
	return {
		page(records, page, number) {
			if (records.length === 0) return;
			const json: IDataObject = { page: number, records: records.map(shape) };
			if (options.includeEnvelope) json._page = envelopeOf(page);
			entries.push({ json });
		},
		async collect(read) {
			await read();
			return entries;
		},
	};
}

/** The bytes of a stored file: streamed from the binary store, or decoded in memory mode. */
async function storedBytes(item: Item, binary: IBinaryData): Promise<AsyncIterable<Buffer> | Buffer[]> {
	if (binary.id) return (await item.context.helpers.getBinaryStream(binary.id)) as AsyncIterable<Buffer>;
	return [Buffer.from(binary.data, BINARY_ENCODING)];
}

/**
 * File: CSV or JSON Lines written into n8n's binary data as the pages arrive, one item with the file. CSV's
 * header is the union of the columns of the first page with records; a column first seen on a later page is
 * added at the end and the file is then rewritten once from the binary store with the full header and every
 * earlier row padded with empty cells (see shared/csv.ts).
 */
function fileOutput(item: Item, feed: ReportFeed, shape: Shape): ReportOutput {
	const format = (item.param<string>('fileFormat') ?? 'csv') === 'jsonl' ? 'jsonl' : 'csv';
	const options = (item.param<FileOptions>('fileOptions') ?? {}) as FileOptions;
	const csv = format === 'csv';
	const bom = csv && options.addBom ? '\uFEFF' : '';
	const table = new CsvTable(csv ? options.delimiter || ',' : ',');
	const file = {
		fileName: options.fileName?.trim() || `${feed.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.${format}`,
		mimeType: csv ? 'text/csv' : 'application/x-ndjson',
	};
	let channel: ByteChannel | undefined;
	let records = 0;
	let started = false;

	const write = async (records: IDataObject[], line: (record: IDataObject) => string, head = '') => {
		let text = head;
		for (const record of records) {
			text += line(record);
			if (text.length >= SLICE) {
				await channel?.write(text);
				text = '';
			}
		}
		await channel?.write(text);
	};

	return {
		async page(batch) {
			if (batch.length === 0) return;
			records += batch.length;
			if (!csv) return await write(batch, (record) => `${JSON.stringify(shape(record))}\n`);
			if (started) return await write(batch, (record) => table.row(shape(record)));
			// The first page with records: the header is the union of its columns.
			started = true;
			const shaped = batch.map(shape);
			for (const record of shaped) table.learn(flatten(record));
			await write(shaped, (record) => table.row(record), bom + table.header());
		},
		async collect(read) {
			const written = await streamToBinary(item.context, file, async (opened) => {
				channel = opened;
				const pages = await read();
				if (!started) await opened.write(bom);
				return pages;
			});
			const pages = written.result;
			let binary = written.binary;
			if (csv && started && !table.complete) {
				const source = await storedBytes(item, binary);
				({ binary } = await streamToBinary(item.context, file, async (wide) => {
					for await (const chunk of table.widenRows(source, bom)) await wide.write(chunk);
				}));
			}
			const json: IDataObject = { fileName: binary.fileName, fileFormat: format, records, pages };
			if (csv) json.columns = table.columns;
			return [{ json, binary: { [options.binaryPropertyName || 'data']: binary } }];
		},
	};
}

/**
 * The output the item asks for: Items, One Item per Page, or File; Simplify shapes each record. `timeoutMs` bounds
 * each file download (Items with Download Files).
 */
export function openOutput(
	item: Item,
	feed: ReportFeed,
	options: OutputOptions,
	timeoutMs: number,
): ReportOutput {
	const shape: Shape =
		item.param<boolean>('simplify') === true
			? simplifier(feed.value, item.context.getTimezone())
			: (record) => record;
	const output = item.param<string>('output') ?? 'items';
	if (output === 'file') return fileOutput(item, feed, shape);
	if (output === 'pages') return pagesOutput(options, shape);
	return itemsOutput(item, feed, options, shape, timeoutMs);
}
