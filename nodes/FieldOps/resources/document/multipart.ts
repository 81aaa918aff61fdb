import { randomUUID } from 'crypto';
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

/** One `file` part: its size is known up front, its bytes are read only while the body is sent. */
export interface FilePart {
	fileName: string;
	mimeType: string;
	size: number;
	read(): Promise<Uint8Array | AsyncIterable<Uint8Array>>;
}

/** A file of an input item: its binary property, and the name it is sent under. */
export interface ItemFile {
	property: string;
	binary: IBinaryData;
	name: string;
	/** The binary's own name, when it has one. */
	originalName?: string;
}

/** A file name for a binary that has none, from its MIME type (the API needs a name for every file). */
const EXTENSIONS: Record<string, string> = {
	'application/pdf': 'pdf',
	'image/jpeg': 'jpg',
	'image/png': 'png',
	'image/gif': 'gif',
	'text/plain': 'txt',
	'text/csv': 'csv',
	'application/zip': 'zip',
	'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
	'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
};

/**
 * The name a file is sent under: its own name without any folder part (`../../x.pdf` is sent as `x.pdf`, a
 * Windows path as its last segment) and without control characters; a file without a usable name gets one from
 * its property and type (`attachment_0.png`).
 */
export function fileNameOf(binary: IBinaryData, property: string): string {
	const last = (binary.fileName ?? '').split(/[\\/]/).pop() ?? '';
	// Control characters (line breaks in a header-borne name) are dropped.
	const own = [...last]
		.filter((c) => c >= ' ' && c !== '\u007f')
		.join('')
		.trim();
	if (own && own !== '.' && own !== '..') return own;
	const extension = binary.fileExtension || EXTENSIONS[binary.mimeType] || 'bin';
	return `${property}.${extension}`;
}

/**
 * A binary of the item as a part. With n8n's filesystem or database binary data the file is streamed from n8n's
 * store (`getBinaryStream`) each time the body is sent, so the node never makes its own copy; binary data held in
 * the item (the in-memory mode n8n 3.0 drops) is decoded once.
 */
export async function filePart(
	context: IExecuteFunctions,
	itemIndex: number,
	file: ItemFile,
): Promise<FilePart> {
	const mimeType = file.binary.mimeType || 'application/octet-stream';
	const id = file.binary.id;
	const fileName = file.name;
	if (id) {
		const size = Number((await context.helpers.getBinaryMetadata(id)).fileSize);
		if (Number.isSafeInteger(size) && size >= 0)
			return { fileName, mimeType, size, read: async () => await context.helpers.getBinaryStream(id) };
	}
	const bytes = await context.helpers.getBinaryDataBuffer(itemIndex, file.property);
	return { fileName, mimeType, size: bytes.length, read: async () => bytes };
}

/** As browsers do (WHATWG): quotes and line breaks escaped; any other character, non-ASCII too, sent as UTF-8. */
const escapeName = (name: string) =>
	name.replace(/[\r\n"]/g, (c) => ({ '\r': '%0D', '\n': '%0A', '"': '%22' })[c] ?? c);

/**
 * A multipart/form-data body with one `file` part per file, as a Blob-like object with an exact size: n8n's
 * HTTP client streams a Blob from its `stream()` and sends `size` as Content-Length, so the body is produced
 * chunk by chunk while it is sent. `stream()` reads the files afresh on every call.
 */
export function multipartBody(
	parts: FilePart[],
	boundary = `FieldOpsBoundary${randomUUID().replace(/-/g, '')}`,
) {
	const encoder = new TextEncoder();
	const heads = parts.map((part) =>
		encoder.encode(
			`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${escapeName(part.fileName)}"\r\n` +
				`Content-Type: ${part.mimeType.replace(/[\r\n]/g, '')}\r\n\r\n`,
		),
	);
	const lineBreak = encoder.encode('\r\n');
	const tail = encoder.encode(`--${boundary}--\r\n`);
	return {
		[Symbol.toStringTag]: 'Blob',
		type: `multipart/form-data; boundary=${boundary}`,
		size: parts.reduce(
			(sum, part, index) => sum + heads[index].length + part.size + lineBreak.length,
			tail.length,
		),
		async *stream(): AsyncGenerator<Uint8Array> {
			for (const [index, part] of parts.entries()) {
				yield heads[index];
				const bytes = await part.read();
				if (bytes instanceof Uint8Array) yield bytes;
				else for await (const chunk of bytes) yield chunk;
				yield lineBreak;
			}
			yield tail;
		},
	};
}
