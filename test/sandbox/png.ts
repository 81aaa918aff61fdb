import { crc32, deflateSync, inflateSync } from 'node:zlib';

import { PNG } from 'pngjs';

/**
 * A minimal RGBA PNG encoder/decoder for the sandbox's own photos (8-bit RGBA, filter "None"): pngjs's
 * filter search is slow inside jest's module sandbox. Other PNGs are decoded with pngjs.
 */
export interface Rgba {
	width: number;
	height: number;
	data: Uint8Array;
}

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function chunk(type: string, body: Buffer): Buffer {
	const head = Buffer.alloc(8);
	head.writeUInt32BE(body.length, 0);
	head.write(type, 4, 'ascii');
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
	return Buffer.concat([head, body, crc]);
}

export function encodePng({ width, height, data }: Rgba): Buffer {
	const stride = width * 4;
	const raw = Buffer.alloc((stride + 1) * height);
	for (let y = 0; y < height; y++) raw.set(data.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 6, 0, 0, 0], 8);
	return Buffer.concat([
		SIGNATURE,
		chunk('IHDR', header),
		chunk('IDAT', deflateSync(raw, { level: 1 })),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

export function decodePng(png: Buffer): Rgba {
	const width = png.readUInt32BE(16);
	const height = png.readUInt32BE(20);
	const simple = png[24] === 8 && png[25] === 6 && png[28] === 0;
	if (simple) {
		const parts: Buffer[] = [];
		for (let offset = 8; offset < png.length; ) {
			const length = png.readUInt32BE(offset);
			if (png.toString('ascii', offset + 4, offset + 8) === 'IDAT')
				parts.push(png.subarray(offset + 8, offset + 8 + length));
			offset += length + 12;
		}
		const raw = inflateSync(Buffer.concat(parts));
		const stride = width * 4;
		if (
			raw.length === (stride + 1) * height &&
			Array.from({ length: height }, (_, y) => raw[y * (stride + 1)]).every((f) => f === 0)
		) {
			const data = new Uint8Array(stride * height);
			for (let y = 0; y < height; y++)
				data.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
			return { width, height, data };
		}
	}
	const decoded = PNG.sync.read(png);
	return { width: decoded.width, height: decoded.height, data: decoded.data };
}
