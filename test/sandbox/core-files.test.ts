import { PNG } from 'pngjs';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { renderPng, renderPdf } from './files';
import { COMPANY_IDS } from './seed';

/** A PNG written by pngjs with its own filter choice (so the resizer's pngjs path is used). */
function pngjsImage(width: number, height: number): Buffer {
	const png = new PNG({ width, height });
	for (let i = 0; i < width * height; i++) png.data.set([(i * 7) & 255, (i >> 3) & 255, 128, 255], i * 4);
	return PNG.sync.write(png);
}

const size = (bytes: Buffer) => {
	const png = PNG.sync.read(bytes);
	return [png.width, png.height];
};

describe('sandbox core: GET /api/file/{fileReferenceId}', () => {
	const sb = useSandbox();
	let admin: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });

	/** Uploads files as documents of a project of the given client's company; answers their file reference ids. */
	async function store(
		files: { name: string; content: Buffer; type: string }[],
		token = admin,
		companyId: string = COMPANY_IDS.main,
	): Promise<string[]> {
		const project = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === companyId)!;
		const form = new FormData();
		for (const file of files) form.append('file', new Blob([file.content], { type: file.type }), file.name);
		const res = await call(sb().coreUrl, `/api/v4/integration/projects/${project.id}/documents`, {
			method: 'POST',
			token,
			body: form,
			query: { section: 'Bilder' },
		});
		expect(res.status).toBe(200);
		return res.body.files.map((f: { fileReference: { id: string } }) => f.fileReference.id);
	}

	let landscape: string;
	let portrait: string;
	let small: string;
	let sniffed: string;
	let pdf: string;
	let corrupt: string;
	const landscapeBytes = renderPng(2400, 1200, 3);

	beforeAll(async () => {
		admin = await tokenFor(sb());
		[landscape, portrait, small, sniffed, pdf, corrupt] = await store([
			{ name: 'landskap.png', content: landscapeBytes, type: 'image/png' },
			{ name: 'portrett.png', content: pngjsImage(700, 2100), type: 'image/png' },
			{ name: 'liten.png', content: renderPng(100, 50, 1), type: 'image/png' },
			{ name: 'uten-type', content: renderPng(1000, 500, 2), type: '' },
			{ name: 'rapport.pdf', content: renderPdf('Rapport'), type: 'application/pdf' },
			{
				name: 'ødelagt.png',
				content: Buffer.concat([landscapeBytes.subarray(0, 40), Buffer.from('garbage')]),
				type: 'image/png',
			},
		]);
		// Large pictures rendered and parsed in JavaScript: about 50 s on a quiet machine, more under load.
	}, 300_000);

	it('serves the stored bytes with its content type and 14-day cache headers', async () => {
		const res = await api(`/api/file/${landscape}`);
		expect(res.status).toBe(200);
		expect(res.raw.equals(landscapeBytes)).toBe(true);
		expect(res.headers['content-type']).toBe('image/png');
		expect(res.headers['cache-control']).toBe('private, max-age=1209600');
		expect(res.headers['content-disposition']).toContain('filename="landskap.png"');
	});

	it.each([
		[128, [128, 64], [43, 128]],
		[640, [640, 320], [213, 640]],
		[1980, [1980, 990], [660, 1980]],
	])(
		'MaxDimension=%i really resizes: the longest side becomes at most that',
		async (max, landscapeSize, portraitSize) => {
			const wide = await api(`/api/file/${landscape}`, { query: { MaxDimension: max } });
			expect(wide.status).toBe(200);
			expect(wide.headers['cache-control']).toBe('private, max-age=1209600');
			expect(size(wide.raw)).toEqual(landscapeSize);
			expect(size((await api(`/api/file/${portrait}`, { query: { MaxDimension: max } })).raw)).toEqual(
				portraitSize,
			);
			// Cached variants answer the same bytes again.
			expect(
				(await api(`/api/file/${landscape}`, { query: { MaxDimension: max } })).raw.equals(wide.raw),
			).toBe(true);
		},
	);

	it('keeps the picture when resizing (a corner pixel keeps its colour)', async () => {
		const original = PNG.sync.read(landscapeBytes);
		const resized = PNG.sync.read(
			(await api(`/api/file/${landscape}`, { query: { MaxDimension: 640 } })).raw,
		);
		const last = (png: PNG) => Array.from(png.data.subarray(png.data.length - 4));
		expect(Array.from(resized.data.subarray(0, 4))).toEqual(Array.from(original.data.subarray(0, 4)));
		const [r, g] = last(resized);
		const [R, G] = last(original);
		expect(Math.abs(r - R)).toBeLessThanOrEqual(8);
		expect(Math.abs(g - G)).toBeLessThanOrEqual(8);
	});

	it('never upscales; recognises a PNG stored without an image content type; serves other files as stored', async () => {
		expect(size((await api(`/api/file/${small}`, { query: { MaxDimension: 1980 } })).raw)).toEqual([100, 50]);
		expect(size((await api(`/api/file/${sniffed}`, { query: { MaxDimension: 128 } })).raw)).toEqual([
			128, 64,
		]);
		const document = await api(`/api/file/${pdf}`, { query: { MaxDimension: 128 } });
		expect(document.status).toBe(200);
		expect(document.raw.equals(renderPdf('Rapport'))).toBe(true);
		const broken = await api(`/api/file/${corrupt}`, { query: { MaxDimension: 128 } });
		expect(broken.status).toBe(200);
		expect(broken.raw.subarray(-7).toString()).toBe('garbage');
	});

	it.each(['300', '0', '-128', 'big', '128.5'])(
		'refuses MaxDimension=%s with a 400 naming it',
		async (value) => {
			const res = await api(`/api/file/${landscape}`, { query: { MaxDimension: value } });
			expect(res.status).toBe(400);
			expect(res.body.errors[0].field).toBe('MaxDimension');
		},
	);

	it('refuses another company’s file (403), answers 404 for an unknown one, needs a token', async () => {
		const other = await tokenFor(sb(), 'fieldops-other');
		const [foreign] = await store(
			[{ name: 'fremmed.png', content: renderPng(10, 10, 4), type: 'image/png' }],
			other,
			COMPANY_IDS.other,
		);
		expect((await api(`/api/file/${foreign}`)).status).toBe(403);
		expect((await call(sb().coreUrl, `/api/file/${foreign}`, { token: other })).status).toBe(200);
		expect((await call(sb().coreUrl, `/api/file/${landscape}`, { token: other })).status).toBe(403);
		const missing = await api(`/api/file/${encodeURIComponent('no/such|file')}`);
		expect(missing.status).toBe(404);
		expect(missing.body.message).toContain('no/such|file');
		expect((await call(sb().coreUrl, `/api/file/${landscape}`)).status).toBe(401);
	});
});
