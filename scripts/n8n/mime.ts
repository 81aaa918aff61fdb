/**
 * Real Internet messages (RFC 5322 / MIME) for the mail tests, the demo and the benchmark: what mail clients send,
 * built by hand so the test sees the encodings a mailbox really holds: base64 parts in 76-column lines, RFC 2047
 * subjects, RFC 2231 file names (UTF-8, percent-encoded, split into continuations), multipart/mixed, /alternative
 * and /related (an HTML body with an inline image), and a forwarded message as message/rfc822.
 */
import { randomBytes } from 'node:crypto';

export interface MailFile {
	/** As the sender's client names it; non-ASCII, long or odd names are sent in RFC 2231 form. Omitted: no name. */
	fileName?: string;
	contentType: string;
	content: Buffer;
}

export interface InlineImage extends MailFile {
	/** The `cid:` the HTML body refers to. */
	contentId: string;
}

export interface Mail {
	from: string;
	to: string;
	subject: string;
	text?: string;
	/** An HTML body (sent with the text as multipart/alternative); `inline` images go beside it in multipart/related. */
	html?: string;
	inline?: InlineImage[];
	attachments?: MailFile[];
	/** Whole messages forwarded as attachments (message/rfc822, named `<subject>.eml`). */
	forwarded?: { fileName: string; message: Buffer }[];
	date?: Date;
}

const CRLF = '\r\n';
const ASCII_PRINTABLE = /^[\x20-\x7e]*$/;

/** base64 in lines of 76 characters, as RFC 2045 wants. */
export function base64Lines(content: Buffer): string {
	const encoded = content.toString('base64');
	const lines: string[] = [];
	for (let at = 0; at < encoded.length; at += 76) lines.push(encoded.slice(at, at + 76));
	return lines.join(CRLF);
}

/** A header value as RFC 2047 encoded words when it is not plain ASCII (each word at most 75 characters). */
export function encodedWords(value: string): string {
	if (ASCII_PRINTABLE.test(value)) return value;
	const words: string[] = [];
	let chunk = '';
	for (const character of value) {
		// 45 bytes of UTF-8 make 60 base64 characters: with `=?UTF-8?B?` and `?=` the word stays under 75.
		if (Buffer.byteLength(chunk + character) > 45) {
			words.push(chunk);
			chunk = '';
		}
		chunk += character;
	}
	words.push(chunk);
	return words.map((word) => `=?UTF-8?B?${Buffer.from(word).toString('base64')}?=`).join(`${CRLF} `);
}

/**
 * A `filename` (or `name`) parameter: quoted when it is short plain ASCII, else RFC 2231 `name*0*=UTF-8''…;
 * name*1*=…` continuations of percent-encoded UTF-8 (what Outlook and Thunderbird send for "Målebrev.pdf").
 */
