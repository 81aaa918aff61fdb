/**
 * 2. Tokens, in a real n8n against a sandbox whose tokens live 5 s (`--token-ttl 5`). (i) 1,000 requests over
 * several executions (10 executions of 100 items, Project → Get, spaced out over several token lifetimes):
 * tokens issued against elapsed/ttl + 1, and 401s. (ii) A fresh credential used by 100 items at once: tokens
 * issued. (iii) Queue mode with four workers (tokens living the spec's 30 minutes): the token kept on the
 * credential serves every worker. The sandbox counts tokens, 401s and requests.
 */
import { CREDENTIAL_TYPE, startWorker, type N8nWorker } from '../scripts/n8n/run';
import {
	fieldOpsCredentialData,
	figure,
	webhookWorkflow,
	type Figure,
	type Section,
	withSandboxAndN8n,
} from './lib';

const TTL_SECONDS = 5;
const EXECUTIONS = 10;
const ITEMS = 100;
const PAUSE_MS = 2_000;

const WORKERS = 4;

/** Project → Get for each item of the webhook's body, then a count (the benchmark's workflow). */
const projectNodes = (credential: Record<string, { id: string; name: string }>) => [
	{
		name: 'Items',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
	},
	{
		name: 'Get project',
		type: 'n8n-nodes-fieldops.fieldOps',
		typeVersion: 1,
		parameters: {
			resource: 'project',
			operation: 'get',
			project: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		},
		credentials: credential,
	},
	{
		name: 'Count',
		type: 'n8n-nodes-base.summarize',
		typeVersion: 1.1,
		parameters: { fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] }, options: {} },
	},
];

/**
 * (iii) n8n in queue mode with WORKERS workers: a fresh credential used by 2 × WORKERS executions at once (every
 * worker meets an empty token at the same moment: at most one token each), then 4 × WORKERS executions at once
 * (the token stored on the credential serves them all: no token).
 */
async function acrossWorkers(runs: number): Promise<Figure[]> {
	return withSandboxAndN8n([], { queue: true }, async (sandbox, bench) => {
		const workers: N8nWorker[] = [bench.n8n.worker as N8nWorker];
		try {
			for (let i = 1; i < WORKERS; i++) workers.push(await startWorker(bench.n8n, 90, `worker-${i + 1}`));
			const token = await sandbox.token('serviceapiv3');
			const [project] = (await (
				await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, {
					headers: { authorization: `Bearer ${token}` },
				})
			).json()) as { id: string }[];
			const body = { items: Array.from({ length: 10 }, () => ({ id: project.id })) };
			const cold: number[] = [];
			const warm: number[] = [];
			const busy: number[] = [];
			for (let i = 0; i < runs; i++) {
				const name = `Field Ops (${WORKERS} workers, ${i})`;
				const id = await bench.n8n.createCredential(name, CREDENTIAL_TYPE, fieldOpsCredentialData(sandbox));
				const workflow = await webhookWorkflow(
					bench,
					`Bench: tokens across workers ${i}`,
					projectNodes({ [CREDENTIAL_TYPE]: { id, name } }),
				);
				const burst = async (count: number) =>
					await Promise.all(Array.from({ length: count }, async () => await workflow.run(body)));
				await sandbox.resetStats();
				await burst(2 * WORKERS);
				cold.push((await sandbox.stats()).tokensIssued);
				await sandbox.resetStats();
				// Which workers ran the burst: their count of finished executions grew.
				const finished = (worker: N8nWorker) => worker.log().split('Worker finished execution').length - 1;
				const before = workers.map(finished);
				await burst(4 * WORKERS);
				warm.push((await sandbox.stats()).tokensIssued);
				busy.push(workers.filter((worker, w) => finished(worker) > before[w]).length);
			}
			return [
				figure(
					`${WORKERS} workers, fresh credential, ${2 * WORKERS} executions at once: tokens issued`,
					'tokens',
					cold,
					{
						atMost: WORKERS,
					},
				),
				figure(`${WORKERS} workers, then ${4 * WORKERS} executions at once: tokens issued`, 'tokens', warm, {
					atMost: 0,
				}),
				figure('workers that ran those executions', 'workers', busy, { atLeast: 2 }),
			];
		} finally {
			for (const worker of workers.slice(1)) await worker.stop();
		}
	});
}

