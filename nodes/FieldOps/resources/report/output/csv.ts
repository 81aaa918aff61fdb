import type { IDataObject } from 'n8n-workflow';

/**
 * CSV written as records arrive, in the shape n8n's Convert to File gives: nested objects and lists flattened to
 * dot keys (`roadReference.provider`, `sections.0.title`; an empty object or list gives no column), one column
 * per key in the order keys are first seen, `TRUE`/`FALSE` for booleans, an empty cell for null. Cells holding
 * the delimiter, a quote or a line break are quoted (RFC 4180, quotes doubled); lines end with CRLF. Simplify's
 * days and times (`2026-03-23`, `2026-03-23 06:00`) are what Excel and LibreOffice read as dates in every
 * locale; numbers take a decimal comma where the delimiter is a semicolon (the locales whose decimal mark is a
 * comma), a point elsewhere.
 */

/** The record with nested objects and lists flattened to dot keys, as n8n's `flattenObject` does. */
export function flatten(record: IDataObject, into: IDataObject = {}, prefix = ''): IDataObject {
	for (const key of Object.keys(record)) {
		const value = record[key];
		if (value === undefined) continue;
		if (value !== null && typeof value === 'object') flatten(value as IDataObject, into, `${prefix}${key}.`);
		else into[`${prefix}${key}`] = value;
	}
	return into;
}

export const CRLF = '\r\n';
const QUOTE = 34;
const CR = 13;

/** Rows written with the same number of columns. */
interface Run {
	rows: number;
	width: number;
}

/**
 * The columns of a CSV being streamed and how each row was written. The header is written once, from the
 * columns known when the first row is written (the file output makes them the union of its whole first page);
 * a key first seen later becomes a new column at the end, and rows written from then on have it. Whether the
 * header lacks columns at the end is `complete`; {@link widenRows} then rewrites the file with the full header.
 */
export class CsvTable {
	readonly columns: string[] = [];
	private readonly index = new Map<string, number>();
	private readonly runs: Run[] = [];
	private headerWidth = -1;

	/** A cell holding one of these is quoted. */
	private readonly special: RegExp;

	/** `decimalComma`: numbers as 7,5 (with a semicolon delimiter, as Excel and LibreOffice read them there). */
	constructor(
		private readonly delimiter: string,
		private readonly decimalComma = false,
	) {
		this.special = new RegExp(`[${delimiter.replace(/[\\\]^-]/g, '\\$&')}"\r\n]`);
	}

	/** Adds the keys of a flattened record to the columns. */
	learn(flat: IDataObject): void {
		for (const key in flat) {
			if (!this.index.has(key)) {
				this.index.set(key, this.columns.length);
				this.columns.push(key);
			}
		}
	}

	/** The header line: the columns known now. */
	header(): string {
		this.headerWidth = this.columns.length;
		return this.line(this.columns) + CRLF;
	}

	/**
	 * One record's line; new keys become new columns. A record whose fields are the columns, in their order, with
	 * no nested value (nearly every record of a report) is written as it is; any other is flattened first.
	 */
	row(record: IDataObject): string {
		const columns = this.columns;
		let line = '';
		let at = 0;
		for (const key in record) {
			const value = record[key];
			if (columns[at] !== key || value === undefined || (value !== null && typeof value === 'object')) {
				at = -1;
				break;
			}
			line += at++ === 0 ? this.cell(value) : this.delimiter + this.cell(value);
		}
		if (at !== columns.length) line = this.flatRow(flatten(record));
		this.count(columns.length);
		return line + CRLF;
	}

	private flatRow(flat: IDataObject): string {
		this.learn(flat);
		const cells = new Array<string>(this.columns.length).fill('');
		for (const key in flat) cells[this.index.get(key) as number] = this.cell(flat[key]);
		return cells.join(this.delimiter);
	}

	private count(width: number): void {
		const last = this.runs[this.runs.length - 1];
		if (last && last.width === width) last.rows++;
		else this.runs.push({ rows: 1, width });
	}

	/** Whether the header names every column (no key appeared after it was written). */
	get complete(): boolean {
		return this.headerWidth === this.columns.length;
	}

	/**
	 * The file again with the full header and every row padded to it with empty cells: `source` is the file as
	 * written (BOM, short header, rows). Rows are told apart by the line breaks outside quotes.
	 */
	async *widenRows(source: AsyncIterable<Buffer> | Iterable<Buffer>, bom: string): AsyncGenerator<Buffer> {
		const width = this.columns.length;
		const pads = this.runs.map((run) => Buffer.from(this.delimiter.repeat(width - run.width)));
		let run = 0;
		let left = this.runs[0]?.rows ?? 0;
		let line = -1; // the header
		let quoted = false;
		let skip = Buffer.byteLength(bom);
		yield Buffer.from(bom + this.header());
		for await (const chunk of source) {
			let start = 0;
			if (skip > 0) {
				start = Math.min(skip, chunk.length);
				skip -= start;
			}
			for (let i = start; i < chunk.length; i++) {
				const byte = chunk[i];
				if (byte === QUOTE) quoted = !quoted;
				else if (byte === CR && !quoted) {
					// The end of a line: the old header is dropped, a row gets its padding before its CRLF.
					if (line >= 0) {
						yield chunk.subarray(start, i);
						yield pads[run];
						if (--left === 0) left = this.runs[++run]?.rows ?? 0;
					}
					start = line < 0 ? i + 2 : i;
					line++;
				}
			}
			if (line >= 0 && start < chunk.length) yield chunk.subarray(start);
			else if (line < 0) start = chunk.length;
			if (start > chunk.length) skip = start - chunk.length;
		}
	}

	private line(cells: string[]): string {
		return cells.map((cell) => this.quote(cell)).join(this.delimiter);
	}

	private cell(value: unknown): string {
		if (typeof value === 'string') return this.quote(value);
		if (typeof value === 'number') return this.decimalComma ? String(value).replace('.', ',') : String(value);
		if (value === null || value === undefined) return '';
		if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
		return this.quote(String(value));
	}

	private quote(text: string): string {
		return this.special.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
	}
}
