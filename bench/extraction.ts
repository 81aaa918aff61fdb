/**
 * 1. Extraction: 100,000 time registrations, against a sandbox answering at once (0 ms) and one adding 100 ms to
 * every request (`--latency-ms 100`, a remote service). (a) a raw undici loop over the continuation tokens at
 * ChunkLimit 10000 that drops each page, and (a′) the same keeping every record (references, outside n8n);
 * (b) Field Ops "Report → Time Registrations, Return All" in n8n (Output: Items, raw records) read in sequence
 * (Parallel Requests 1), and (b∥) the same in parallel time slices (the option's default); (c) n8n's HTTP Request
 * node as a user configures it (generic OAuth2 credential, "update a parameter in each request" pagination with
 * the token expression, the API's default page size 2500) then Split Out; (d) the floor: a minimal node
 * (`floor/`) reading the same pages through n8n's `httpRequestWithAuthentication` with the same Field Ops
 * credential. Every workflow ends in the same Summarize node, whose count is checked on every run. Runs are
 * interleaved (a, a′, b, b∥, c, d, …; b and d swap places every other round) so noise hits all alike; ratios
 * are per run. n8n runs with its inspector so that its memory is collected before each run (lib.ts).
 */
import { request } from 'undici';

import { CREDENTIAL_TYPE } from '../scripts/n8n/run';
import { FLOOR_NODE_TYPE, floorExtensionEnv } from './floor';
import {
	MiB,
	fieldOpsCredentialData,
	figure,
	startSandboxProcess,
	webhookWorkflow,
	withSandboxAndN8n,
	type BenchN8n,
	type Figure,
	type Section,
	type SandboxProcess,
} from './lib';

const RECORDS = 100_000;
/** The admin client sees its company structure's records: about 85 % of a feed. */
export const SCALE = Math.ceil(RECORDS / 0.85);
/** The remote service's round trip, added to every request by the second sandbox. */
export const LATENCY_MS = 100;
// The whole window, so every seeded record is in it.
export const FROM = '2000-01-01T00:00:00Z';
export const TO = '2100-01-01T00:00:00Z';

/** (b): Field Ops "Report → Time Registrations, Return All" over the whole window, raw records as items, in sequence. */
export const FIELD_OPS_EXPORT = {
	name: 'Field Ops',
	type: 'n8n-nodes-fieldops.fieldOps',
	typeVersion: 1,
	parameters: {
		resource: 'report',
		operation: 'timeRegistrations',
		syncMode: 'window',
		fromDateTime: FROM,
		toDateTime: TO,
		returnAll: true,
		options: { parallelRequests: 1 },
	},
};

/** (b∥): the same in parallel time slices, at the option's default. */
export const FIELD_OPS_SLICED: Omit<typeof FIELD_OPS_EXPORT, 'parameters'> & {
	parameters: Omit<typeof FIELD_OPS_EXPORT.parameters, 'options'> & { options: Record<string, number> };
} = {
	...FIELD_OPS_EXPORT,
	parameters: { ...FIELD_OPS_EXPORT.parameters, options: {} },
};

/** (d): the floor node over the same window and page size. */
export const FLOOR_EXPORT = {
	name: 'Field Ops',
	type: FLOOR_NODE_TYPE,
	typeVersion: 1,
	parameters: { path: '/v1/time-registrations', fromDateTime: FROM, toDateTime: TO, pageSize: 10000 },
};

export const COUNT_NODE = {
	name: 'Count',
	type: 'n8n-nodes-base.summarize',
	typeVersion: 1.1,
	parameters: { fieldsToSummarize: { values: [{ aggregation: 'count', field: 'id' }] }, options: {} },
};

export interface RawRun {
	ms: number;
	records: number;
	jsonBytes: number;
	pages: number;
}

/**
 * (a) / (a′): the physical limit, in this process: follow the tokens at ChunkLimit 10000. `keep` holds every
 * record until the end, as n8n holds items; `measureJson` (outside the timed runs) sizes the records' JSON.
 */
