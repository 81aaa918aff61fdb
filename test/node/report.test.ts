import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import { PNG } from 'pngjs';

import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { N8nHarness } from '../harness';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const DAY = 86_400_000;

describe('Field Ops → Report', () => {
	const sb = useSandbox({ scale: 300 });
	let harness: N8nHarness;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	const resetStats = async () => call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	const windowParams = () => ({
		syncMode: 'window',
		fromDateTime: new Date(Date.now() - 90 * DAY).toISOString(),
		toDateTime: new Date(Date.now() + DAY).toISOString(),
	});
	const windowQuery = (params: { fromDateTime: string; toDateTime: string }) => ({
		FromDateTime: params.fromDateTime,
		ToDateTime: params.toDateTime,
	});
	const run = async (parameters: Record<string, unknown>, continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow({ resource: 'report', ...parameters }, { continueOnFail }));
	// [R1] Whole records: most feeds' id field is not shown in the spec (`id`, or `timeRegistrationId`…).
	const ids = (items: { json: Record<string, unknown> }[]) => items.map((item) => JSON.stringify(item.json));
	const served = (records: Record<string, unknown>[]) => ids(records.map((json) => ({ json })));

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it.each(REPORT_FEEDS.map((feed) => [feed.name, feed] as const))(
		'exports %s: the same records as the API, once each',
		async (_name, feed) => {
			const params = feed.dateWindow ? windowParams() : { listMode: 'all' };
			const result = await run({ operation: feed.value, ...params, returnAll: true });

			expect(result.error).toBeUndefined();
			const expected = await readFeed(
				sb(),
				feed.path,
				feed.dateWindow ? windowQuery(params as ReturnType<typeof windowParams>) : {},
			);
			const got = ids(result.items['Field Ops']);
			expect(new Set(got).size).toBe(got.length);
			expect(got.sort()).toEqual(served(expected).sort());
			expect(got.length).toBeGreaterThan(0);
		},
	);

	it('gives the same records with small pages as with one big page, and pairs every item with its input', async () => {
		const params = windowParams();
		const big = await run({ operation: 'timeRegistrations', ...params, returnAll: true });
		const small = await run({
			operation: 'timeRegistrations',
			...params,
			returnAll: true,
			options: { pageSize: 7 },
		});
		expect(ids(small.items['Field Ops'])).toEqual(ids(big.items['Field Ops']));
		expect(small.items['Field Ops'].every((item) => (item.pairedItem as { item: number }).item === 0)).toBe(
			true,
		);
	});

	it('stops requesting pages as soon as the Limit is reached', async () => {
		await resetStats();
		const one = await run({ operation: 'timeRegistrations', ...windowParams(), returnAll: false, limit: 30 });
		expect(one.items['Field Ops']).toHaveLength(30);
		expect((await stats()).requests['GET /v1/time-registrations']).toBe(1);

		// In one sequence (time slices have their own Limit test: report-slices).
		await resetStats();
		const three = await run({
			operation: 'timeRegistrations',
			...windowParams(),
			returnAll: false,
			limit: 25,
			options: { pageSize: 10, parallelRequests: 1 },
		});
		expect(three.items['Field Ops']).toHaveLength(25);
		expect((await stats()).requests['GET /v1/time-registrations']).toBe(3);
	});

	it('recovers from 500s in the middle of the pages without duplicates or gaps', async () => {
		const params = windowParams();
		const expected = await readFeed(sb(), '/v1/time-registrations', windowQuery(params), 50);
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/v1/time-registrations', status: 500, after: 2, times: 2 },
		});
		await resetStats();

		// In one sequence, whose requests are counted (time slices recover the same way: report-slices).
		const result = await run({
			operation: 'timeRegistrations',
			...params,
			returnAll: true,
			options: { pageSize: 50, parallelRequests: 1 },
		});

		expect(result.error).toBeUndefined();
		expect(ids(result.items['Field Ops'])).toEqual(served(expected));
		expect((await stats()).requests['GET /v1/time-registrations']).toBe(Math.ceil(expected.length / 50) + 2);
	});

	it('reports deleted machine registrations in Changed Since mode, or leaves them out', async () => {
		const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now as string;
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 5 } });
		const deleted = (
			await call(sb().coreUrl, '/__sandbox/activity', {
				method: 'POST',
				json: { kind: 'machine-registrations', action: 'delete', count: 2 },
			})
		).body.ids as string[];
		const updated = (
			await call(sb().coreUrl, '/__sandbox/activity', {
				method: 'POST',
				json: { kind: 'machine-registrations', action: 'update', count: 3 },
			})
		).body.ids as string[];

		const kept = await run({
			operation: 'machineRegistrations',
			syncMode: 'modifiedSince',
			modifiedSince: since,
			returnAll: true,
		});
		const tombstones = kept.items['Field Ops']
			.filter((item) => item.json.isDeleted === true)
			.map((item) => item.json.id);
		expect(tombstones.sort()).toEqual([...deleted].sort());
		expect(kept.items['Field Ops'].map((item) => item.json.id)).toEqual(expect.arrayContaining(updated));

		const dropped = await run({
			operation: 'machineRegistrations',
			syncMode: 'modifiedSince',
			modifiedSince: since,
			returnAll: true,
			options: { deletedRecords: 'drop' },
		});
		expect(dropped.items['Field Ops'].some((item) => item.json.isDeleted === true)).toBe(false);
		expect(dropped.items['Field Ops']).toHaveLength(kept.items['Field Ops'].length - deleted.length);
	});

	it('exports images of all three sources in one run', async () => {
		const result = await run({
			operation: 'images',
			...windowParams(),
			returnAll: true,
			options: { pageSize: 5 },
		});
		const sources = new Set(result.items['Field Ops'].map((item) => item.json.source));
		expect([...sources].sort()).toEqual(['alert', 'checklist', 'feed']);
	});

	it.each([
		['thumbnail', 128],
		['medium', 640],
		['large', 1980],
	])('downloads images at the %s size', async (imageSize, maxDimension) => {
		const result = await run({
			operation: 'images',
			...windowParams(),
			returnAll: false,
			limit: 1,
			options: { downloadFiles: true, imageSize },
		});
		const item = result.items['Field Ops'][0];
		expect(item.json._file).toEqual({ downloaded: true, property: 'data' });
		const png = PNG.sync.read(await harness.binaryBuffer(item.binary!.data));
		expect(Math.max(png.width, png.height)).toBeLessThanOrEqual(maxDimension);
		expect(Math.max(png.width, png.height)).toBeGreaterThan(maxDimension / 2);
	});

	it('never sends the token to a file link outside the Core API address', async () => {
		const seen: string[] = [];
		const outsider = createServer((req, res) => {
			seen.push(`${req.url} ${req.headers.authorization ?? ''}`);
			res.end('stolen');
		});
		await new Promise<void>((resolve) => outsider.listen(0, '127.0.0.1', resolve));
		const hostile = `http://127.0.0.1:${(outsider.address() as AddressInfo).port}/api/file/x`;
		try {
			await call(sb().coreUrl, '/__sandbox/faults', {
				method: 'POST',
				json: {
					path: '/v1/images',
					status: 200,
					body: {
						data: [
							{
								id: 'img-1',
								collectionRef: 'feed',
								idRef: 'p1',
								source: 'feed',
								downloadUrl: hostile,
								largeUrl: hostile,
							},
						],
						continuationToken: '',
					},
				},
			});
			const result = await run({
				operation: 'images',
				...windowParams(),
				returnAll: true,
				options: { downloadFiles: true },
			});
			const item = result.items['Field Ops'][0];
			expect(item.binary).toBeUndefined();
			expect(item.json._file).toMatchObject({
				downloaded: false,
				reason: expect.stringMatching(/not fetched/),
			});
			expect(seen).toEqual([]);
		} finally {
			outsider.close();
		}
	});

	it('passes records through without a PDF that is not generated yet, saying so', async () => {
		const result = await run({
			operation: 'checklistRegistrations',
			listMode: 'all',
			returnAll: true,
			options: { downloadFiles: true },
		});
		const pending = result.items['Field Ops'].filter((item) => item.json.pdfUrl === null);
		const ready = result.items['Field Ops'].filter((item) => typeof item.json.pdfUrl === 'string');
		expect(pending.length).toBeGreaterThan(0);
		expect(pending[0].json._file).toMatchObject({
			downloaded: false,
			reason: expect.stringMatching(/not generated yet/),
		});
		expect(ready.length).toBeGreaterThan(0);
		expect((await harness.binaryBuffer(ready[0].binary!.data)).subarray(0, 5).toString()).toBe('%PDF-');
		expect(ready[0].binary!.data).toMatchObject({
			mimeType: 'application/pdf',
			fileName: expect.stringMatching(/\.pdf$/),
		});
	});

	it('[R14] exports the images of the chosen Sources only, sent as repeated parameters', async () => {
		const params = windowParams();
		const result = await run({
			operation: 'images',
			...params,
			returnAll: true,
			filters: { sources: ['feed', 'alert'] },
		});
		expect(result.error).toBeUndefined();
		const expected = await readFeed(sb(), '/v1/images', {
			...windowQuery(params),
			Sources: ['feed', 'alert'],
		});
		expect(ids(result.items['Field Ops']).sort()).toEqual(served(expected).sort());
		expect([...new Set(result.items['Field Ops'].map((item) => item.json.source))].sort()).toEqual([
			'alert',
			'feed',
		]);
	});

	it('takes From and To each optional, and a date window together with Modified Since', async () => {
		const to = new Date(Date.now() - 10 * DAY).toISOString();
		const openStart = await run({
			operation: 'timeRegistrations',
			syncMode: 'window',
			fromDateTime: '',
			toDateTime: to,
			returnAll: true,
		});
		expect(openStart.error).toBeUndefined();
		const untilTo = await readFeed(sb(), '/v1/time-registrations', { ToDateTime: to });
		expect(ids(openStart.items['Field Ops']).sort()).toEqual(served(untilTo).sort());
		expect(untilTo.length).toBeGreaterThan(0);

		const since = new Date(Date.now() - 400 * DAY).toISOString();
		const dated = { datedFrom: new Date(Date.now() - 30 * DAY).toISOString(), datedTo: to };
		const both = await run({
			operation: 'timeRegistrations',
			syncMode: 'modifiedSince',
			modifiedSince: since,
			...dated,
			returnAll: true,
		});
		expect(both.error).toBeUndefined();
		const expected = await readFeed(sb(), '/v1/time-registrations', {
			ModifiedSince: since,
			FromDateTime: dated.datedFrom,
			ToDateTime: dated.datedTo,
		});
		expect(ids(both.items['Field Ops']).sort()).toEqual(served(expected).sort());
		expect(expected.length).toBeGreaterThan(0);

		// The dated window is read (and checked) in Changed Since mode too.
		await resetStats();
		const swapped = await run(
			{
				operation: 'timeRegistrations',
				syncMode: 'modifiedSince',
				modifiedSince: since,
				datedFrom: dated.datedTo,
				datedTo: dated.datedFrom,
				returnAll: true,
			},
			true,
		);
		expect(swapped.items['Field Ops'][0].json.error).toMatch(/Dated From is later than Dated To/);
		expect((await stats()).requests['GET /v1/time-registrations']).toBeUndefined();
	});

	it('[R2] reads checklists with only the filters the spec lists for them (project, changes)', async () => {
		const since = new Date(Date.now() - 400 * DAY).toISOString();
		const all = await readFeed(sb(), '/v1/checklist-registrations', { ModifiedSince: since });
		const projectId = String(all.find((record) => typeof record.projectId === 'string')?.projectId);
		const result = await run({
			operation: 'checklistRegistrations',
			listMode: 'modifiedSince',
			modifiedSince: since,
			filters: { project: { __rl: true, mode: 'id', value: projectId } },
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		const expected = await readFeed(sb(), '/v1/checklist-registrations', {
			ModifiedSince: since,
			ProjectId: projectId,
		});
		expect(ids(result.items['Field Ops']).sort()).toEqual(served(expected).sort());
		expect(expected.length).toBeGreaterThan(0);
		expect(expected.length).toBeLessThan(all.length);
	});

	it('[R10] leaves out deleted time registrations when asked, wherever Field Ops reports them', async () => {
		const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now as string;
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 5 } });
		const activity = async (action: string, json: Record<string, unknown>) =>
			(
				await call(sb().coreUrl, '/__sandbox/activity', {
					method: 'POST',
					json: { kind: 'time-registrations', action, ...json },
				})
			).body.ids as string[];
		// Records the test created: a random one may belong to a company the client cannot see.
		const created = await activity('create', { count: 4 });
		await activity('delete', { ids: created.slice(0, 2) });
		const expected = await readFeed(sb(), '/v1/time-registrations', { ModifiedSince: since });
		const params = {
			operation: 'timeRegistrations',
			syncMode: 'modifiedSince',
			modifiedSince: since,
			returnAll: true,
		};

		const kept = await run(params);
		expect(ids(kept.items['Field Ops']).sort()).toEqual(served(expected).sort());
		const dropped = await run({ ...params, options: { deletedRecords: 'drop' } });
		expect(ids(dropped.items['Field Ops']).sort()).toEqual(
			served(expected.filter((record) => record.isDeleted !== true)).sort(),
		);
		expect(dropped.items['Field Ops'].length).toBeGreaterThanOrEqual(2);
	});

	it('refuses a change window that ends before it starts, before any request', async () => {
		await resetStats();
		const result = await run(
			{
				operation: 'images',
				syncMode: 'modifiedSince',
				modifiedSince: '2026-05-02T00:00:00Z',
				modifiedBefore: '2026-05-01T00:00:00Z',
				returnAll: true,
			},
			true,
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(
			/Modified Before must be later than Modified Since/,
		);
		expect((await stats()).requests['GET /v1/images']).toBeUndefined();
	});
});
