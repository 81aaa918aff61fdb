import type { INodeExecutionData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

/** Split ports: the machine-state requests must go to the Machine-State API URL. */
describe('Field Ops → Machine State', () => {
	const sb = useSandbox({ split: true });
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const projectId = () => [...sb().sandbox.world.projects.values()].find((p) => p.companyId === companyId())!.id;
	const machineId = () => [...sb().sandbox.world.machines.values()].find((m) => m.companyId === companyId())!.id;
	const run = async (parameters: Record<string, unknown>, items?: INodeExecutionData[], continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow({ resource: 'machineState', ...parameters }, { continueOnFail }), { triggerItems: items });
	const record = () => ({ companyId: companyId(), projectId: projectId(), machineId: machineId() });
	/** 250 minutes of records from 2026-11-21 06:00, alternating working and idle; record 43 ends before it starts. */
	const import250 = async () => {
		const items = Array.from({ length: 250 }, (_, i) => {
			const start = Date.UTC(2026, 10, 21, 6) + i * 60_000;
			return { json: { start: new Date(start).toISOString(), end: new Date(i === 42 ? start - 1000 : start + 60_000).toISOString(), state: i % 2 ? 'idle' : 'working' } };
		});
		return await run(
			{ operation: 'import', ...record(), state: '={{ $json.state }}', startTime: '={{ $json.start }}', endTime: '={{ $json.end }}', batchSize: 100 },
			items,
			true,
		);
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});

	it('sends one record, then reads it back as the latest timestamp', async () => {
		const created = await run({ operation: 'create', ...record(), state: 'working', startTime: '2026-11-20T06:00:00Z', endTime: '2026-11-20T09:30:00Z' });
		expect(created.error).toBeUndefined();
		const latest = await run({ operation: 'getLatestTimestamp', companyId: companyId(), projectId: projectId() });
		expect(latest.items['Field Ops'][0].json.latestTimestamp).toBe('2026-11-20T09:30:00.000Z');
	});

	it('imports 250 records in batches of 100 (3 requests); a bad record fails alone', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await import250();

		expect((await call(sb().coreUrl, '/__sandbox/stats')).body.requests['POST /api/external-excavator-state/import']).toBe(3);
		const output = result.items['Field Ops'];
		expect(output).toHaveLength(250);
		expect(output[42].json.error).toMatch(/item 43.*endTime/);
		expect(output.filter((item) => item.json.imported === true)).toHaveLength(249);
	});

	it('aggregates durations per state', async () => {
		await import250();
		const result = await run({ operation: 'getAggregated', companyId: companyId(), projectId: projectId(), aggregateFilters: { from: '2026-11-21T00:00:00Z' } });
		const rows = Object.fromEntries(result.items['Field Ops'].map((item) => [item.json.state, item.json]));
		expect(rows.working).toMatchObject({ recordCount: 124, durationSeconds: 124 * 60 });
		expect(rows.idle).toMatchObject({ recordCount: 125, durationSeconds: 125 * 60 });
	});
});
