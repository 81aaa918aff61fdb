import type { IDataObject } from 'n8n-workflow';

import { flatten } from './csv';
import { DAY_MS } from '../../../parameters/zones';

/**
 * An Excel workbook (.xlsx, Office Open XML) of one sheet, written without a library: a ZIP of "stored" (not
 * compressed) XML parts. Days and times become date cells (`yyyy-mm-dd`, `yyyy-mm-dd hh:mm`), numbers numbers,
 * booleans TRUE/FALSE, the rest text. The rows are written first, as they arrive ({@link SheetRows}); the header
 * (every column seen) and the ZIP around them are written at the end ({@link workbookParts}).
 */

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DAY_TIME = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2})$/;
/** Excel's day 0 (its 1900 date system, with the 1900 leap-year bug folded in). */
const EPOCH = Date.UTC(1899, 11, 30);
const MAX_TEXT = 32_767;
export const MAX_ROWS = 1_048_576;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
	let c = n;
	for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
	return c >>> 0;
});

/** CRC-32 (ZIP's) of `bytes`, continuing from the CRC of what came before them. */
export function crc32(bytes: Uint8Array, crc = 0): number {
	let c = ~crc >>> 0;
	for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
	return ~c >>> 0;
}

function gf2Times(matrix: number[], vector: number): number {
	let sum = 0;
	for (let i = 0; vector !== 0; i++, vector >>>= 1) if (vector & 1) sum ^= matrix[i];
	return sum >>> 0;
}

const gf2Square = (matrix: number[]) => matrix.map((row) => gf2Times(matrix, row));

/** The CRC-32 of A followed by B, from the CRCs of both and B's length (zlib's crc32_combine). */
export function crc32Combine(crcA: number, crcB: number, lengthB: number): number {
	if (lengthB <= 0) return crcA;
	// The operator for one zero bit, then squared to two and four bits.
	let odd = [0xedb88320, ...Array.from({ length: 31 }, (_, n) => (1 << n) >>> 0)];
	let even = gf2Square(odd);
	odd = gf2Square(even);
	let crc = crcA;
	let length = lengthB;
	for (;;) {
		even = gf2Square(odd);
		if (length % 2) crc = gf2Times(even, crc);
		length = Math.floor(length / 2);
		if (length === 0) break;
		odd = gf2Square(even);
		if (length % 2) crc = gf2Times(odd, crc);
		length = Math.floor(length / 2);
		if (length === 0) break;
	}
	return (crc ^ crcB) >>> 0;
}

