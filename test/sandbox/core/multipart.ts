import { badRequest } from '../http';

/** One part of a multipart/form-data body; `bytes` is a view into the request body (no copy). */
export interface FormPart {
	name: string;
	/** `null` when the part has no filename (or an empty one). */
	fileName: string | null;
	contentType: string | null;
	bytes: Buffer;
}

const MAX_HEADER_BYTES = 16 * 1024;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

const broken = (why: string) => badRequest(`The multipart body is broken: ${why}`, 'file');

export function boundaryOf(contentType: string): string {
	const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
	const boundary = match?.[1] ?? match?.[2];
	if (!boundary) throw broken('the Content-Type has no boundary');
	return boundary;
}

/** A Content-Disposition parameter; `filename*` (RFC 5987) is decoded, plain values as browsers escape them. */
function parameter(disposition: string, name: string): string | undefined {
	const extended = new RegExp(`;\\s*${name}\\*\\s*=\\s*([^']*)'[^']*'([^;]*)`, 'i').exec(disposition);
	if (extended) {
		try {
			const value = extended[2].trim();
			// UTF-8 as RFC 5987 recommends; ISO-8859-1 (the other charset it names) byte by byte.
			return /^utf-8$/i.test(extended[1])
				? decodeURIComponent(value)
				: value.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
		} catch {
			throw broken(`the ${name}* parameter is not valid percent-encoding`);
		}
	}
	const plain = new RegExp(`;\\s*${name}\\s*=\\s*(?:"([^"]*)"|([^;\\s]*))`, 'i').exec(disposition);
	if (!plain) return undefined;
	// WHATWG form encoders send quotes and line breaks in names as %22, %0D, %0A and everything else as UTF-8.
	return (plain[1] ?? plain[2]).replace(/%(22|0D|0A)/gi, (code) => decodeURIComponent(code));
}

function headersOf(block: Buffer): Map<string, string> {
	const headers = new Map<string, string>();
	for (const line of block.toString('utf8').split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon <= 0) throw broken(`a part has a malformed header line "${line.slice(0, 80)}"`);
		headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
	}
	return headers;
}

/**
 * Parses a whole multipart/form-data body (RFC 7578). Anything that is not a well-formed body ending in the
 * close delimiter is a 400: a truncated upload must not be stored as if it were complete.
 */
export function parseMultipart(body: Buffer, boundary: string): FormPart[] {
	const delimiter = Buffer.from(`--${boundary}`);
	const next = Buffer.from(`\r\n--${boundary}`);
	let at = body.subarray(0, delimiter.length).equals(delimiter) ? 0 : body.indexOf(next);
	if (at < 0) throw broken('the boundary does not occur in the body');
	if (at > 0) at += CRLF.length;
	const parts: FormPart[] = [];
	for (;;) {
		at += delimiter.length;
		if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
		while (body[at] === 0x20 || body[at] === 0x09) at++;
		if (!body.subarray(at, at + 2).equals(CRLF))
			throw broken('a boundary line is not followed by a line break');
		at += CRLF.length;
		const headerEnd = body.indexOf(HEADER_END, at);
		if (headerEnd < 0 || headerEnd - at > MAX_HEADER_BYTES) throw broken('a part has no end of headers');
		const headers = headersOf(body.subarray(at, headerEnd));
		const disposition = headers.get('content-disposition');
		if (!disposition || !/^form-data\b/i.test(disposition))
			throw broken('a part has no Content-Disposition: form-data header');
		const name = parameter(disposition, 'name');
		if (name === undefined) throw broken('a part has no name');
		const contentStart = headerEnd + HEADER_END.length;
		const contentEnd = body.indexOf(next, contentStart);
		if (contentEnd < 0) throw broken('the body ends inside a part (no close delimiter)');
		parts.push({
			name,
			fileName: parameter(disposition, 'filename') || null,
			contentType: headers.get('content-type') || null,
			bytes: body.subarray(contentStart, contentEnd),
		});
		at = contentEnd + CRLF.length;
	}
}
