/**
 * 1. Extraction: 100,000 time registrations. (a) a raw undici loop over the continuation tokens at ChunkLimit
 * 10000; (b) Field Ops "Report → Time Registrations, Return All" in n8n; (c) n8n's HTTP Request node as a user
 * configures it (generic OAuth2 credential, "update a parameter in each request" pagination with the token
 * expression, the API's default page size 2500) then Split Out. (b) and (c) end in the same Summarize node,
 * whose count is checked on every run. Runs are interleaved so noise hits all three alike.
 */
import { request } from 'undici';

import { MiB, figure, webhookWorkflow, type Section, withSandboxAndN8n } from './lib';

const RECORDS = 100_000;
/** The admin client sees its company structure's records: about 85 % of a feed. */
export const SCALE = Math.ceil(RECORDS / 0.85);
// The whole window, so every seeded record is in it.
const FROM = '2000-01-01T00:00:00Z';
const TO = '2100-01-01T00:00:00Z';

/** (b): Field Ops "Report → Time Registrations, Return All" over the whole window. */
export const FIELD_OPS_EXPORT = {
	name: 'Field Ops',
	type: 'n8n-nodes-fieldops.fieldOps',
	typeVersion: 1,
	parameters: { resource: 'report', operation: 'timeRegistrations', syncMode: 'window', fromDateTime: FROM, toDateTime: TO, returnAll: true },
};

