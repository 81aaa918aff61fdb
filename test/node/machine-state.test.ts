import type { INodeExecutionData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

/** Split ports: the machine-state requests must go to the Machine-State API URL. */
describe('Field Ops → Machine State', () => {
	const sb = useSandbox({ split: true });
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const projectId = () =>
		[...sb().sandbox.world.projects.values()].find((p) => p.companyId === companyId())!.id;
	const machineId = () =>
		[...sb().sandbox.world.machines.values()].find((m) => m.companyId === companyId())!.id;
	const run = async (
		parameters: Record<string, unknown>,
		items?: INodeExecutionData[],
		continueOnFail = false,
	) =>
		await harness.run(fieldOpsWorkflow({ resource: 'machineState', ...parameters }, { continueOnFail }), {
			triggerItems: items,
		});
	const record = () => ({ companyId: companyId(), projectId: projectId(), machineId: machineId() });
	/** 250 minutes of records from 2026-11-21 06:00, alternating working and idle; record 43 names a project that does not exist (refused in both variants). */
	const import250 = async () => {
		const items = Array.from({ length: 250 }, (_, i) => {
			const start = Date.UTC(2026, 10, 21, 6) + i * 60_000;
			return {
				json: {
					start: new Date(start).toISOString(),
					end: new Date(start + 60_000).toISOString(),
					state: i % 2 ? 'idle' : 'working',
					project: i === 42 ? 'no-such-project' : projectId(),
				},
			};
		});
		return await run(
			{
				operation: 'import',
				...record(),
				projectId: '={{ $json.project }}',
				state: '={{ $json.state }}',
				startTime: '={{ $json.start }}',
				endTime: '={{ $json.end }}',
				batchSize: 100,
			},
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
		const created = await run({
			operation: 'create',
			...record(),
			state: 'working',
			startTime: '2026-11-20T06:00:00Z',
			endTime: '2026-11-20T09:30:00Z',
		});
		expect(created.error).toBeUndefined();
		const latest = await run({
			operation: 'getLatestTimestamp',
			companyId: companyId(),
			projectId: projectId(),
		});
		// [S4] An object, or a bare timestamp named by the node: the same field either way.
		expect(latest.items['Field Ops'][0].json).toMatchObject({ latestTimestamp: '2026-11-20T09:30:00.000Z' });
	});

	it('imports 250 records in batches of 100 (3 requests); a bad record fails alone', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await import250();

		// [S3] A refused import is sent again without the bad record: one more request where a 400 saves nothing.
		const resent = sb().sandbox.world.variant.importAnswer === 'allOrNothing' ? 1 : 0;
		expect(
			(await call(sb().coreUrl, '/__sandbox/stats')).body.requests[
				'POST /api/external-excavator-state/import'
			],
		).toBe(3 + resent);
		expect(sb().sandbox.world.state('machine-states', () => [] as unknown[])).toHaveLength(249);
		const output = result.items['Field Ops'];
		expect(output).toHaveLength(250);
		expect(output[42].json.error).toMatch(/item 43.*no-such-project/);
		expect(output.filter((item) => item.json.imported === true)).toHaveLength(249);
	});

	it('aggregates durations per state', async () => {
		await import250();
		// [S5] Request and answer shapes are the service's: the user names the filter fields, the node passes rows through.
		const sandboxShape = sb().sandbox.world.variant.aggregatedShape === 'sandbox';
		const filter = sandboxShape ? { machineId: machineId() } : { machineIds: [machineId()] };
		const [state, seconds, count] = sandboxShape
			? ['state', 'durationSeconds', 'recordCount']
			: ['stateType', 'totalSeconds', 'count'];
		const result = await run({
			operation: 'getAggregated',
			companyId: companyId(),
			projectId: projectId(),
			otherRequestFields: JSON.stringify(filter),
		});
		const rows = Object.fromEntries(result.items['Field Ops'].map((item) => [item.json[state], item.json]));
		expect(rows.working).toMatchObject({ [count]: 124, [seconds]: 124 * 60 });
		expect(rows.idle).toMatchObject({ [count]: 125, [seconds]: 125 * 60 });

		const otherMachine = await run({
			operation: 'getAggregated',
			companyId: companyId(),
			projectId: projectId(),
			otherRequestFields: JSON.stringify(sandboxShape ? { machineId: 'none' } : { machineIds: ['none'] }),
		});
		expect(otherMachine.items['Field Ops'].filter((item) => item.json[state] !== undefined)).toEqual([]);
	});
});
