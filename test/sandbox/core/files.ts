import { badRequest, queryInt, type Reply } from '../http';
import { fileBytes, fileStore, type StoredFile } from '../files';
import { decodePng, encodePng } from '../png';
import type { Router } from '../router';
import { ensureAccess } from './access';

/** The resize variants the service offers; other MaxDimension values are refused (see core/README.md). */
export const MAX_DIMENSIONS = [128, 640, 1980];
const CACHE_SECONDS = 14 * 24 * 3600;

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

function variant(file: StoredFile, max: number | undefined): Buffer {
	const bytes = fileBytes(file);
	if (max === undefined || file.contentType !== 'image/png') return bytes;
	const cache = resizedCache.get(file) ?? new Map<number, Buffer>();
	resizedCache.set(file, cache);
	if (!cache.has(max)) cache.set(max, resize(bytes, max));
	return cache.get(max) as Buffer;
}

export function contentDisposition(fileName: string): string {
	const ascii = fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
	return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}

export function registerFiles(router: Router): void {
	router.core('GET', '/api/file/{fileReferenceId}', (ctx, { world }): Reply => {
		const { fileReferenceId } = ctx.params;
		const file = ensureAccess(world, ctx.auth, fileStore(world).get(fileReferenceId), 'File', fileReferenceId);
		const max = queryInt(ctx, 'MaxDimension');
		if (max !== undefined && !MAX_DIMENSIONS.includes(max)) throw badRequest(`MaxDimension must be one of ${MAX_DIMENSIONS.join(', ')}`, 'MaxDimension');
		return {
			status: 200,
			body: variant(file, max),
			headers: {
				'Content-Type': file.contentType,
				'Content-Disposition': contentDisposition(file.fileName),
				'Cache-Control': `private, max-age=${CACHE_SECONDS}`,
			},
		};
	});
}