export function fileNameParameter(parameter: string, fileName: string): string {
	if (ASCII_PRINTABLE.test(fileName) && !/["\\]/.test(fileName) && fileName.length <= 60)
		return `${parameter}="${fileName}"`;
	const encoded = [...Buffer.from(fileName, 'utf8')]
		.map((byte) =>
			/[A-Za-z0-9!#$&+.^_`|~-]/.test(String.fromCharCode(byte))
				? String.fromCharCode(byte)
				: `%${byte.toString(16).toUpperCase().padStart(2, '0')}`,
		)
		.join('');
	const pieces: string[] = [];
	// Cut between escapes, never inside one, about 40 characters per line.
	for (let at = 0; at < encoded.length; ) {
		let end = Math.min(at + 40, encoded.length);
		const lastEscape = encoded.lastIndexOf('%', end - 1);
		if (lastEscape >= at && lastEscape > end - 3 && end < encoded.length) end = lastEscape;
		pieces.push(encoded.slice(at, end));
		at = end;
	}
	return pieces
		.map((piece, index) => `${parameter}*${index}*=${index === 0 ? "UTF-8''" : ''}${piece}`)
		.join(`;${CRLF} `);
}

const boundary = () => `----=_Part_${randomBytes(12).toString('hex')}`;

function part(headers: string[], body: string): string {
	return `${headers.join(CRLF)}${CRLF}${CRLF}${body}`;
}

function multipart(subtype: string, parts: string[]): string {
	const mark = boundary();
	return part(
		[`Content-Type: multipart/${subtype}; boundary="${mark}"`],
		`This is a multi-part message in MIME format.${CRLF}` +
			parts.map((inner) => `--${mark}${CRLF}${inner}${CRLF}`).join('') +
			`--${mark}--${CRLF}`,
	);
}

const textPart = (subtype: 'plain' | 'html', text: string) =>
	part(
		[`Content-Type: text/${subtype}; charset=UTF-8`, 'Content-Transfer-Encoding: base64'],
		base64Lines(Buffer.from(text, 'utf8')),
	);

function filePart(file: MailFile, disposition: 'attachment' | 'inline', contentId?: string): string {
	const named = (parameter: string) =>
		file.fileName === undefined ? '' : `;${CRLF} ${fileNameParameter(parameter, file.fileName)}`;
	return part(
		[
			`Content-Type: ${file.contentType}${named('name')}`,
			`Content-Disposition: ${disposition}${named('filename')}`,
			'Content-Transfer-Encoding: base64',
			...(contentId ? [`Content-ID: <${contentId}>`] : []),
		],
		base64Lines(file.content),
	);
}

/** The message as the bytes a mail server stores (CRLF line ends, 7-bit). */
export function buildMail(mail: Mail): Buffer {
	const text = textPart('plain', mail.text ?? '');
	let body = text;
	if (mail.html !== undefined) {
		const html = textPart('html', mail.html);
		const withImages = mail.inline?.length
			? multipart('related', [
					html,
					...mail.inline.map((image) => filePart(image, 'inline', image.contentId)),
				])
			: html;
		body = multipart('alternative', [text, withImages]);
	}
	const files = [
		...(mail.attachments ?? []).map((file) => filePart(file, 'attachment')),
		...(mail.forwarded ?? []).map(({ fileName, message }) =>
			part(
				[
					`Content-Type: message/rfc822; ${fileNameParameter('name', fileName)}`,
					`Content-Disposition: attachment; ${fileNameParameter('filename', fileName)}`,
					'Content-Transfer-Encoding: 7bit',
				],
				message.toString('latin1'),
			),
		),
	];
	if (files.length) body = multipart('mixed', [body, ...files]);
	const headers = [
		`From: ${mail.from}`,
		`To: ${mail.to}`,
		`Subject: ${encodedWords(mail.subject)}`,
		`Date: ${(mail.date ?? new Date()).toUTCString().replace('GMT', '+0000')}`,
		`Message-ID: <${randomBytes(10).toString('hex')}@fieldops.example.com>`,
		'MIME-Version: 1.0',
	];
	return Buffer.from(`${headers.join(CRLF)}${CRLF}${body}`, 'latin1');
}

/** Bytes that look like a small PDF (tests compare bytes, not rendering). */
export const pdf = (title: string) =>
	Buffer.from(
		`%PDF-1.4\n% ${title}\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`,
		'utf8',
	);

/** `bytes` of pseudo-random content from a seed: large files that do not compress and compare exactly. */
export function noise(bytes: number, seed = 1): Buffer {
	const out = Buffer.allocUnsafe(bytes);
	let state = seed >>> 0 || 1;
	for (let at = 0; at < bytes; at += 4) {
		// xorshift32
		state ^= state << 13;
		state >>>= 0;
		state ^= state >>> 17;
		state ^= state << 5;
		state >>>= 0;
		if (at + 4 <= bytes) out.writeUInt32LE(state, at);
		else for (let i = at; i < bytes; i++) out[i] = (state >>> ((i - at) * 8)) & 0xff;
	}
	return out;
}
