/** A strict RFC 4180 reader for the tests: rows of cells; throws on a malformed quote. */
export function parseCsv(text: string, delimiter = ','): string[][] {
	const rows: string[][] = [];
	let row: string[] = [];
	let cell = '';
	let i = 0;
	let quoted = false;
	let atCellStart = true;
	while (i < text.length) {
		const char = text[i];
		if (quoted) {
			if (char === '"' && text[i + 1] === '"') {
				cell += '"';
				i += 2;
				continue;
			}
			if (char === '"') {
				quoted = false;
				i++;
				if (i < text.length && text[i] !== delimiter && text[i] !== '\r')
					throw new Error(`text after a closing quote at ${i}`);
				continue;
			}
			cell += char;
			i++;
			continue;
		}
		if (char === '"' && atCellStart) {
			quoted = true;
			atCellStart = false;
			i++;
			continue;
		}
		if (char === '"') throw new Error(`a quote inside an unquoted cell at ${i}`);
		if (char === delimiter) {
			row.push(cell);
			cell = '';
			atCellStart = true;
			i++;
			continue;
		}
		if (char === '\r') {
			if (text[i + 1] !== '\n') throw new Error(`CR without LF at ${i}`);
			row.push(cell);
			rows.push(row);
			row = [];
			cell = '';
			atCellStart = true;
			i += 2;
			continue;
		}
		if (char === '\n') throw new Error(`LF without CR at ${i}`);
		cell += char;
		atCellStart = false;
		i++;
	}
	if (quoted) throw new Error('unterminated quote');
	if (cell !== '' || row.length > 0) throw new Error('the last line has no CRLF');
	return rows;
}

/** The rows as records keyed by the header (the first row); every row must have the header's width. */
export function csvRecords(
	text: string,
	delimiter = ',',
): { header: string[]; records: Record<string, string>[] } {
	const [header, ...rows] = parseCsv(text, delimiter);
	for (const [index, row] of rows.entries())
		if (row.length !== header.length)
			throw new Error(`row ${index + 1} has ${row.length} cells, the header ${header.length}`);
	return {
		header,
		records: rows.map((row) => Object.fromEntries(header.map((name, index) => [name, row[index]]))),
	};
}
