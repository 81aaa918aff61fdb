import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

/** What n8n's `prepareBinaryData` accepts besides a Buffer: a Node stream. */
type StreamBody = Exclude<Parameters<IExecuteFunctions['helpers']['prepareBinaryData']>[0], Buffer>;
type Listener = (argument?: unknown) => void;

/** Bytes queued before `write` waits for the binary store to take them. */
const HIGH_WATER_BYTES = 1024 * 1024;

class StoreStopped extends Error {
	constructor(readonly cause?: unknown) {
		super('n8n’s binary store stopped reading the file');
	}
}

/**
 * The bytes of a file being written, for n8n's binary store, with back-pressure: `write` waits while more than
 * 1 MiB is queued. Community nodes may not import Node's `stream`, so this is the part of a readable stream n8n's
 * stores use: async iteration (filesystem mode writes the file with `fs.writeFile`, which iterates it) and the
 * `data`/`end`/`error`/`close` events with `destroy` (the memory, database and S3 modes buffer it with
 * `binaryToBuffer`).
 */
export class ByteChannel implements AsyncIterable<Buffer> {
	private readonly chunks: Buffer[] = [];
	private queued = 0;
	private ended = false;
	private failure: unknown;
	private stopped: StoreStopped | undefined;
	private wakeReader: (() => void) | undefined;
	private wakeWriter: (() => void) | undefined;
	private readonly listeners = new Map<string, Listener[]>();
	private flowing = false;

	/** Queues text (UTF-8) or bytes; waits while the store is behind. Throws once the store stopped reading. */
	async write(data: string | Buffer): Promise<void> {
		if (this.stopped) throw this.stopped;
		const chunk = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
		if (chunk.length === 0) return;
		this.chunks.push(chunk);
		this.queued += chunk.length;
		this.wake('reader');
		while (this.queued > HIGH_WATER_BYTES && !this.stopped)
			await new Promise<void>((resolve) => (this.wakeWriter = resolve));
		if (this.stopped) throw this.stopped;
	}

	/** The file is complete. */
	end(): void {
		this.ended = true;
		this.wake('reader');
	}

	/** The file cannot be completed: the store gets the error and keeps nothing. */
	fail(error: unknown): void {
		this.failure = error ?? new Error('The file could not be written');
		this.wake('reader');
	}

	/** The store stopped reading (its own error, or it went away). */
	stop(cause?: unknown): void {
		this.stopped ??= new StoreStopped(cause);
		this.chunks.length = 0;
		this.queued = 0;
		this.wake('writer');
		this.wake('reader');
	}

	async *[Symbol.asyncIterator](): AsyncGenerator<Buffer> {
		try {
			for (;;) {
				const chunk = this.chunks.shift();
				if (chunk) {
					this.queued -= chunk.length;
					if (this.queued <= HIGH_WATER_BYTES) this.wake('writer');
					yield chunk;
					continue;
				}
				if (this.failure !== undefined) throw this.failure;
				if (this.ended || this.stopped) return;
				await new Promise<void>((resolve) => (this.wakeReader = resolve));
			}
		} finally {
			if (!this.ended || this.chunks.length > 0) this.stop();
		}
	}

	on(event: string, listener: Listener): this {
		this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
		if (event === 'data' && !this.flowing) void this.flow();
		return this;
	}

	once(event: string, listener: Listener): this {
		const wrapped: Listener = (argument) => {
			this.off(event, wrapped);
			listener(argument);
		};
		return this.on(event, wrapped);
	}

	off(event: string, listener: Listener): this {
		this.listeners.set(
			event,
			(this.listeners.get(event) ?? []).filter((candidate) => candidate !== listener),
		);
		return this;
	}

	removeListener(event: string, listener: Listener): this {
		return this.off(event, listener);
	}

	destroy(error?: unknown): this {
		this.stop(error);
		return this;
	}

	private emit(event: string, argument?: unknown): void {
		for (const listener of this.listeners.get(event) ?? []) listener(argument);
	}

	/** Event mode: hands every chunk to the `data` listeners, then `end` (or `error`), then `close`. */
	private async flow(): Promise<void> {
		this.flowing = true;
		try {
			for await (const chunk of this) this.emit('data', chunk);
			if (!this.stopped) this.emit('end');
		} catch (error) {
			this.emit('error', error);
		}
		this.emit('close');
	}

	private wake(who: 'reader' | 'writer'): void {
		const wake = who === 'reader' ? this.wakeReader : this.wakeWriter;
		if (who === 'reader') this.wakeReader = undefined;
		else this.wakeWriter = undefined;
		wake?.();
	}
}

/**
 * Writes a file into n8n's binary store while `produce` makes its bytes: with filesystem binary data (n8n's
 * default outside queue mode) the bytes go to disk as they are written, so the node never holds the file. If
 * `produce` fails, the store keeps nothing and its error is thrown; if the store fails (a full disk), `produce`
 * is stopped at its next write and the store's error is thrown.
 */
export async function streamToBinary<T>(
	context: IExecuteFunctions,
	file: { fileName: string; mimeType: string },
	produce: (channel: ByteChannel) => Promise<T>,
): Promise<{ binary: IBinaryData; result: T }> {
	const channel = new ByteChannel();
	let storeError: unknown;
	const stored = context.helpers
		.prepareBinaryData(channel as unknown as StreamBody, file.fileName, file.mimeType)
		.then(
			(binary) => binary,
			(error: unknown) => {
				storeError = error;
				channel.stop(error);
				return undefined;
			},
		);
	let result: T;
	try {
		result = await produce(channel);
	} catch (error) {
		channel.fail(error);
		await stored;
		throw error instanceof StoreStopped && storeError !== undefined ? storeError : error;
	}
	channel.end();
	const binary = await stored;
	if (!binary) throw storeError;
	return { binary, result };
}
