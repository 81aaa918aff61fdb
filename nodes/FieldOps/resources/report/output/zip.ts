import { FieldOpsFailure } from '../../../transport/errors';
import { crc32 } from './xlsx';

interface Entry {
	name: Buffer;
	crc: number;
	size: number;
	offset: number;
}

const LIMIT = 0xffffffff;
/** General purpose flag: names are UTF-8. */
const UTF8 = 0x0800;

/**
 * A ZIP archive of stored (uncompressed) entries, written front to back: each entry's CRC-32 and size are known
 * before its bytes (so no data descriptors, which some readers refuse on stored entries). Up to 4 GiB (no ZIP64).
 */
export class ZipWriter {
	private readonly entries: Entry[] = [];
	private offset = 0;
	private readonly time: number;
	private readonly date: number;

	constructor(
		private readonly sink: (bytes: Buffer) => Promise<void>,
		at: Date,
	) {
		this.time = (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | (at.getUTCSeconds() >> 1);
		this.date = ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate();
	}

	/** A whole entry. */
	async file(name: string, content: string | Buffer): Promise<void> {
		const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
		await this.open(name, crc32(bytes), bytes.length);
		await this.write(bytes);
	}

	/** An entry's header: exactly `size` bytes must follow through {@link write}. */
	async open(name: string, crc: number, size: number): Promise<void> {
		if (this.offset + size > LIMIT)
			throw new FieldOpsFailure(
				'The export is too large for one Excel file (4 GB)',
				'Choose CSV as the File Format, or a shorter period.',
			);
		const entry: Entry = { name: Buffer.from(name, 'utf8'), crc, size, offset: this.offset };
		this.entries.push(entry);
		const header = Buffer.alloc(30);
		header.writeUInt32LE(0x04034b50, 0);
		header.writeUInt16LE(20, 4);
		this.common(header, 6, entry);
		header.writeUInt16LE(entry.name.length, 26);
		header.writeUInt16LE(0, 28);
		await this.write(Buffer.concat([header, entry.name]));
	}

	async write(bytes: Buffer): Promise<void> {
		this.offset += bytes.length;
		await this.sink(bytes);
	}

	/** The central directory and its end record. */
	async close(): Promise<void> {
		const start = this.offset;
		const records = this.entries.map((entry) => {
			const record = Buffer.alloc(46);
			record.writeUInt32LE(0x02014b50, 0);
			record.writeUInt16LE(20, 4);
			record.writeUInt16LE(20, 6);
			this.common(record, 8, entry);
			record.writeUInt16LE(entry.name.length, 28);
			record.writeUInt32LE(entry.offset, 42);
			return Buffer.concat([record, entry.name]);
		});
		const directory = Buffer.concat(records);
		const end = Buffer.alloc(22);
		end.writeUInt32LE(0x06054b50, 0);
		end.writeUInt16LE(this.entries.length, 8);
		end.writeUInt16LE(this.entries.length, 10);
		end.writeUInt32LE(directory.length, 12);
		end.writeUInt32LE(start, 16);
		await this.write(Buffer.concat([directory, end]));
	}

	/** Flags, method (0: stored), time, date, CRC and both sizes: the same in the local and central headers. */
	private common(buffer: Buffer, at: number, entry: Entry): void {
		buffer.writeUInt16LE(UTF8, at);
		buffer.writeUInt16LE(0, at + 2);
		buffer.writeUInt16LE(this.time, at + 4);
		buffer.writeUInt16LE(this.date, at + 6);
		buffer.writeUInt32LE(entry.crc, at + 8);
		buffer.writeUInt32LE(entry.size, at + 12);
		buffer.writeUInt32LE(entry.size, at + 16);
	}
}