const COUNT_NODE = {
	name: 'Count',
	type: 'n8n-nodes-base.summarize',
	typeVersion: 1.1,
	parameters: { fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] }, options: {} },
};

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n(['--scale', String(SCALE)], {}, async (sandbox, bench) => {
		const { info, admin } = sandbox;
		const url = `${info.reportingUrl}/v1/time-registrations`;

		/** (a): the physical limit, in this process. `measureJson` (outside the timed runs) sizes the records' JSON. */
		const rawLoop = async (measureJson = false) => {
			const bearer = await sandbox.token('reportingapiv1');
			const rssBefore = process.memoryUsage().rss;
			let peak = rssBefore;
			const started = performance.now();
			let records = 0;
			let jsonBytes = 0;
			let pages = 0;
			let continuation = '';
			do {
				const params = new URLSearchParams({ FromDateTime: FROM, ToDateTime: TO, ChunkLimit: '10000', ...(continuation ? { ContinuationToken: continuation } : {}) });
				const res = await request(`${url}?${params}`, { headers: { authorization: `Bearer ${bearer}` } });
				if (res.statusCode !== 200) throw new Error(`raw loop: HTTP ${res.statusCode} ${await res.body.text()}`);
				const page = (await res.body.json()) as { data: unknown[]; continuationToken?: string };
				records += page.data.length;
				if (measureJson) jsonBytes += Buffer.byteLength(JSON.stringify(page.data));
				pages++;
				continuation = page.continuationToken ?? '';
				peak = Math.max(peak, process.memoryUsage().rss);
			} while (continuation);
			return { ms: performance.now() - started, records, jsonBytes, pages, rssGrowth: peak - rssBefore };
		};

		const fieldOps = await webhookWorkflow(bench, 'Bench: Field Ops time registrations', [FIELD_OPS_EXPORT, COUNT_NODE]);

		const genericName = 'Generic OAuth2 (bench)';
		const genericId = await bench.n8n.createCredential(genericName, 'oAuth2Api', {
			grantType: 'clientCredentials',
			accessTokenUrl: `${info.identityUrl}/connect/token`,
			clientId: admin.clientId,
			clientSecret: admin.clientSecret,
			scope: 'reportingapiv1',
			authentication: 'body',
		});
		const httpRequest = await webhookWorkflow(bench, 'Bench: HTTP Request time registrations', [
			{
				name: 'HTTP Request',
				type: 'n8n-nodes-base.httpRequest',
				typeVersion: 4.2,
				parameters: {
					url,
					authentication: 'genericCredentialType',
					genericAuthType: 'oAuth2Api',
					sendQuery: true,
					queryParameters: { parameters: [{ name: 'FromDateTime', value: FROM }, { name: 'ToDateTime', value: TO }] },
					options: {
						pagination: {
							pagination: {
								paginationMode: 'updateAParameterInEachRequest',
								parameters: { parameters: [{ type: 'qs', name: 'ContinuationToken', value: '={{ $response.body.continuationToken }}' }] },
								paginationCompleteWhen: 'other',
								completeExpression: '={{ !$response.body.continuationToken }}',
							},
						},
					},
				},
				credentials: { oAuth2Api: { id: genericId, name: genericName } },
			},
			{ name: 'Split Out', type: 'n8n-nodes-base.splitOut', typeVersion: 1, parameters: { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} } },
			COUNT_NODE,
		]);

		const counted = (response: unknown, what: string, expected: number) => {
			const count = (response as { count_id?: number }).count_id;
			if (count !== expected) throw new Error(`${what} returned ${count} records, the sandbox serves ${expected}: not a valid run`);
		};

		// One unrecorded round first: n8n's first run of a workflow loads and compiles what it needs.
		const warm = await rawLoop(true);
		counted(await fieldOps.run().then((r) => r.response), 'Field Ops', warm.records);
		counted(await httpRequest.run().then((r) => r.response), 'HTTP Request', warm.records);

		const a: number[] = [];
		const b: number[] = [];
		const c: number[] = [];
		const bExecutions: string[] = [];
		const cExecutions: string[] = [];
		const bMemory: number[] = [];
		const cMemory: number[] = [];
		const aMemory: number[] = [];
		for (let i = 0; i < runs; i++) {
			const raw = await rawLoop();
			if (raw.records !== warm.records) throw new Error(`raw loop read ${raw.records}, before ${warm.records}`);
			a.push(raw.ms);
			aMemory.push(raw.rssGrowth / MiB);
			const ours = await fieldOps.run();
			counted(ours.response, 'Field Ops', raw.records);
			b.push(ours.ms);
			bExecutions.push(ours.executionId);
			bMemory.push((ours.rssPeak - ours.rssBaseline) / MiB);
			const theirs = await httpRequest.run();
			counted(theirs.response, 'HTTP Request', raw.records);
			c.push(theirs.ms);
			cExecutions.push(theirs.executionId);
			cMemory.push((theirs.rssPeak - theirs.rssBaseline) / MiB);
		}
		// Where (b) and (c) spend their time: each node's own executionTime, read from the saved executions after
		// the timed runs (each holds 100,000 records: reading them back during the runs would disturb them).
		const nodeMs = async (workflow: typeof fieldOps, executionIds: string[], node: string) => {
			const times: number[] = [];
			for (const executionId of executionIds) {
				const execution = await workflow.execution(executionId);
				const time = execution.data?.resultData?.runData?.[node]?.[0]?.executionTime;
				if (typeof time !== 'number') throw new Error(`execution ${executionId} has no executionTime for "${node}"`);
				times.push(time);
			}
			return times;
		};
		const jsonMiB = warm.jsonBytes / MiB;
		return {
			id: 'extraction',
			title: `Extraction of ${warm.records} time registrations`,
			facts: { records: warm.records, recordsJsonBytes: warm.jsonBytes, rawPagesAt10000: warm.pages, httpRequestPagesAt2500: Math.ceil(warm.records / 2500) },
			figures: [
				figure('(a) raw undici loop, ChunkLimit 10000', 'ms', a),
				figure('(b) Field Ops Report → Return All (execution)', 'ms', b),
				figure('(c) HTTP Request + pagination + Split Out (execution)', 'ms', c),
				figure('b / a', 'ratio', b.map((v, i) => v / a[i]), { atMost: 1.3 }),
				figure('c / b', 'ratio', c.map((v, i) => v / b[i]), { atLeast: 3 }),
				figure('(b) of which the Field Ops node', 'ms', await nodeMs(fieldOps, bExecutions, 'Field Ops')),
				figure('(b) of which Count (Summarize)', 'ms', await nodeMs(fieldOps, bExecutions, 'Count')),
				figure('(c) of which the HTTP Request node', 'ms', await nodeMs(httpRequest, cExecutions, 'HTTP Request')),
				figure('(c) of which Split Out', 'ms', await nodeMs(httpRequest, cExecutions, 'Split Out')),
				figure('(a) peak RSS growth (bench process)', 'MiB', aMemory),
				figure('(b) peak RSS growth of n8n', 'MiB', bMemory),
				figure('(c) peak RSS growth of n8n', 'MiB', cMemory),
				figure('(b) peak RSS growth / records JSON size', 'ratio', bMemory.map((m) => m / jsonMiB), { atMost: 1.5 }),
			],
			notes: [],
		};
	});
}
