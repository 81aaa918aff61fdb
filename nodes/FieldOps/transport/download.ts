import { sleep, type IBinaryData, type IExecuteFunctions } from 'n8n-workflow';

import { FieldOpsFailure, reachReason, settle } from './errors';
import { DEFAULT_TIMEOUT_MS } from './http';
import { readSettings } from './settings';
import { READ_RETRIES, retryDelayMs, send, type ApiRequest } from './transport';

/** The streamed body n8n hands over (a Node Readable; the strict lint forbids importing 'stream' for its type). */
interface ByteStream extends AsyncIterable<Buffer> {
	destroy(error?: Error): void;
}

/**
 * The body, failing when no bytes come for `ms`: n8n's timeout ends once the headers are in, so a server that
 * sends headers and then nothing would hold the download for ever.
 */
function stallGuard(body: ByteStream, ms: number): ByteStream {
	const source = body[Symbol.asyncIterator]();
	async function* chunks() {
		for (;;) {
			// The timer's listener is removed once the chunk is in: left on, each 60 s timer would keep its race, and
			// with it the chunk, alive until it fires (the whole file in memory).
			const signal = AbortSignal.timeout(ms);
			let onAbort: () => void = () => undefined;
			const stalled = new Promise<'stalled'>((resolve) => {
				onAbort = () => resolve('stalled');
				signal.addEventListener('abort', onAbort, { once: true });
			});
			let next: IteratorResult<Buffer> | 'stalled';
			try {
				next = await Promise.race([source.next(), stalled]);
			} finally {
				signal.removeEventListener('abort', onAbort);
			}
			if (next === 'stalled') {
				body.destroy();
				throw Object.assign(new Error('stalled'), { code: 'ETIMEDOUT' });
			}
			if (next.done) return;
			yield next.value;
		}
	}
	// The answer's own class (Readable) wraps the guarded chunks, as n8n's binary store needs a Readable.
	return (body.constructor as unknown as { from(chunks: AsyncIterable<Buffer>): ByteStream }).from(chunks());
}

/** The file name a Content-Disposition header carries (RFC 6266/5987 `filename*` preferred). */
export function fileNameFromDisposition(header: unknown): string | undefined {
	if (typeof header !== 'string') return undefined;
	const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
	if (extended) {
		try {
			return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
		} catch {
			// fall through to the plain filename
		}
	}
	const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
	return plain ? (plain[2] ?? plain[1]).trim() : undefined;
}

/** Whether a link from an answer lies under one of the credential's addresses (only those get the token). */
export async function isOwnUrl(context: IExecuteFunctions, url: string): Promise<boolean> {
	return (await readSettings(context)).isOwn(url);
}

/** A file of the Field Ops API (a path, or a link from an answer) into n8n's binary store, streamed. */
export async function downloadFile(
	context: IExecuteFunctions,
	request: Pick<ApiRequest, 'path' | 'params' | 'qs' | 'url' | 'what' | 'itemIndex' | 'timeoutMs'>,
	fallbackName: string,
): Promise<IBinaryData> {
	const timeoutMs = request.timeoutMs ?? DEFAULT_TIMEOUT_MS;
	for (let attempt = 0; ; attempt++) {
		const response = await send(context, { method: 'GET', what: 'file', ...request, expect: 'stream' });
		const fileName = fileNameFromDisposition(response.headers['content-disposition']) ?? fallbackName;
		const contentType = String(response.headers['content-type'] ?? '')
			.split(';')[0]
			.trim();
		const mimeType = contentType && contentType !== 'application/octet-stream' ? contentType : undefined;
		const body = stallGuard(response.body as ByteStream, timeoutMs);
		const saved = await settle(
			async () => await context.helpers.prepareBinaryData(body as never, fileName, mimeType),
		);
		if ('value' in saved) return saved.value;
		// Stalled or dropped in the middle of the file: fetched again from the start, like any failed read.
		if (attempt >= READ_RETRIES)
			throw new FieldOpsFailure(
				`The download of ${fileName} stopped before the end (${reachReason(saved.error)})`,
				'Try again; for large files or a slow connection, raise the Timeout option.',
			);
		await sleep(retryDelayMs(attempt + 1));
	}
}