export async function run({ runs }: { runs: number }): Promise<Section> {
	const section = await oneProcess(runs);
	return { ...section, figures: [...section.figures, ...(await acrossWorkers(runs))] };
}

async function oneProcess(runs: number): Promise<Section> {
	return withSandboxAndN8n(['--token-ttl', String(TTL_SECONDS)], {}, async (sandbox, bench) => {
		const token = await sandbox.token('serviceapiv3');
		const projects = (await (
			await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, {
				headers: { authorization: `Bearer ${token}` },
			})
		).json()) as { id: string }[];
		const body = {
			items: Array.from({ length: ITEMS }, (_, i) => ({ id: projects[i % projects.length].id })),
		};
		const steady = await webhookWorkflow(
			bench,
			'Bench: tokens, steady use',
			projectNodes(bench.fieldOpsCredential),
		);
		const check = (response: unknown) => {
			if ((response as { count_id?: number }).count_id !== ITEMS)
				throw new Error(`expected ${ITEMS} projects, got ${JSON.stringify(response)}`);
		};

		const tokens: number[] = [];
		const expected: number[] = [];
		const unauthorized: number[] = [];
		const requests: number[] = [];
		const fresh: number[] = [];
		const freshUnauthorized: number[] = [];
		for (let i = 0; i < runs; i++) {
			// Every run starts after the last token ran out, as after a quiet night.
			await new Promise((r) => setTimeout(r, (TTL_SECONDS + 1) * 1000));
			await sandbox.resetStats();
			const started = performance.now();
			for (let e = 0; e < EXECUTIONS; e++) {
				check((await steady.run(body)).response);
				if (e + 1 < EXECUTIONS) await new Promise((r) => setTimeout(r, PAUSE_MS));
			}
			const elapsed = (performance.now() - started) / 1000;
			const stats = await sandbox.stats();
			tokens.push(stats.tokensIssued);
			expected.push(Math.ceil(elapsed / TTL_SECONDS) + 1);
			unauthorized.push(stats.unauthorized);
			requests.push(stats.requests['GET /api/v4/integration/projects/{id}'] ?? 0);

			// A credential nobody has used yet, 100 items at once.
			const name = `Field Ops (fresh ${i})`;
			const id = await bench.n8n.createCredential(name, CREDENTIAL_TYPE, fieldOpsCredentialData(sandbox));
			const firstUse = await webhookWorkflow(
				bench,
				`Bench: tokens, first use ${i}`,
				projectNodes({ [CREDENTIAL_TYPE]: { id, name } }),
			);
			await sandbox.resetStats();
			check((await firstUse.run(body)).response);
			const after = await sandbox.stats();
			fresh.push(after.tokensIssued);
			freshUnauthorized.push(after.unauthorized);
		}
		return {
			id: 'tokens',
			title: `Tokens with --token-ttl ${TTL_SECONDS}`,
			facts: { executions: EXECUTIONS, itemsPerExecution: ITEMS, pauseBetweenExecutionsMs: PAUSE_MS },
			figures: [
				figure(`requests sent (${EXECUTIONS} executions × ${ITEMS} items)`, 'requests', requests),
				figure('tokens issued', 'tokens', tokens),
				figure('elapsed / ttl + 1 (expected tokens)', 'tokens', expected),
				figure(
					'tokens issued − expected',
					'tokens',
					tokens.map((t, i) => t - expected[i]),
					{ atMost: 0 },
				),
				figure('401s received', '401s', unauthorized, { atMost: 0 }),
				figure(`fresh credential, ${ITEMS} items at once: tokens issued`, 'tokens', fresh, { atMost: 1 }),
				figure(`fresh credential, ${ITEMS} items at once: 401s`, '401s', freshUnauthorized, { atMost: 0 }),
			],
			notes: [],
		};
	});
}
