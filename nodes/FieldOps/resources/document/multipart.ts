import { randomUUID } from 'crypto';
import type { IExecuteFunctions } from 'n8n-workflow';

/** One `file` part: its size is known up front, its bytes are read only while the body is sent. */
export interface FilePart {
	fileName: string;
	mimeType: string;
	size: number;
	read(): Promise<Uint8Array | AsyncIterable<Uint8Array>>;
}

/**
 * A binary of the item as a part. In n8n's filesystem (or S3) binary mode the file is streamed from the store
 * each time the body is sent, so it is never whole in memory; in memory mode its bytes are decoded once.
 */
export async function filePart(
	context: IExecuteFunctions,
	itemIndex: number,
	property: string,
	fileName: string,
): Promise<FilePart> {
	const binary = context.helpers.assertBinaryData(itemIndex, property);
	const mimeType = binary.mimeType || 'application/octet-stream';
	const id = binary.id;
	if (id) {
		const size = Number((await context.helpers.getBinaryMetadata(id)).fileSize);
		if (Number.isSafeInteger(size) && size >= 0)
			return { fileName, mimeType, size, read: async () => await context.helpers.getBinaryStream(id) };
	}
	const bytes = await context.helpers.getBinaryDataBuffer(itemIndex, property);
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
