/**
 * 3. Bulk, in a real n8n: 1,000 machines created, 1,000 certificates upserted, 10,000 machine states imported.
 * Each with our batched operation (default Batch Size) and with the one-request-per-item alternative (Machine →
 * Create; Batch Size 1 for certificates and machine states). Items come from the webhook body through Split Out; the sandbox
 * counts the requests; every run checks that every item succeeded.
 */
import { figure, webhookWorkflow, type Figure, type Section, withSandboxAndN8n } from './lib';

interface Case {
	name: string;
	items: number;
	/** Field Ops parameters: batched, then one request per item. */
	batched: Record<string, unknown>;
	perItem: Record<string, unknown>;
	batchSize: number;
	/** The items of one run (unique per run where the API requires it). */
	make(run: string): Record<string, unknown>[];
}

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n([], {}, async (sandbox, bench) => {
		const token = await sandbox.token();
		const get = async <T>(base: string, path: string) =>
			(await (await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json()) as T;
		const admin = sandbox.info.clients.find((c) => c.clientId === sandbox.admin.clientId) as
			| { companyId?: string }
			| undefined;
		const companyId = admin?.companyId;
		if (!companyId) throw new Error('the sandbox did not name the admin client’s company');
		const projects = await get<{ id: string; companyId: string }[]>(
			sandbox.info.coreUrl,
			'/api/v4/integration/projects',
		);
		const projectId = (projects.find((p) => p.companyId === companyId) ?? projects[0]).id;
		const machines = await get<{ id: string; companyId: string }[]>(
			sandbox.info.coreUrl,
			'/api/v4/integration/machines',
		);
		const machineId = (machines.find((m) => m.companyId === companyId) ?? machines[0]).id;
		const employees = await get<{ employeeNumber: string }[]>(
			sandbox.info.coreUrl,
			'/api/v5/integration/employees',
		);
		if (!employees.length) throw new Error('no employees in the sandbox');

		const cases: Case[] = [
			{
				name: 'machines created',
				items: 1_000,
				batched: {
					resource: 'machine',
					operation: 'createMany',
					companyId,
					machineNumber: '={{ $json.number }}',
					additionalFields: { name: '={{ $json.name }}' },
				},
				perItem: {
					resource: 'machine',
					operation: 'create',
					companyId,
					machineNumber: '={{ $json.number }}',
					additionalFields: { name: '={{ $json.name }}' },
				},
				batchSize: 100,
				make: (run) =>
					Array.from({ length: 1_000 }, (_, i) => ({
						number: `BENCH-${run}-${i}`,
						name: `Bench machine ${i}`,
					})),
			},
			{
				name: 'certificates upserted',
				items: 1_000,
				batched: {
					resource: 'certificate',
					operation: 'upsert',
					employeeNumber: '={{ $json.employee }}',
					certificateType: '={{ $json.type }}',
					issuedDateTime: '2025-03-01T00:00:00',
					validUntilDateTime: '2030-03-01T00:00:00',
				},
				perItem: {},
				batchSize: 100,
				make: (run) =>
					Array.from({ length: 1_000 }, (_, i) => ({
						employee: employees[i % employees.length].employeeNumber,
						type: `Bench ${run} ${Math.floor(i / employees.length)}`,
					})),
			},
			{
				name: 'machine states imported',
				items: 10_000,
				batched: {
					resource: 'machineState',
					operation: 'import',
					companyId,
					projectId,
					machineId,
					state: '={{ $json.state }}',
					startTime: '={{ $json.start }}',
					endTime: '={{ $json.end }}',
				},
				// Not Machine State → Create: n8n sends a declarative operation's 10,000 requests all at once, and they
				// time out. Batch Size 1 sends them one after another, as a loop would.
				perItem: {
					resource: 'machineState',
					operation: 'import',
					companyId,
					projectId,
					machineId,
					state: '={{ $json.state }}',
					startTime: '={{ $json.start }}',
					endTime: '={{ $json.end }}',
					batchSize: 1,
				},
				batchSize: 100,
				make: (run) => {
					// Runs never overlap in time (the API refuses overlapping states of one machine): 10 days each.
					const slot = Number(run.slice(1)) * 2 + (run.startsWith('p') ? 1 : 0);
					const base = Date.UTC(2026, 0, 1) + slot * 10 * 86_400_000;
					return Array.from({ length: 10_000 }, (_, i) => ({
						state: i % 2 ? 'idle' : 'working',
						start: new Date(base + i * 60_000).toISOString(),
						end: new Date(base + i * 60_000 + 59_000).toISOString(),
					}));
				},
			},
		];
		cases[1].perItem = { ...cases[1].batched, batchSize: 1 };

		const figures: Figure[] = [];
		const facts: Record<string, unknown> = {};
		for (const c of cases) {
			const flow = (parameters: Record<string, unknown>, label: string) =>
				webhookWorkflow(bench, `Bench: ${c.name} (${label})`, [
					{
						name: 'Items',
						type: 'n8n-nodes-base.splitOut',
						typeVersion: 1,
						parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
					},
					{
						name: 'Field Ops',
						type: 'n8n-nodes-fieldops.fieldOps',
						typeVersion: 1,
						parameters,
						onError: 'continueRegularOutput',
					},
					{
						name: 'Failures',
						type: 'n8n-nodes-base.filter',
						typeVersion: 2.2,
						parameters: {
							conditions: {
								options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
								conditions: [
									{
										id: 'e',
										leftValue: '={{ $json.error }}',
										rightValue: '',
										operator: { type: 'string', operation: 'exists', singleValue: true },
									},
								],
								combinator: 'and',
							},
							options: {},
						},
						alwaysOutputData: true,
					},
					{
						name: 'Count',
						type: 'n8n-nodes-base.summarize',
						typeVersion: 1.1,
						parameters: {
							fieldsToSummarize: { values: [{ aggregation: 'count', field: 'error' }] },
							options: {},
						},
					},
				]);
			const batched = await flow(c.batched, 'batched');
			const perItem = await flow(c.perItem, 'one request per item');
			const measure = async (workflow: typeof batched, run: string) => {
				await sandbox.resetStats();
				const result = await workflow.run({ items: c.make(run) });
				const failures = (result.response as { count_error?: number }).count_error;
				if (failures) {
					const execution = await workflow.execution(result.executionId);
					const first = execution.data.resultData.runData.Failures[0].data.main[0][0]?.json;
					throw new Error(
						`${c.name}: ${failures} items failed (run ${run}), the first: ${JSON.stringify(first).slice(0, 300)}`,
					);
				}
				// Every write the sandbox received (the token requests aside).
				const requests = Object.entries((await sandbox.stats()).requests)
					.filter(([route]) => route.startsWith('POST ') && route !== 'POST /connect/token')
					.reduce((sum, [, n]) => sum + n, 0);
				return { ms: result.ms, requests };
			};
			// The per-item runs of 10,000 machine states take minutes: fewer of them.
			const perItemRuns = c.items > 1_000 ? 1 : runs;
			const ours: { ms: number; requests: number }[] = [];
			const theirs: { ms: number; requests: number }[] = [];
			for (let i = 0; i < runs; i++) {
				ours.push(await measure(batched, `b${i}`));
				if (i < perItemRuns) theirs.push(await measure(perItem, `p${i}`));
			}
			const ratio = theirs.map((t, i) => t.ms / ours[i].ms);
			figures.push(
				figure(
					`${c.name}: requests, batched (Batch Size ${c.batchSize})`,
					'requests',
					ours.map((r) => r.requests),
					{ atMost: Math.ceil(c.items / c.batchSize) },
				),
				figure(
					`${c.name}: requests, one per item`,
					'requests',
					theirs.map((r) => r.requests),
				),
				figure(
					`${c.name}: batched (execution)`,
					'ms',
					ours.map((r) => r.ms),
				),
				figure(
					`${c.name}: one per item (execution)`,
					'ms',
					theirs.map((r) => r.ms),
				),
				figure(`${c.name}: one per item / batched`, 'ratio', ratio),
			);
			facts[c.name] = { items: c.items, batchSize: c.batchSize, perItemRuns };
		}
		return {
			id: 'bulk',
			title: 'Bulk writes: batched against one request per item',
			figures,
			facts,
			notes: [],
		};
	});
}