export async function rawLoop(
	sandbox: SandboxProcess,
	options: { keep?: boolean; measureJson?: boolean } = {},
): Promise<RawRun> {
	const url = `${sandbox.info.reportingUrl}/v1/time-registrations`;
	const bearer = await sandbox.token('reportingapiv1');
	const kept: unknown[][] = [];
	const started = performance.now();
	let records = 0;
	let jsonBytes = 0;
	let pages = 0;
	let continuation = '';
	do {
		const params = new URLSearchParams({
			FromDateTime: FROM,
			ToDateTime: TO,
			ChunkLimit: '10000',
			...(continuation ? { ContinuationToken: continuation } : {}),
		});
		const res = await request(`${url}?${params}`, { headers: { authorization: `Bearer ${bearer}` } });
		if (res.statusCode !== 200) throw new Error(`raw loop: HTTP ${res.statusCode} ${await res.body.text()}`);
		const page = (await res.body.json()) as { data: unknown[]; continuationToken?: string };
		records += page.data.length;
		if (options.keep) kept.push(page.data);
		if (options.measureJson) jsonBytes += Buffer.byteLength(JSON.stringify(page.data));
		pages++;
		continuation = page.continuationToken ?? '';
	} while (continuation);
	const ms = performance.now() - started;
	if (kept.length !== (options.keep ? pages : 0)) throw new Error('the kept pages were lost');
	return { ms, records, jsonBytes, pages };
}

/** (b), (b∥), (c) and (d) on one sandbox (the n8n credential named after it). */
async function workflows(
	bench: BenchN8n,
	sandbox: SandboxProcess,
	label: string,
	fieldOpsCredential: BenchN8n['fieldOpsCredential'],
) {
	const { info, admin } = sandbox;
	const ours = (node: { name: string; type: string; [key: string]: unknown }, what: string) =>
		webhookWorkflow(bench, `Bench: ${what} time registrations (${label})`, [
			{ ...node, credentials: fieldOpsCredential },
			COUNT_NODE,
		]);
	const fieldOps = await ours(FIELD_OPS_EXPORT, 'Field Ops');
	const sliced = await ours(FIELD_OPS_SLICED, 'Field Ops in slices');
	const floor = await ours(FLOOR_EXPORT, 'floor node');
	const genericName = `Generic OAuth2 (${label})`;
	const genericId = await bench.n8n.createCredential(genericName, 'oAuth2Api', {
		grantType: 'clientCredentials',
		accessTokenUrl: `${info.identityUrl}/connect/token`,
		clientId: admin.clientId,
		clientSecret: admin.clientSecret,
		scope: 'reportingapiv1',
		authentication: 'body',
	});
	const httpRequest = await webhookWorkflow(bench, `Bench: HTTP Request time registrations (${label})`, [
		{
			name: 'HTTP Request',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			parameters: {
				url: `${info.reportingUrl}/v1/time-registrations`,
				authentication: 'genericCredentialType',
				genericAuthType: 'oAuth2Api',
				sendQuery: true,
				queryParameters: {
					parameters: [
						{ name: 'FromDateTime', value: FROM },
						{ name: 'ToDateTime', value: TO },
					],
				},
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: {
								parameters: [
									{ type: 'qs', name: 'ContinuationToken', value: '={{ $response.body.continuationToken }}' },
								],
							},
							paginationCompleteWhen: 'other',
							completeExpression: '={{ !$response.body.continuationToken }}',
						},
					},
				},
			},
			credentials: { oAuth2Api: { id: genericId, name: genericName } },
		},
		{
			name: 'Split Out',
			type: 'n8n-nodes-base.splitOut',
			typeVersion: 1,
			parameters: { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} },
		},
		COUNT_NODE,
	]);
	return { fieldOps, sliced, floor, httpRequest };
}

const counted = (response: unknown, what: string, expected: number) => {
	const count = (response as { count_id?: number }).count_id;
	if (count !== expected)
		throw new Error(`${what} returned ${count} records, the sandbox serves ${expected}: not a valid run`);
};