const MARKUP = /[&<>"]/g;
const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Characters XML 1.0 does not allow (control characters but tab, line feed and carriage return; U+FFFE/F). */
const notXml = (code: number) => (code < 32 && code !== 9 && code !== 10 && code !== 13) || code >= 0xfffe;

function escapeXml(text: string): string {
	let clean = text;
	for (let i = 0; i < text.length; i++)
		if (notXml(text.charCodeAt(i))) {
			clean = [...text].filter((char) => !notXml(char.charCodeAt(0))).join('');
			break;
		}
	return clean.replace(MARKUP, (char) => ENTITIES[char]);
}

/** A (1-based) column number as letters: 1 → A, 27 → AA. */
export function columnName(number: number): string {
	let name = '';
	for (let n = number; n > 0; n = Math.floor((n - 1) / 26))
		name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
	return name;
}

/** Excel's serial day number of `yyyy-MM-dd` or `yyyy-MM-dd HH:mm` (wall-clock time, as Simplify writes it). */
export function serialOf(text: string): number | undefined {
	const match = DAY.exec(text) ?? DAY_TIME.exec(text);
	if (!match) return undefined;
	const [, y, m, d, h = '0', min = '0'] = match;
	const ms = Date.UTC(+y, +m - 1, +d, +h, +min);
	const date = new Date(ms);
	if (date.getUTCMonth() !== +m - 1 || date.getUTCDate() !== +d) return undefined;
	return (ms - EPOCH) / DAY_MS;
}

function cell(ref: string, value: unknown, style = 0): string {
	if (value === null || value === undefined) return '';
	if (typeof value === 'number' && Number.isFinite(value)) return `<c r="${ref}"><v>${value}</v></c>`;
	if (typeof value === 'boolean') return `<c r="${ref}" t="b"><v>${value ? 1 : 0}</v></c>`;
	const text = String(value);
	const serial = serialOf(text);
	if (serial !== undefined) return `<c r="${ref}" s="${text.length === 10 ? 1 : 2}"><v>${serial}</v></c>`;
	const kept = escapeXml(text.slice(0, MAX_TEXT));
	const space = /^\s|\s$/.test(kept) ? ' xml:space="preserve"' : '';
	return `<c r="${ref}" t="inlineStr"${style ? ` s="${style}"` : ''}><is><t${space}>${kept}</t></is></c>`;
}

/** The sheet's rows as they arrive: each record one row, its keys the columns in the order first seen. */
export class SheetRows {
	readonly columns: string[] = [];
	private readonly index = new Map<string, number>();
	rows = 0;

	row(record: IDataObject): string {
		const flat = flatten(record);
		const number = this.rows + 2;
		const cells: Array<[number, unknown]> = [];
		for (const key in flat) {
			let at = this.index.get(key);
			if (at === undefined) {
				at = this.columns.push(key) - 1;
				this.index.set(key, at);
			}
			cells.push([at, flat[key]]);
		}
		cells.sort((a, b) => a[0] - b[0]);
		this.rows++;
		return `<row r="${number}">${cells.map(([at, value]) => cell(`${columnName(at + 1)}${number}`, value)).join('')}</row>`;
	}

	/** What comes before the rows in the sheet: frozen header row of every column. */
	head(): string {
		const header = this.columns.map((name, at) => cell(`${columnName(at + 1)}1`, name, 3)).join('');
		const widths = this.columns.length
			? `<cols><col min="1" max="${this.columns.length}" width="18" customWidth="1"/></cols>`
			: '';
		return `${XML}<worksheet xmlns="${MAIN}"><sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>${widths}<sheetData><row r="1">${header}</row>`;
	}

	static readonly tail = '</sheetData></worksheet>';
}

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const DOC_RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml';

/** The small parts of the workbook: everything but the sheet. `title` and `description` are the file's metadata. */
export function workbookParts(
	sheetName: string,
	title: string,
	description: string,
	created: Date,
): Array<[string, string]> {
	const name = escapeXml(sheetName.replace(/[\\/?*[\]:]/g, ' ').slice(0, 31) || 'Sheet1');
	return [
		[
			'[Content_Types].xml',
			`${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="${TYPE}.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="${TYPE}.worksheet+xml"/><Override PartName="/xl/styles.xml" ContentType="${TYPE}.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
		],
		[
			'_rels/.rels',
			`${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/officeDocument" Target="xl/workbook.xml"/><Relationship Id="rId2" Type="${RELS}/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
		],
		[
			'docProps/core.xml',
			`${XML}<cp:coreProperties xmlns:cp="${RELS.replace('relationships', 'metadata/core-properties')}" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${escapeXml(title)}</dc:title><dc:description>${escapeXml(description)}</dc:description><dc:creator>Field Ops (n8n)</dc:creator><dcterms:created xsi:type="dcterms:W3CDTF">${created.toISOString().slice(0, 19)}Z</dcterms:created></cp:coreProperties>`,
		],
		[
			'xl/workbook.xml',
			`${XML}<workbook xmlns="${MAIN}" xmlns:r="${DOC_RELS}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
		],
		[
			'xl/_rels/workbook.xml.rels',
			`${XML}<Relationships xmlns="${RELS}"><Relationship Id="rId1" Type="${DOC_RELS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${DOC_RELS}/styles" Target="styles.xml"/></Relationships>`,
		],
		[
			'xl/styles.xml',
			`${XML}<styleSheet xmlns="${MAIN}"><numFmts count="2"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/><numFmt numFmtId="165" formatCode="yyyy-mm-dd hh:mm"/></numFmts><fonts count="2"><font><sz val="11"/><name val="Calibri"/></font><font><b/><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="4"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/><xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/><xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/></cellXfs><cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles></styleSheet>`,
		],
	];
}
