import { deflateIndices, encodePalettePng, encodePng } from './png';

import type { World } from './state';

/**
 * Stored files behind `GET /api/file/{fileReferenceId}`: documents, image-feed photos, generated PDFs.
 * Content may be produced lazily (a seeded photo is only rendered when someone downloads it).
 */
export interface StoredFile {
	id: string;
	companyId: string;
	fileName: string;
	contentType: string;
	createdDateTime: string;
	/** Size in bytes; for lazy content, computed on first render. */
	size?: number;
	content: Buffer | (() => Buffer);
	/** Pixel size of images, so resized variants can be computed. */
	width?: number;
	height?: number;
}

const FILES_KEY = 'files';

export function fileStore(world: World): Map<string, StoredFile> {
	return world.state(FILES_KEY, () => new Map<string, StoredFile>());
}

export function addFile(
	world: World,
	file: Omit<StoredFile, 'id' | 'createdDateTime'> & { id?: string; createdDateTime?: string },
): StoredFile {
	const stored: StoredFile = {
		...file,
		id: file.id ?? world.newId(),
		createdDateTime: file.createdDateTime ?? world.clock.iso(),
	};
	fileStore(world).set(stored.id, stored);
	return stored;
}

export function fileBytes(file: StoredFile): Buffer {
	if (typeof file.content === 'function') {
		file.content = file.content();
		file.size = file.content.length;
	}
	return file.content;
}

/** A photo-like PNG (a colour gradient with a seeded tint), so resizing has real pixels to work on. */
export function renderPng(width: number, height: number, tint: number): Buffer {
	const data = new Uint8Array(width * height * 4);
	const r0 = (tint * 37) % 256;
	const g0 = (tint * 91) % 256;
	for (let y = 0; y < height; y++) {
		const g = ((g0 + (y * 255) / height) | 0) & 255;
		for (let x = 0; x < width; x++) {
			const i = (width * y + x) << 2;
			data[i] = ((r0 + (x * 255) / width) | 0) & 255;
			data[i + 1] = g;
			data[i + 2] = (((x + y) * 127) / (width + height)) | 0;
			data[i + 3] = 255;
		}
	}
	return encodePng({ width, height, data });
}

/** Pixel indices per photo size: the same for every photo, only the palette (tint) differs. */
const photoIndices = new Map<string, Buffer>();

/**
 * A seeded photo: a diagonal gradient through a palette tinted by `tint`. Every photo of one size has the same
 * byte size (`photoSize`), so image rows can tell it without rendering the photo.
 */
export function renderPhoto(width: number, height: number, tint: number): Buffer {
	const key = `${width}x${height}`;
	let indices = photoIndices.get(key);
	if (!indices) {
		indices = deflateIndices(width, height, (x, y) => (((x * 255) / width + (y * 255) / height) / 2) | 0);
		photoIndices.set(key, indices);
	}
	const palette = Buffer.alloc(256 * 3);
	for (let i = 0; i < 256; i++)
		palette.set([(tint * 37 + i) & 255, (tint * 91 + 255 - i) & 255, (i * 127) >> 8], i * 3);
	return encodePalettePng(width, height, indices, palette);
}

const photoSizes = new Map<string, number>();

/** The byte size of every `renderPhoto` of this size. */
export function photoSize(width: number, height: number): number {
	const key = `${width}x${height}`;
	let size = photoSizes.get(key);
	if (size === undefined) {
		size = renderPhoto(width, height, 0).length;
		photoSizes.set(key, size);
	}
	return size;
}

/** A minimal valid one-page PDF carrying `title`, standing in for the service's generated reports. */
export function renderPdf(title: string): Buffer {
	const text = title.replace(/[()\\]/g, (c) => `\\${c}`).replace(/[^\x20-\x7e]/g, '?');
	const stream = `BT /F1 18 Tf 72 720 Td (${text}) Tj ET`;
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		'<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
		`<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
		'<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
	];
	let pdf = '%PDF-1.4\n';
	const offsets: number[] = [];
	objects.forEach((body, i) => {
		offsets.push(pdf.length);
		pdf += `${i + 1} 0 obj\n${body}\nendobj\n`;
	});
	const xref = pdf.length;
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
	for (const offset of offsets) pdf += `${offset.toString().padStart(10, '0')} 00000 n \n`;
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}