type Flows = Awaited<ReturnType<typeof workflows>>;
type Flow = keyof Flows;
const NAMES: Record<Flow, string> = {
	fieldOps: 'Field Ops',
	sliced: 'Field Ops in slices',
	floor: 'the floor node',
	httpRequest: 'HTTP Request',
};

/** Interleaved runs of (a), (a′), (b), (b∥), (c), (d) on one sandbox; figures named with `at` ("0 ms", "100 ms"). */
async function measure(runs: number, sandbox: SandboxProcess, flows: Flows, at: string, expected: number) {
	// One unrecorded round first: n8n's first run of a workflow loads and compiles what it needs.
	for (const flow of Object.keys(flows) as Flow[])
		counted((await flows[flow].run()).response, NAMES[flow], expected);
	const s = {
		a: [] as number[],
		aKeep: [] as number[],
		ms: { fieldOps: [], sliced: [], floor: [], httpRequest: [] } as Record<Flow, number[]>,
		mem: { fieldOps: [], sliced: [], floor: [], httpRequest: [] } as Record<Flow, number[]>,
		ids: { fieldOps: [], sliced: [], floor: [], httpRequest: [] } as Record<Flow, string[]>,
	};
	for (let i = 0; i < runs; i++) {
		for (const keep of [false, true]) {
			const raw = await rawLoop(sandbox, { keep });
			if (raw.records !== expected) throw new Error(`raw loop read ${raw.records}, expected ${expected}`);
			(keep ? s.aKeep : s.a).push(raw.ms);
		}
		const order: Flow[] =
			i % 2 === 0
				? ['fieldOps', 'floor', 'sliced', 'httpRequest']
				: ['floor', 'fieldOps', 'sliced', 'httpRequest'];
		for (const flow of order) {
			const run = await flows[flow].run();
			counted(run.response, NAMES[flow], expected);
			s.ms[flow].push(run.ms);
			s.mem[flow].push((run.rssPeak - run.rssBaseline) / MiB);
			s.ids[flow].push(run.executionId);
		}
	}
	const per = (x: number[], y: number[]) => x.map((v, i) => v / y[i]);
	// Where the time goes: each first node's own executionTime, read from the saved executions after the timed
	// runs (each holds 100,000 records: reading them back during the runs would disturb them).
	const nodeMs = async (flow: Flow, node: string) => {
		const times: number[] = [];
		for (const executionId of s.ids[flow]) {
			// A 70 MB answer; n8n sometimes closes the connection under load: ask again.
			let execution;
			for (let attempt = 1; !execution; attempt++) {
				try {
					execution = await flows[flow].execution(executionId);
				} catch (error) {
					if (attempt >= 3) throw error;
				}
			}
			const time = execution.data?.resultData?.runData?.[node]?.[0]?.executionTime;
			if (typeof time !== 'number')
				throw new Error(`execution ${executionId} has no executionTime for "${node}"`);
			times.push(time);
		}
		return times;
	};
	const zero = at === '0 ms';
	const { ms, mem } = s;
	const figures: Figure[] = [
		figure(`${at}: (a) raw undici loop, drops each page (reference)`, 'ms', s.a),
		figure(`${at}: (a′) raw loop keeping the records (reference)`, 'ms', s.aKeep),
		figure(`${at}: (b) Field Ops, in sequence (execution)`, 'ms', ms.fieldOps),
		figure(`${at}: (b∥) Field Ops, parallel time slices (execution)`, 'ms', ms.sliced),
		figure(`${at}: (c) HTTP Request + pagination + Split Out (execution)`, 'ms', ms.httpRequest),
		figure(`${at}: (d) floor node: n8n's request helper alone (execution)`, 'ms', ms.floor),
		figure(`${at}: b / d`, 'ratio', per(ms.fieldOps, ms.floor), { atMost: 1.1 }),
		figure(`${at}: b / a′ (reference)`, 'ratio', per(ms.fieldOps, s.aKeep)),
		figure(`${at}: d / a′ (reference)`, 'ratio', per(ms.floor, s.aKeep)),
		figure(`${at}: (b) peak RSS growth of n8n`, 'MiB', mem.fieldOps),
		figure(`${at}: (b∥) peak RSS growth of n8n`, 'MiB', mem.sliced),
		figure(`${at}: (c) peak RSS growth of n8n`, 'MiB', mem.httpRequest),
		figure(`${at}: (d) peak RSS growth of n8n`, 'MiB', mem.floor),
		figure(`${at}: b / d, memory`, 'ratio', per(mem.fieldOps, mem.floor), { atMost: 1.1 }),
	];
	if (zero)
		figures.push(
			figure(`${at}: b∥ / b (slices against sequence)`, 'ratio', per(ms.sliced, ms.fieldOps), { atMost: 1 }),
			figure(`${at}: (b) of which the Field Ops node`, 'ms', await nodeMs('fieldOps', 'Field Ops')),
			figure(`${at}: (d) of which the floor node`, 'ms', await nodeMs('floor', 'Field Ops')),
			figure(`${at}: (c) of which the HTTP Request node`, 'ms', await nodeMs('httpRequest', 'HTTP Request')),
		);
	else
		figures.push(
			figure(`${at}: c / b∥`, 'ratio', per(ms.httpRequest, ms.sliced), { atLeast: 3 }),
			figure(`${at}: a / b∥`, 'ratio', per(s.a, ms.sliced), { atLeast: 2 }),
			figure(`${at}: c / b (reference)`, 'ratio', per(ms.httpRequest, ms.fieldOps)),
			figure(`${at}: a / b (reference)`, 'ratio', per(s.a, ms.fieldOps)),
		);
	return { samples: s, figures };
}

