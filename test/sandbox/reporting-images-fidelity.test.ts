import { PNG } from 'pngjs';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';

const WINDOW = { FromDateTime: '2000-01-01T00:00:00Z', ToDateTime: '2100-01-01T00:00:00Z' };

/** #15: image rows as the spec describes them, whatever the variant. */
describe.each(['default', 'alt'] as const)('sandbox images (%s): coordinates and file sizes', (variant) => {
	const sb = useSandbox({ variant, scale: 30 });
	let token: string;
	const images = async (query: Record<string, string | boolean>) => {
		const res = await call(sb().reportingUrl, '/v1/images', {
			token,
			query: { ...query, ChunkLimit: 10_000 },
		});
		expect(res.status).toBe(200);
		return res.body.data as Record<string, unknown>[];
	};

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	it('RequireGeoCoordinate=true drops images with neither own nor parent coordinates, also when both are absent', async () => {
		// A project without a location: its images' parents have no coordinates at all (not even null).
		const project = await call(sb().coreUrl, '/api/v4/integration/projects', {
			method: 'POST',
			token,
			json: { companyId: COMPANY_IDS.main, projectNumber: `GEO-${process.pid}` },
		});
		const since = new Date(
			Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now) - 1000,
		).toISOString();
		const activity = await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: {
				kind: 'images',
				action: 'create',
				count: 6,
				projectId: project.body.id,
				withoutCoordinates: true,
			},
		});
		const parents = new Set<string>(activity.body.ids);
		const all = (await images({ ModifiedSince: since })).filter((row) => parents.has(String(row.idRef)));
		expect(all.length).toBeGreaterThanOrEqual(6);
		for (const row of all) expect([row.latitude, row.longitude]).toEqual([null, null]);
		const geo = (await images({ ModifiedSince: since, RequireGeoCoordinate: true })).filter((row) =>
			parents.has(String(row.idRef)),
		);
		expect(geo).toEqual([]);
	});

	it('keeps images with coordinates of their own or of their parent, as numbers', async () => {
		const geo = await images({ ...WINDOW, RequireGeoCoordinate: true });
		expect(geo.length).toBeGreaterThan(0);
		for (const row of geo) {
			expect(typeof row.latitude).toBe('number');
			expect(typeof row.longitude).toBe('number');
		}
	});

	it('fileSize is the byte size of the original the file endpoint serves; the variants are still resized', async () => {
		const rows = (await images(WINDOW)).slice(0, 3);
		for (const row of rows) {
			const original = await call(String(row.downloadUrl), '', { token });
			expect(original.status).toBe(200);
			expect(row.fileSize).toBe(original.raw.length);
			expect(row.fileSize).toBeGreaterThan(0);
		}
		const thumbnail = await call(String(rows[0].thumbnailUrl), '', { token });
		const png = PNG.sync.read(thumbnail.raw);
		expect(Math.max(png.width, png.height)).toBe(128);
	});
});
