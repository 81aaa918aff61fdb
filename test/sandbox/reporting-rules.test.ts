import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { readFeed } from '../helpers/reporting';
import { COMPANY_IDS } from './seed';

const WINDOW = { FromDateTime: '2000-01-01T00:00:00Z', ToDateTime: '2100-01-01T00:00:00Z' };

describe('sandbox: reporting rules', () => {
	const sb = useSandbox({ scale: 400, split: true });
	let token: string;
	const get = (
		path: string,
		query: Record<string, string | number | boolean | string[] | undefined> = {},
		bearer = token,
	) => call(sb().reportingUrl, path, { token: bearer, query });

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	it('refuses ChunkLimit outside 1–10000, a tampered token, a token with other parameters, and ModifiedBefore without a later ModifiedSince', async () => {
		expect((await get('/v1/time-registrations', { ChunkLimit: 0 })).status).toBe(400);
		expect((await get('/v1/time-registrations', { ChunkLimit: 10_001 })).status).toBe(400);
		const first = await get('/v1/time-registrations', { ...WINDOW, ChunkLimit: 5 });
		const tampered = `${first.body.continuationToken.slice(0, -2)}xx`;
		expect(
			(await get('/v1/time-registrations', { ...WINDOW, ChunkLimit: 5, ContinuationToken: tampered })).status,
		).toBe(400);
		expect(
			(
				await get('/v1/time-registrations', {
					...WINDOW,
					ChunkLimit: 6,
					ContinuationToken: first.body.continuationToken,
				})
			).status,
		).toBe(400);
		expect((await get('/v1/images', { ModifiedBefore: '2026-01-01T00:00:00Z' })).status).toBe(400);
		expect(
			(
				await get('/v1/images', {
					ModifiedSince: '2026-01-01T00:00:00Z',
					ModifiedBefore: '2026-01-01T00:00:00Z',
				})
			).status,
		).toBe(400);
		expect(first.body.links.next).toContain('ContinuationToken=');
	});

	it('never splits machine registrations that share one stop time across pages', async () => {
		// Five registrations reported in one batch share one exact stop time.
		await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'machine-registrations', action: 'create', count: 5 },
		});
		let continuationToken: string | undefined;
		const pages: { stopDateTime: string }[][] = [];
		do {
			const page = await get('/v1/machine-registrations', {
				...WINDOW,
				ChunkLimit: 3,
				ContinuationToken: continuationToken,
			});
			pages.push(page.body.data);
			continuationToken = page.body.continuationToken || undefined;
		} while (continuationToken);
		for (let i = 1; i < pages.length; i++)
			expect(pages[i][0].stopDateTime).not.toBe(pages[i - 1][pages[i - 1].length - 1].stopDateTime);
		expect(pages.some((page) => page.length > 3)).toBe(true);
	});

	it('orders full mode by date and incremental mode by modification time', async () => {
		const full = await readFeed(sb(), '/v1/absence-registrations', WINDOW, 50);
		expect(full.map((r) => r.date)).toEqual([...full.map((r) => r.date)].sort());
		const incremental = await readFeed(
			sb(),
			'/v1/absence-registrations',
			{ ModifiedSince: '2000-01-01T00:00:00Z' },
			50,
		);
		const times = incremental.map((r) => String(r.modifiedDateTime));
		expect(times).toEqual([...times].sort());
	});

	it('hides other companies’ people on machine registrations but keeps their company name', async () => {
		const records = await readFeed(sb(), '/v1/machine-registrations', WINDOW);
		const foreign = records.filter((r) => r.driverCompanyName === 'Fjellvei Entreprenør AS');
		expect(foreign.length).toBeGreaterThan(0);
		expect(foreign.every((r) => r.driverName === '' && r.driverId === '' && r.createdByName === '')).toBe(
			true,
		);
		expect(records.some((r) => r.driverName !== '')).toBe(true);
	});

	it('adds sensitive absence fields only when asked', async () => {
		const plain = (await get('/v1/absence-registrations', { ...WINDOW, ChunkLimit: 50 })).body.data;
		const sensitive = (
			await get('/v1/absence-registrations', { ...WINDOW, ChunkLimit: 50, IncludeSensitiveData: true })
		).body.data;
		expect(plain.some((r: Record<string, unknown>) => 'sickLeaveReason' in r)).toBe(false);
		expect(
			sensitive.every(
				(r: Record<string, unknown>) => 'sickLeaveReason' in r && 'childName' in r && 'childBirthDate' in r,
			),
		).toBe(true);
	});

	it('limits data to the company structure: CompanyId, OwnCompanyDataOnly, 403 for another company', async () => {
		const all = await readFeed(sb(), '/v1/images', WINDOW);
		expect(new Set(all.map((r) => r.companyId))).toEqual(new Set([COMPANY_IDS.main, COMPANY_IDS.subsidiary]));
		const own = await readFeed(sb(), '/v1/images', { ...WINDOW, OwnCompanyDataOnly: true });
		expect(new Set(own.map((r) => r.companyId))).toEqual(new Set([COMPANY_IDS.main]));
		const sub = await readFeed(sb(), '/v1/images', { ...WINDOW, CompanyId: COMPANY_IDS.subsidiary });
		expect(new Set(sub.map((r) => r.companyId))).toEqual(new Set([COMPANY_IDS.subsidiary]));
		expect((await get('/v1/images', { CompanyId: COMPANY_IDS.other })).status).toBe(403);
		const otherProject = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.other,
		)!;
		expect((await get('/v1/time-registrations', { ProjectId: otherProject.id })).status).toBe(403);
	});

	it('images: one row per (id, collectionRef, idRef), sources in order, coordinates from the parent, RequireGeoCoordinate', async () => {
		const rows = await readFeed(sb(), '/v1/images', WINDOW, 7);
		const keys = rows.map((r) => `${r.id}|${r.collectionRef}|${r.idRef}`);
		expect(new Set(keys).size).toBe(keys.length);
		expect(new Set(rows.map((r) => r.id)).size).toBeLessThan(rows.length);
		const sourceOrder = rows.map((r) => r.source).filter((s, i, list) => i === 0 || list[i - 1] !== s);
		expect(sourceOrder).toEqual(['feed', 'alert', 'checklist']);
		expect(rows.some((r) => r.latitude === null)).toBe(true);
		const geo = await readFeed(sb(), '/v1/images', { ...WINDOW, RequireGeoCoordinate: true });
		expect(geo.every((r) => r.latitude !== null && r.longitude !== null)).toBe(true);
		expect(geo.length).toBeLessThan(rows.length);
		expect(rows[0].thumbnailUrl).toBe(`${sb().coreUrl}/api/file/${rows[0].id}?MaxDimension=128`);
		const onlyAlerts = await readFeed(sb(), '/v1/images', { ...WINDOW, Sources: ['alert'] });
		expect(new Set(onlyAlerts.map((r) => r.source))).toEqual(new Set(['alert']));
		expect((await get('/v1/images', { Sources: 'camera' })).status).toBe(400);
		const page = (await get('/v1/images', { ...WINDOW, ChunkLimit: 5 })).body;
		expect(page).toMatchObject({
			syncTypeName: 'full',
			recordCount: page.data.length,
			deletedRecordCount: 0,
		});
	});

	it('fills roadReference a few seconds after a new image with coordinates appears', async () => {
		const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now;
		const [parent] = (
			await call(sb().coreUrl, '/__sandbox/activity', {
				method: 'POST',
				json: { kind: 'images', action: 'create' },
			})
		).body.ids;
		const read = async () =>
			(await readFeed(sb(), '/v1/images', { ModifiedSince: since })).filter((r) => r.idRef === parent);
		expect((await read()).every((r) => r.roadReference === null)).toBe(true);
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 5 } });
		const enriched = await read();
		expect(enriched.length).toBeGreaterThan(0);
		expect(
			enriched.every((r) => (r.roadReference as { provider?: string } | null)?.provider === 'NVDB'),
		).toBe(true);
	});

	it('links a PDF only after the record is submitted', async () => {
		const [id] = (
			await call(sb().coreUrl, '/__sandbox/activity', {
				method: 'POST',
				json: { kind: 'incident-registrations', action: 'create' },
			})
		).body.ids;
		const find = async () =>
			(await readFeed(sb(), '/v1/incident-registrations', { ModifiedSince: '2000-01-01T00:00:00Z' })).find(
				(r) => r.id === id,
			);
		expect((await find())?.pdfUrl).toBeNull();
		await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'incident-registrations', action: 'submit', ids: [id] },
		});
		const pdfUrl = String((await find())?.pdfUrl);
		expect(pdfUrl.startsWith(`${sb().coreUrl}/api/file/`)).toBe(true);
		const pdf = await call(sb().coreUrl, pdfUrl.slice(sb().coreUrl.length), { token });
		expect(pdf.raw.subarray(0, 5).toString()).toBe('%PDF-');
		expect(String(pdf.headers['cache-control'])).toContain('max-age=1209600');
	});
});