export async function run({ runs }: { runs: number }): Promise<Section> {
	const n8nOptions = { inspect: true, env: floorExtensionEnv() };
	return withSandboxAndN8n(['--scale', String(SCALE)], n8nOptions, async (sandbox, bench) => {
		const remote = await startSandboxProcess(['--scale', String(SCALE), '--latency-ms', String(LATENCY_MS)]);
		try {
			const remoteName = `Field Ops (bench, ${LATENCY_MS} ms)`;
			const remoteId = await bench.n8n.createCredential(
				remoteName,
				CREDENTIAL_TYPE,
				fieldOpsCredentialData(remote),
			);
			const warm = await rawLoop(sandbox, { measureJson: true });
			const remoteWarm = await rawLoop(remote);
			if (remoteWarm.records !== warm.records)
				throw new Error(`the two sandboxes serve ${warm.records} and ${remoteWarm.records} records`);

			const local = await measure(
				runs,
				sandbox,
				await workflows(bench, sandbox, '0 ms', bench.fieldOpsCredential),
				'0 ms',
				warm.records,
			);
			const far = await measure(
				runs,
				remote,
				await workflows(bench, remote, `${LATENCY_MS} ms`, {
					[CREDENTIAL_TYPE]: { id: remoteId, name: remoteName },
				}),
				`${LATENCY_MS} ms`,
				warm.records,
			);
			const jsonMiB = warm.jsonBytes / MiB;
			return {
				id: 'extraction',
				title: `Extraction of ${warm.records} time registrations, at 0 and ${LATENCY_MS} ms per request`,
				facts: {
					records: warm.records,
					recordsJsonBytes: warm.jsonBytes,
					rawPagesAt10000: warm.pages,
					httpRequestPagesAt2500: Math.ceil(warm.records / 2500),
					latencyMs: LATENCY_MS,
				},
				figures: [
					...local.figures,
					...far.figures,
					figure(
						'0 ms: (b) peak RSS growth / records JSON size (reference)',
						'ratio',
						local.samples.mem.fieldOps.map((v) => v / jsonMiB),
					),
				],
				notes: [],
			};
		} finally {
			await remote.stop();
		}
	});
}
