import { BINARY_ENCODING, type IBinaryData, type IDataObject } from 'n8n-workflow';

import { CsvTable, flatten } from './csv';
import { FieldOpsFailure } from '../../../transport/errors';
import { streamToBinary, type ByteChannel } from './fileStream';
import type { Item } from '../../../items/items';
import type { ReportFeed } from '../../../reporting/feeds';
import type { ReportOutput, Shape } from './reportOutput';
import type { FileOptions } from './parameters';
import { summaryFields, type ExportSummary } from '../summary';
import type { WindowDescription } from '../period';
import { crc32, crc32Combine, MAX_ROWS, SheetRows, workbookParts } from './xlsx';
import { ZipWriter } from './zip';

/** Text is handed to the binary store in slices of about this many characters. */
const SLICE = 256 * 1024;

const FORMATS = {
	csv: { extension: 'csv', mimeType: 'text/csv' },
	jsonl: { extension: 'jsonl', mimeType: 'application/x-ndjson' },
	xlsx: { extension: 'xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
};
type Format = keyof typeof FORMATS;

/** The bytes of a stored file: streamed from the binary store, or decoded in memory mode. */
async function storedBytes(item: Item, binary: IBinaryData): Promise<AsyncIterable<Buffer> | Buffer[]> {
	if (binary.id) return (await item.context.helpers.getBinaryStream(binary.id)) as AsyncIterable<Buffer>;
	return [Buffer.from(binary.data, BINARY_ENCODING)];
}

/**
 * File: CSV, Excel or JSON Lines written into n8n's binary data as the pages arrive, one item with the file and
 * what it covers. CSV's header is the union of the columns of the first page with records; a column first seen
 * on a later page is added at the end and the file is then rewritten once from the binary store with the full
 * header and every earlier row padded with empty cells (see csv.ts). Excel's rows go to the binary store
 * first; the workbook is then written around them with the header of every column (see xlsx.ts).
 */
export function fileOutput(
	item: Item,
	feed: ReportFeed,
	shape: Shape,
	window: WindowDescription | undefined,
): ReportOutput {
	const chosen = item.param<string>('fileFormat') ?? 'csv';
	const format: Format = chosen === 'jsonl' || chosen === 'xlsx' ? chosen : 'csv';
	const options = (item.param<FileOptions>('fileOptions') ?? {}) as FileOptions;
	const csv = format === 'csv';
	const bom = csv && options.addBom ? '\uFEFF' : '';
	const delimiter = options.delimiter || ',';
	// Where the delimiter is a semicolon, the decimal mark is a comma (Excel's and LibreOffice's CSV there).
	const table = new CsvTable(csv ? delimiter : ',', csv && delimiter === ';');
	const sheet = new SheetRows();
	const { extension, mimeType } = FORMATS[format];
	// Without a File Name: the report's name, from node version 1.3 with its period (time-registrations-2026-W47).
	const slug = feed.name.toLowerCase().replace(/[^a-z0-9]+/g, '-');
	const named =
		item.context.getNode().typeVersion >= 1.3
			? [slug.replace(/-$/, ''), window?.fileSuffix].filter(Boolean).join('-')
			: slug;
	const file = { fileName: options.fileName?.trim() || `${named}.${extension}`, mimeType };
	let channel: ByteChannel | undefined;
	// Excel: the rows written so far, for the sheet's CRC-32 and size.
	let rowsCrc = 0;
	let rowsLength = 0;
	let records = 0;
	let started = false;

	const send = async (text: string) => {
		if (format === 'xlsx') {
			const bytes = Buffer.from(text, 'utf8');
			rowsCrc = crc32(bytes, rowsCrc);
			rowsLength += bytes.length;
			return await channel?.write(bytes);
		}
		await channel?.write(text);
	};
	const write = async (batch: IDataObject[], line: (record: IDataObject) => string, head = '') => {
		let text = head;
		for (const record of batch) {
			text += line(record);
			if (text.length >= SLICE) {
				await send(text);
				text = '';
			}
		}
		await send(text);
	};

	/** Excel: the workbook around the rows stored in `rows`. */
	const workbook = async (rows: IBinaryData, summary: ExportSummary) => {
		const head = Buffer.from(sheet.head(), 'utf8');
		const tail = Buffer.from(SheetRows.tail, 'utf8');
		const crc = crc32Combine(crc32Combine(crc32(head), rowsCrc, rowsLength), crc32(tail), tail.length);
		const window = summary.window;
		const title = `${feed.name}${window ? `, ${window.text}` : ''}`;
		const sheetName = window?.firstDay ? `${String(window.firstDay)} – ${String(window.lastDay)}` : feed.name;
		const source = await storedBytes(item, rows);
		return await streamToBinary(item.context, file, async (out) => {
			const zip = new ZipWriter(async (bytes) => await out.write(bytes), new Date());
			for (const [name, content] of workbookParts(sheetName, title, summary.notes.join(' '), new Date()))
				await zip.file(name, content);
			await zip.open('xl/worksheets/sheet1.xml', crc, head.length + rowsLength + tail.length);
			await zip.write(head);
			for await (const chunk of source) await zip.write(chunk);
			await zip.write(tail);
			await zip.close();
		});
	};

	return {
		async page(batch) {
			if (batch.length === 0) return;
			records += batch.length;
			if (format === 'jsonl') return await write(batch, (record) => `${JSON.stringify(shape(record))}\n`);
			if (format === 'xlsx') {
				if (sheet.rows + batch.length >= MAX_ROWS)
					throw new FieldOpsFailure(
						`More than ${MAX_ROWS - 1} records: more rows than an Excel sheet holds`,
						'Choose CSV as the File Format, or a shorter period.',
					);
				return await write(batch, (record) => sheet.row(shape(record)));
			}
			if (started) return await write(batch, (record) => table.row(shape(record)));
			// The first page with records: the header is the union of its columns.
			started = true;
			const shaped = batch.map(shape);
			for (const record of shaped) table.learn(flatten(record));
			await write(shaped, (record) => table.row(record), bom + table.header());
		},
		async collect(read, summarize) {
			const target =
				format === 'xlsx' ? { fileName: `${file.fileName}.rows.xml`, mimeType: 'application/xml' } : file;
			const written = await streamToBinary(item.context, target, async (opened) => {
				channel = opened;
				const pages = await read();
				if (!started && csv) await opened.write(bom);
				return pages;
			});
			const pages = written.result;
			const summary = summarize();
			let binary = written.binary;
			if (format === 'xlsx') ({ binary } = await workbook(binary, summary));
			else if (csv && started && !table.complete) {
				const source = await storedBytes(item, binary);
				({ binary } = await streamToBinary(item.context, file, async (wide) => {
					for await (const chunk of table.widenRows(source, bom)) await wide.write(chunk);
				}));
			}
			const json: IDataObject = { fileName: binary.fileName, fileFormat: format, records, pages };
			if (csv) json.columns = table.columns;
			if (format === 'xlsx') json.columns = sheet.columns;
			Object.assign(json, summaryFields(summary));
			return [{ json, binary: { [options.binaryPropertyName || 'data']: binary } }];
		},
	};
}
