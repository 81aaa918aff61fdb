import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { readFeed } from '../helpers/reporting';
import { imageStores, SOURCES, type ImageParent } from './reporting/images';
import { COMPANY_IDS } from './seed';

const WINDOW = { FromDateTime: '2000-01-01T00:00:00Z', ToDateTime: '2100-01-01T00:00:00Z' };
const SINCE_EVER = { ModifiedSince: '2000-01-01T00:00:00Z' };
const ENDPOINTS = [
	'/v1/time-registrations',
	'/v1/payroll-lines',
	'/v1/payroll-lines-extended',
	'/v1/absence-registrations',
	'/v1/machine-registrations',
	'/v1/images',
	'/v1/checklist-registrations',
	'/v1/machine-checklist-registrations',
	'/v1/incident-registrations',
	'/v1/machine-incident-registrations',
	'/v1/project',
	'/v1/project/work-breakdown-structure',
	'/v1/resource',
	'/v1/user',
];

describe('sandbox: reporting feeds', () => {
	const sb = useSandbox({ scale: 300, split: true });
	let token: string;
	const get = (path: string, query: Record<string, string | number | boolean | string[] | undefined> = {}) =>
		call(sb().reportingUrl, path, { token, query });
	const activity = async (json: Record<string, unknown>) => {
		const res = await call(sb().coreUrl, '/__sandbox/activity', { method: 'POST', json });
		expect(res.status).toBe(200);
		return res.body.ids as string[];
	};

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	it.each(ENDPOINTS)(
		'%s answers the envelope, and a multi-page run equals a single-page run',
		async (path) => {
			const page = await get(path, { ...WINDOW, ChunkLimit: 3 });
			expect(page.status).toBe(200);
			expect(Array.isArray(page.body.data)).toBe(true);
			expect(page.body.data.length).toBeGreaterThan(0);
			expect(page.body).toHaveProperty('meta');
			expect(page.body).toHaveProperty('links');
			const paged = await readFeed(sb(), path, WINDOW, 7);
			const whole = await readFeed(sb(), path, WINDOW, 10_000);
			const key = (r: Record<string, unknown>) => `${r.id}|${r.collectionRef ?? ''}|${r.idRef ?? ''}`;
			expect(paged.map(key)).toEqual(whole.map(key));
			expect(new Set(whole.map(key)).size).toBe(whole.length);
			expect(
				whole.every(
					(r) => typeof r.modifiedDateTime === 'string' || typeof r.parentModifiedDateTime === 'string',
				),
			).toBe(true);
		},
	);

	it.each(['machine-registrations', 'absence-registrations'])(
		'%s: a deletion is a tombstone in incremental mode only',
		async (kind) => {
			const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now;
			await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 1 } });
			const [id] = await activity({ kind, action: 'delete' });
			const incremental = await readFeed(sb(), `/v1/${kind}`, { ModifiedSince: since });
			const tombstone = incremental.find((r) => r.id === id);
			expect(tombstone).toMatchObject({ isDeleted: true });
			expect(typeof tombstone?.deletedDateTime).toBe('string');
			const full = await readFeed(sb(), `/v1/${kind}`, WINDOW);
			expect(full.some((r) => r.id === id)).toBe(false);
			expect(full.some((r) => r.isDeleted === true)).toBe(false);
		},
	);

	it('a deleted time registration disappears; every action answers the affected ids; the ground truth keeps everything', async () => {
		const [created] = await activity({ kind: 'time-registrations', action: 'create' });
		const before = (await call(sb().coreUrl, '/__sandbox/clock')).body.now;
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 10 } });
		expect(await activity({ kind: 'time-registrations', action: 'update', ids: [created] })).toEqual([
			created,
		]);
		const updated = (await readFeed(sb(), '/v1/time-registrations', SINCE_EVER)).find(
			(r) => r.id === created,
		);
		expect(String(updated?.modifiedDateTime) > before).toBe(true);
		expect(await activity({ kind: 'time-registrations', action: 'delete', ids: [created] })).toEqual([
			created,
		]);
		expect((await readFeed(sb(), '/v1/time-registrations', SINCE_EVER)).some((r) => r.id === created)).toBe(
			false,
		);
		const truth = await call(sb().coreUrl, '/__sandbox/records/time-registrations');
		expect(truth.body.records.find((r: { id: string }) => r.id === created)).toMatchObject({
			isDeleted: true,
		});
		const submit = await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'time-registrations', action: 'submit' },
		});
		expect(submit.status).toBe(400);
		expect(
			(
				await call(sb().coreUrl, '/__sandbox/activity', {
					method: 'POST',
					json: { kind: 'nope', action: 'create' },
				})
			).status,
		).toBe(400);
		const images = await call(sb().coreUrl, '/__sandbox/records/images');
		expect(images.body.records[0]).toHaveProperty('collectionRef');
		expect(images.body.records[0]).toHaveProperty('idRef');
	});

	it('image URLs are absolute on the core address and download at the three sizes', async () => {
		const [row] = (await get('/v1/images', { ...WINDOW, ChunkLimit: 1 })).body.data;
		for (const [field, size] of [
			['thumbnailUrl', 128],
			['mediumUrl', 640],
			['largeUrl', 1980],
		] as const) {
			const url = String(row[field]);
			expect(url).toBe(`${sb().coreUrl}/api/file/${row.id}?MaxDimension=${size}`);
			const res = await call(sb().coreUrl, url.slice(sb().coreUrl.length), { token });
			expect(res.status).toBe(200);
			expect(res.raw.readUInt32BE(16)).toBeLessThanOrEqual(size);
			expect(Math.max(res.raw.readUInt32BE(16), res.raw.readUInt32BE(20))).toBe(size);
		}
		expect(row.downloadUrl).toBe(`${sb().coreUrl}/api/file/${row.id}`);
	});

	it('falls back to the parent’s coordinates for a photo without its own', async () => {
		await readFeed(sb(), '/v1/images', WINDOW);
		const stores = imageStores(sb().sandbox.world);
		const parents = SOURCES.flatMap((source) => stores.bySource[source].records as ImageParent[]);
		const parent = parents.find(
			(p) =>
				p.companyId !== COMPANY_IDS.other &&
				p.data.latitude !== null &&
				p.data.images.some((i) => i.latitude === null),
		)!;
		const image = parent.data.images.find((i) => i.latitude === null)!;
		const rows = await readFeed(sb(), '/v1/images', { ...WINDOW, ProjectId: parent.data.project.id });
		const row = rows.find((r) => r.id === image.id && r.idRef === parent.id);
		expect(row).toMatchObject({ latitude: parent.data.latitude, longitude: parent.data.longitude });
	});

	it('never fills roadReference for a company without the feature', async () => {
		const project = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.subsidiary,
		)!;
		const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now;
		const [parent] = await activity({ kind: 'images', action: 'create', projectId: project.id });
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 60 } });
		const rows = (await readFeed(sb(), '/v1/images', { ModifiedSince: since })).filter(
			(r) => r.idRef === parent,
		);
		expect(rows.length).toBeGreaterThan(0);
		expect(rows.every((r) => r.companyId === COMPANY_IDS.subsidiary && r.roadReference === null)).toBe(true);
	});

	it('ExcludeDataFromSubsidiaries keeps only the caller’s company where the endpoint lists it, and is ignored elsewhere', async () => {
		const everything = await readFeed(sb(), '/v1/project', {});
		expect(new Set(everything.map((r) => r.companyId))).toEqual(
			new Set([COMPANY_IDS.main, COMPANY_IDS.subsidiary]),
		);
		const unlisted = await readFeed(sb(), '/v1/time-registrations', {
			...WINDOW,
			ExcludeDataFromSubsidiaries: true,
		});
		expect(unlisted.some((r) => r.companyId === COMPANY_IDS.subsidiary)).toBe(true);
		const rows = await readFeed(sb(), '/v1/project', { ExcludeDataFromSubsidiaries: true });
		expect(rows.length).toBeGreaterThan(0);
		expect(new Set(rows.map((r) => r.companyId))).toEqual(new Set([COMPANY_IDS.main]));
	});

	it('answers malformed query values with 400, never 500', async () => {
		const bad = ['', 'x', '-1', '1.5', 'NaN', '2026-13-45', '9'.repeat(400), '%00', '{}', 'true,false'];
		const names = [
			'ChunkLimit',
			'FromDateTime',
			'ToDateTime',
			'ModifiedSince',
			'ModifiedBefore',
			'ContinuationToken',
			'IncludeSensitiveData',
			'RequireGeoCoordinate',
			'OwnCompanyDataOnly',
			'CompanyId',
			'ProjectId',
			'Sources',
		];
		for (const path of [
			'/v1/time-registrations',
			'/v1/images',
			'/v1/absence-registrations',
			'/v1/machine-registrations',
			'/v1/user',
		]) {
			for (const name of names) {
				for (const value of bad) {
					const res = await get(path, { [name]: value });
					expect(res.status).toBeLessThan(500);
				}
			}
		}
		expect((await get('/v1/time-registrations', { FromDateTime: 'yesterday' })).status).toBe(400);
		expect((await get('/v1/time-registrations', { ChunkLimit: 'ten' })).status).toBe(400);
		expect((await get('/v1/time-registrations', { ContinuationToken: 'not-a-token' })).status).toBe(400);
	});
});
