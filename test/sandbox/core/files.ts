import { badRequest, queryInt, type Reply } from '../http';
import { fileBytes, fileStore, type StoredFile } from '../files';
import { decodePng, encodePng } from '../png';
import type { Router } from '../router';
import type { Variant } from '../variant';
import { ensureAccess } from './access';

/** The resize variants the service offers; other MaxDimension values are refused with 400 (see README.md). */
export const MAX_DIMENSIONS = [128, 640, 1980];
/** 14 days, the spec's default file cache lifetime. */
export const FILE_CACHE_CONTROL = `private, max-age=${14 * 24 * 3600}`;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Resized variants per file and size, dropped with the file. */
const resizedCache = new WeakMap<StoredFile, Map<number, Buffer>>();

/** Nearest-neighbour downscale so the longest side is at most `max`; never upscales. */
function resize(png: Buffer, max: number): Buffer {
	const source = decodePng(png);
	const scale = Math.min(1, max / Math.max(source.width, source.height));
	if (scale === 1) return png;
	const width = Math.max(1, Math.round(source.width * scale));
	const height = Math.max(1, Math.round(source.height * scale));
	const data = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		const sy = Math.min(source.height - 1, Math.floor(y / scale));
		for (let x = 0; x < width; x++) {
			const from = (sy * source.width + Math.min(source.width - 1, Math.floor(x / scale))) << 2;
			data.set(source.data.subarray(from, from + 4), (y * width + x) << 2);
		}
	}
	return encodePng({ width, height, data });
}

/**
 * The bytes served for `MaxDimension`: PNGs (recognised by their signature, whatever the stored content type)
 * are resized; other files, and PNGs that cannot be decoded, are served as stored.
 */
function variant(file: StoredFile, max: number | undefined): Buffer {
	const bytes = fileBytes(file);
	if (max === undefined || !bytes.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return bytes;
	const cache = resizedCache.get(file) ?? new Map<number, Buffer>();
	resizedCache.set(file, cache);
	let resized = cache.get(max);
	if (!resized) {
		try {
			resized = resize(bytes, max);
		} catch {
			resized = bytes;
		}
		cache.set(max, resized);
	}
	return resized;
}

/**
 * `attachment` with an ASCII fallback name and the original name in RFC 5987 `filename*` [D6]; or `filename*`
 * only.
 */
export function contentDisposition(fileName: string, variant: Variant): string {
	const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
	const encoded = encodeURIComponent(fileName).replace(
		/['()*]/g,
		(c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
	);
	if (variant.contentDisposition === 'extendedOnly') return `attachment; filename*=UTF-8''${encoded}`;
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function registerFiles(router: Router): void {
	router.core('GET', '/api/file/{fileReferenceId}', (ctx, { world }): Reply => {
		const { fileReferenceId } = ctx.params;
		const file = ensureAccess(
			world,
			ctx.auth,
			fileStore(world).get(fileReferenceId),
			'File',
			fileReferenceId,
		);
		let max = queryInt(ctx, 'MaxDimension');
		if (max !== undefined && !MAX_DIMENSIONS.includes(max)) {
			// [E5] A lenient service serves the original for a size it does not offer.
			if (ctx.variant.queryValues === 'refused')
				throw badRequest(`MaxDimension must be one of ${MAX_DIMENSIONS.join(', ')}`, 'MaxDimension');
			max = undefined;
		}
		return {
			status: 200,
			body: variant(file, max),
			headers: {
				'Content-Type': file.contentType,
				'Content-Disposition': contentDisposition(file.fileName, ctx.variant),
				'Cache-Control': FILE_CACHE_CONTROL,
			},
		};
	});
}
