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

/**
 * An 8-bit palette PNG (filter "None"): the sandbox's seeded photos share their pixel indices and differ only
 * in the palette, so every photo of one size has the same byte size without being rendered.
 */
export function encodePalettePng(width: number, height: number, indices: Buffer, palette: Buffer): Buffer {
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([8, 3, 0, 0, 0], 8);
	return Buffer.concat([
		SIGNATURE,
		chunk('IHDR', header),
		chunk('PLTE', palette),
		chunk('IDAT', indices),
		chunk('IEND', Buffer.alloc(0)),
	]);
}

/** The deflated scanlines (filter byte 0 + one index per pixel) of a palette image. */
export function deflateIndices(
	width: number,
	height: number,
	index: (x: number, y: number) => number,
): Buffer {
	const raw = Buffer.alloc((width + 1) * height);
	for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) raw[y * (width + 1) + 1 + x] = index(x, y);
	return deflateSync(raw, { level: 1 });
}

function chunks(png: Buffer, type: string): Buffer[] {
	const parts: Buffer[] = [];
	for (let offset = 8; offset < png.length; ) {
		const length = png.readUInt32BE(offset);
		if (png.toString('ascii', offset + 4, offset + 8) === type)
			parts.push(png.subarray(offset + 8, offset + 8 + length));
		offset += length + 12;
	}
	return parts;
}

const unfiltered = (raw: Buffer, stride: number, height: number) =>
	raw.length === (stride + 1) * height &&
	Array.from({ length: height }, (_, y) => raw[y * (stride + 1)]).every((f) => f === 0);

export function decodePng(png: Buffer): Rgba {
	const width = png.readUInt32BE(16);
	const height = png.readUInt32BE(20);
	const simple = png[24] === 8 && png[25] === 6 && png[28] === 0;
	if (simple) {
		const raw = inflateSync(Buffer.concat(chunks(png, 'IDAT')));
		const stride = width * 4;
		if (unfiltered(raw, stride, height)) {
			const data = new Uint8Array(stride * height);
			for (let y = 0; y < height; y++)
				data.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
			return { width, height, data };
		}
	}
	const palette = png[24] === 8 && png[25] === 3 && png[28] === 0 ? chunks(png, 'PLTE')[0] : undefined;
	if (palette && chunks(png, 'tRNS').length === 0) {
		const raw = inflateSync(Buffer.concat(chunks(png, 'IDAT')));
		if (unfiltered(raw, width, height)) {
			const data = new Uint8Array(width * height * 4);
			for (let y = 0; y < height; y++) {
				for (let x = 0; x < width; x++) {
					const i = raw[y * (width + 1) + 1 + x] * 3;
					data.set([palette[i], palette[i + 1], palette[i + 2], 255], (y * width + x) * 4);
				}
			}
			return { width, height, data };
		}
	}
	const decoded = PNG.sync.read(png);
	return { width: decoded.width, height: decoded.height, data: decoded.data };
}
