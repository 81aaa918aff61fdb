/**
 * The stream between the report's pages and n8n's binary store, against stores that misbehave (the real store,
 * in both of its ways of reading, is exercised by report-output.test.ts and report-file-memory.test.ts): a store
 * that stops half-way, a producer that fails, a slow store, and the event mode.
 */
import type { IBinaryData, IExecuteFunctions } from 'n8n-workflow';

import { ByteChannel, streamToBinary } from '../../nodes/FieldOps/resources/report/output/fileStream';

/** A context whose binary store reads the stream with `read` and answers what it returns. */
const storeWith = (read: (stream: ByteChannel) => Promise<IBinaryData>) =>
	({
		helpers: { prepareBinaryData: async (stream: unknown) => await read(stream as ByteChannel) },
	}) as unknown as IExecuteFunctions;

const FILE = { fileName: 'x.csv', mimeType: 'text/csv' };
const tick = () => new Promise((resolve) => setTimeout(resolve, 5));

describe('streaming a report file into the binary store', () => {
	it('hands over every byte in order and answers the stored file', async () => {
		let stored = '';
		const context = storeWith(async (stream) => {
			for await (const chunk of stream) stored += chunk.toString('utf8');
			return { data: '', mimeType: 'text/csv', fileName: 'x.csv' };
		});
		const { binary, result } = await streamToBinary(context, FILE, async (channel) => {
			for (let i = 0; i < 1000; i++) await channel.write(`row ${i}, æøå\r\n`);
			return 1000;
		});
		expect(result).toBe(1000);
		expect(binary.fileName).toBe('x.csv');
		expect(stored.split('\r\n')).toHaveLength(1001);
		expect(stored.startsWith('row 0, æøå\r\nrow 1, æøå\r\n')).toBe(true);
	});

	it('makes the producer wait while more than 1 MiB is queued (the store is slow)', async () => {
		let release: () => void = () => undefined;
		const gate = new Promise<void>((resolve) => (release = resolve));
		let storedBytes = 0;
		const context = storeWith(async (stream) => {
			await gate;
			for await (const chunk of stream) storedBytes += chunk.length;
			return { data: '', mimeType: 'text/csv' };
		});
		let written = 0;
		const running = streamToBinary(context, FILE, async (channel) => {
			for (let i = 0; i < 40; i++) {
				await channel.write(Buffer.alloc(100 * 1024, 97));
				written++;
			}
		});
		await tick();
		// 1 MiB of 100 KiB chunks, plus the one that crossed the line: the rest waits for the store.
		expect(written).toBeLessThanOrEqual(11);
		release();
		await running;
		expect(written).toBe(40);
		expect(storedBytes).toBe(40 * 100 * 1024);
	});

	it('stops the producer at its next write when the store fails, and throws the store’s error', async () => {
		const context = storeWith(async (stream) => {
			let seen = 0;
			for await (const chunk of stream) {
				seen += chunk.length;
				if (seen > 1000) throw new Error('ENOSPC: no space left on device');
			}
			return { data: '', mimeType: 'text/csv' };
		});
		let writes = 0;
		await expect(
			streamToBinary(context, FILE, async (channel) => {
				for (;;) {
					await channel.write('x'.repeat(600));
					writes++;
				}
			}),
		).rejects.toThrow('ENOSPC');
		expect(writes).toBeLessThan(10);
	});

	it('gives the producer’s error to the store, which keeps nothing, and throws the producer’s error', async () => {
		let storeSaw: unknown;
		const context = storeWith(async (stream) => {
			try {
				for await (const chunk of stream) void chunk;
			} catch (error) {
				storeSaw = error;
				throw error;
			}
			return { data: '', mimeType: 'text/csv' };
		});
		await expect(
			streamToBinary(context, FILE, async (channel) => {
				await channel.write('header\r\n');
				throw new Error('Time Registrations, page 3: the service answered 500');
			}),
		).rejects.toThrow('page 3');
		expect(String(storeSaw)).toContain('page 3');
	});

	it('in event mode (binaryToBuffer of the memory, database and S3 stores): data, then end, then close', async () => {
		const events: string[] = [];
		const context = storeWith(
			(stream) =>
				new Promise((resolve, reject) => {
					const chunks: Buffer[] = [];
					stream.on('data', (chunk) => chunks.push(chunk as Buffer));
					stream.once('end', () => {
						events.push('end');
						resolve({ data: Buffer.concat(chunks).toString('base64'), mimeType: 'text/csv' });
					});
					stream.once('error', reject);
					stream.once('close', () => events.push('close'));
				}),
		);
		const { binary } = await streamToBinary(context, FILE, async (channel) => {
			await channel.write('a,b\r\n');
			await channel.write(Buffer.from('1,2\r\n'));
		});
		await tick();
		expect(Buffer.from(binary.data, 'base64').toString()).toBe('a,b\r\n1,2\r\n');
		expect(events).toEqual(['end', 'close']);
	});
});
