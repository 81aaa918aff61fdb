/**
 * 2. Tokens, in a real n8n against a sandbox whose tokens live 5 s (`--token-ttl 5`). (i) 1,000 requests over
 * several executions (10 executions of 100 items, Project → Get, spaced out over several token lifetimes):
 * tokens issued against elapsed/ttl + 1, and 401s. (ii) A fresh credential used by 100 items at once: tokens
 * issued. The sandbox counts tokens, 401s and requests.
 */
import { CREDENTIAL_TYPE } from '../scripts/n8n/run';
import { fieldOpsCredentialData, figure, webhookWorkflow, type Section, withSandboxAndN8n } from './lib';

const TTL_SECONDS = 5;
const EXECUTIONS = 10;
const ITEMS = 100;
const PAUSE_MS = 2_000;

export async function run({ runs }: { runs: number }): Promise<Section> {
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
		const nodes = (credential: Record<string, { id: string; name: string }>) => [
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
		const steady = await webhookWorkflow(bench, 'Bench: tokens, steady use', nodes(bench.fieldOpsCredential));
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
				nodes({ [CREDENTIAL_TYPE]: { id, name } }),
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
