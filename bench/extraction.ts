/**
 * 1. Extraction: 100,000 time registrations, against a sandbox answering at once (0 ms) and one adding 100 ms to
 * every request (`--latency-ms 100`, a remote service). (a) a raw undici loop over the continuation tokens at
 * ChunkLimit 10000 that drops each page; (a′) the same loop keeping every record as an object, which is what
 * n8n must do with items; (b) Field Ops "Report → Time Registrations, Return All" in n8n (Output: Items, raw
 * records); (c) n8n's HTTP Request node as a user configures it (generic OAuth2 credential, "update a parameter
 * in each request" pagination with the token expression, the API's default page size 2500) then Split Out.
 * (b) and (c) end in the same Summarize node, whose count is checked on every run. Runs are interleaved
 * (a, a′, b, c, a, …) so noise hits all four alike; ratios are per run.
 */
import { request } from 'undici';

import { CREDENTIAL_TYPE } from '../scripts/n8n/run';
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

/** (b): Field Ops "Report → Time Registrations, Return All" over the whole window, raw records as items. */
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
	},
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

/** (b) and (c) on one sandbox (the n8n credential named after it). */
async function workflows(
	bench: BenchN8n,
	sandbox: SandboxProcess,
	label: string,
	fieldOpsCredential: BenchN8n['fieldOpsCredential'],
) {
	const { info, admin } = sandbox;
	const fieldOps = await webhookWorkflow(bench, `Bench: Field Ops time registrations (${label})`, [
		{ ...FIELD_OPS_EXPORT, credentials: fieldOpsCredential },
		COUNT_NODE,
	]);
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
	return { fieldOps, httpRequest };
}

const counted = (response: unknown, what: string, expected: number) => {
	const count = (response as { count_id?: number }).count_id;
	if (count !== expected)
		throw new Error(`${what} returned ${count} records, the sandbox serves ${expected}: not a valid run`);
};

/** Interleaved runs of (a), (a′), (b), (c) on one sandbox; figures named with `at` ("0 ms", "100 ms"). */
async function measure(
	runs: number,
	sandbox: SandboxProcess,
	flows: Awaited<ReturnType<typeof workflows>>,
	at: string,
	expected: number,
) {
	const { fieldOps, httpRequest } = flows;
	// One unrecorded round first: n8n's first run of a workflow loads and compiles what it needs.
	counted((await fieldOps.run()).response, 'Field Ops', expected);
	counted((await httpRequest.run()).response, 'HTTP Request', expected);
	const s = {
		a: [] as number[],
		aKeep: [] as number[],
		b: [] as number[],
		c: [] as number[],
		bMem: [] as number[],
		cMem: [] as number[],
		bIds: [] as string[],
		cIds: [] as string[],
	};
	for (let i = 0; i < runs; i++) {
		for (const keep of [false, true]) {
			const raw = await rawLoop(sandbox, { keep });
			if (raw.records !== expected) throw new Error(`raw loop read ${raw.records}, expected ${expected}`);
			(keep ? s.aKeep : s.a).push(raw.ms);
		}
		const ours = await fieldOps.run();
		counted(ours.response, 'Field Ops', expected);
		s.b.push(ours.ms);
		s.bIds.push(ours.executionId);
		s.bMem.push((ours.rssPeak - ours.rssBaseline) / MiB);
		const theirs = await httpRequest.run();
		counted(theirs.response, 'HTTP Request', expected);
		s.c.push(theirs.ms);
		s.cIds.push(theirs.executionId);
		s.cMem.push((theirs.rssPeak - theirs.rssBaseline) / MiB);
	}
	const per = (x: number[], y: number[]) => x.map((v, i) => v / y[i]);
	// Where (b) and (c) spend their time: each node's own executionTime, read from the saved executions after
	// the timed runs (each holds 100,000 records: reading them back during the runs would disturb them).
	const nodeMs = async (workflow: typeof fieldOps, executionIds: string[], node: string) => {
		const times: number[] = [];
		for (const executionId of executionIds) {
			// A 70 MB answer; n8n sometimes closes the connection under load: ask again.
			let execution;
			for (let attempt = 1; !execution; attempt++) {
				try {
					execution = await workflow.execution(executionId);
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
	const figures = [
		figure(`${at}: (a) raw undici loop, drops each page`, 'ms', s.a),
		figure(`${at}: (a′) raw loop keeping the records`, 'ms', s.aKeep),
		figure(`${at}: (b) Field Ops Report → Return All (execution)`, 'ms', s.b),
		figure(`${at}: (c) HTTP Request + pagination + Split Out (execution)`, 'ms', s.c),
		figure(`${at}: b / a′`, 'ratio', per(s.b, s.aKeep), zero ? { atMost: 1.3 } : undefined),
		figure(`${at}: b / a`, 'ratio', per(s.b, s.a)),
		figure(`${at}: c / b`, 'ratio', per(s.c, s.b), zero ? undefined : { atLeast: 3 }),
	];
	// Each node's share only at 0 ms (at 100 ms it is the same work plus the waits).
	if (zero)
		figures.push(
			figure(`${at}: (b) of which the Field Ops node`, 'ms', await nodeMs(fieldOps, s.bIds, 'Field Ops')),
			figure(
				`${at}: (c) of which the HTTP Request node`,
				'ms',
				await nodeMs(httpRequest, s.cIds, 'HTTP Request'),
			),
		);
	return { samples: s, figures: figures as Figure[] };
}

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n(['--scale', String(SCALE)], {}, async (sandbox, bench) => {
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
			const m = local.samples;
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
					figure('0 ms: (b) peak RSS growth of n8n', 'MiB', m.bMem),
					figure('0 ms: (c) peak RSS growth of n8n', 'MiB', m.cMem),
					figure(
						'0 ms: (b) peak RSS growth / records JSON size',
						'ratio',
						m.bMem.map((v) => v / jsonMiB),
						{ atMost: 1.5 },
					),
				],
				notes: [],
			};
		} finally {
			await remote.stop();
		}
	});
}
