import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';

const BASE = '/api/external-excavator-state';

describe('sandbox: machine-state API', () => {
	const sb = useSandbox({ split: true });
	let token: string;
	let projectId: string;
	let otherProjectId: string;
	const post = (path: string, json: unknown, bearer = token) =>
		call(sb().machineStateUrl, `${BASE}${path}`, { method: 'POST', token: bearer, json });
	const record = (
		state: string,
		startTime: string,
		endTime: string,
		extra: Record<string, unknown> = {},
	) => ({ companyId: COMPANY_IDS.main, projectId, machineId: 'EX-1', state, startTime, endTime, ...extra });

	beforeAll(async () => {
		token = await tokenFor(sb(), 'fieldops-admin');
		const projects = [...sb().sandbox.world.projects.values()];
		projectId = projects.find((p) => p.companyId === COMPANY_IDS.main)!.id;
		otherProjectId = projects.find((p) => p.companyId === COMPANY_IDS.other)!.id;
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});

	it('needs the masstransportapiv1 scope and lives on the machine-state address only', async () => {
		const reportingOnly = await tokenFor(sb(), 'fieldops-reporting');
		expect(
			(await post('', record('digging', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'), reportingOnly))
				.status,
		).toBe(403);
		expect(
			(
				await call(sb().coreUrl, BASE, {
					method: 'POST',
					token,
					json: record('digging', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'),
				})
			).status,
		).toBe(404);
	});

	it('latest-timestamp is null before any record, then the newest endTime', async () => {
		const latest = () =>
			call(sb().machineStateUrl, `${BASE}/latest-timestamp/${COMPANY_IDS.main}/${projectId}`, { token });
		expect((await latest()).body).toEqual({ companyId: COMPANY_IDS.main, projectId, latestTimestamp: null });
		const created = await post('', record('digging', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'));
		expect(created.status).toBe(201);
		expect(created.body).toMatchObject({ state: 'digging', machineId: 'EX-1' });
		expect(typeof created.body.id).toBe('string');
		expect((await latest()).body.latestTimestamp).toBe('2026-11-01T09:00:00.000Z');
		expect(
			(
				await call(sb().machineStateUrl, `${BASE}/latest-timestamp/${COMPANY_IDS.other}/${otherProjectId}`, {
					token,
				})
			).status,
		).toBe(403);
	});

	it('import keeps going past bad records and reports them per index', async () => {
		const res = await post('/import', [
			record('idle', '2026-11-02T08:00:00Z', '2026-11-02T08:30:00Z'),
			record('idle', '2026-11-02T09:00:00Z', '2026-11-02T08:00:00Z'),
			{ ...record('idle', '2026-11-02T10:00:00Z', '2026-11-02T10:30:00Z'), machineId: undefined },
			record('idle', '2026-11-02T10:00:00Z', '2026-11-02T10:30:00Z', {
				companyId: COMPANY_IDS.other,
				projectId: otherProjectId,
			}),
			record('digging', '2026-11-02T11:00:00Z', '2026-11-02T12:00:00Z'),
		]);
		expect(res.status).toBe(201);
		expect(res.body.imported).toBe(2);
		expect(res.body.failed.map((f: { index: number }) => f.index)).toEqual([1, 2, 3]);
		expect(res.body.failed[1].errors[0].field).toBe('machineId');
		expect((await post('/import', { not: 'an array' })).status).toBe(400);
	});

	it('aggregates durations per state, clipped to the period', async () => {
		// The records the two tests before write: digging 1 h on 11-01; idle 30 min and digging 1 h on 11-02.
		await post('/import', [
			record('digging', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'),
			record('idle', '2026-11-02T08:00:00Z', '2026-11-02T08:30:00Z'),
			record('digging', '2026-11-02T11:00:00Z', '2026-11-02T12:00:00Z'),
		]);
		const res = await post('/aggregated-data-per-state', {
			companyId: COMPANY_IDS.main,
			projectId,
			machineId: 'EX-1',
			from: '2026-11-01T08:30:00Z',
			to: '2026-11-02T23:00:00Z',
		});
		expect(res.status).toBe(200);
		expect(res.body).toEqual([
			{ state: 'digging', durationSeconds: 1800 + 3600, recordCount: 2 },
			{ state: 'idle', durationSeconds: 1800, recordCount: 1 },
		]);
		expect(
			(await post('/aggregated-data-per-state', { companyId: COMPANY_IDS.other, projectId: otherProjectId }))
				.status,
		).toBe(403);
		expect(
			(await post('/aggregated-data-per-state', { companyId: COMPANY_IDS.main, projectId, from: 'soon' }))
				.status,
		).toBe(400);
	});

	it('validates the single record: every field, dates, another company', async () => {
		expect(
			(await post('', { ...record('x', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z'), state: undefined }))
				.status,
		).toBe(400);
		expect((await post('', record('x', 'not a date', '2026-11-01T09:00:00Z'))).status).toBe(400);
		expect((await post('', record('x', '2026-11-01T10:00:00Z', '2026-11-01T09:00:00Z'))).status).toBe(400);
		expect(
			(
				await post(
					'',
					record('x', '2026-11-01T08:00:00Z', '2026-11-01T09:00:00Z', {
						companyId: COMPANY_IDS.other,
						projectId: otherProjectId,
					}),
				)
			).status,
		).toBe(403);
	});
});
