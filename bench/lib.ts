/**
 * Shared by the benchmark sections (`npm run bench`): a sandbox in its own process, a real n8n with our
 * package and a Field Ops credential, workflows run through a webhook and timed by the execution's own
 * start and stop, the n8n process's RSS sampled from /proc, and min/median/max.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

import {
	CREDENTIAL_TYPE,
	freePort,
	startN8n,
	viaLocalhost,
	type N8nInstance,
	type StartOptions,
	type WorkflowFile,
} from '../scripts/n8n/run';

export const ROOT = resolve(__dirname, '..');

/** One measured figure: every sample is kept; the table shows min/median/max. */
export interface Figure {
	name: string;
	unit: string;
	samples: number[];
	/** The target in words, e.g. "≤ 1.3". */
	target?: string;
	/** Whether the median meets the target (undefined: no target). */
	met?: boolean;
}

export interface Section {
	id: string;
	title: string;
	figures: Figure[];
	/** Counts and context worth keeping next to the figures (records, bytes, requests …). */
	facts?: Record<string, unknown>;
	notes?: string[];
}

export interface Summary {
	min: number;
	median: number;
	max: number;
}

export function summarize(samples: number[]): Summary {
	if (!samples.length) return { min: NaN, median: NaN, max: NaN };
	const sorted = [...samples].sort((a, b) => a - b);
	const middle = sorted.length >> 1;
	const median = sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
	return { min: sorted[0], median, max: sorted[sorted.length - 1] };
}

/** A figure whose median is checked against `limit` (`atMost`: median ≤ limit; otherwise median ≥ limit). */
export function figure(
	name: string,
	unit: string,
	samples: number[],
	check?: { atMost?: number; atLeast?: number },
): Figure {
	if (!check) return { name, unit, samples };
	const { median } = summarize(samples);
	if (check.atMost !== undefined)
		return { name, unit, samples, target: `≤ ${check.atMost}`, met: median <= check.atMost };
	return { name, unit, samples, target: `≥ ${check.atLeast}`, met: median >= (check.atLeast ?? -Infinity) };
}

export const MiB = 1024 * 1024;

export interface SandboxInfo {
	coreUrl: string;
	reportingUrl: string;
	identityUrl: string;
	machineStateUrl: string;
	clients: { clientId: string; clientSecret: string; administrator?: boolean }[];
}

export interface SandboxProcess {
	info: SandboxInfo;
	admin: { clientId: string; clientSecret: string };
	/** `/__sandbox/stats`: requests per route, tokens issued, 401s sent. */
	stats(): Promise<{ requests: Record<string, number>; tokensIssued: number; unauthorized: number }>;
	resetStats(): Promise<void>;
	/** Any control call (`/__sandbox/...` on the core address). */
	control<T = unknown>(method: string, path: string, json?: unknown): Promise<T>;
	/** A bearer token of the admin client, for raw requests. */
	token(scope?: string): Promise<string>;
	stop(): Promise<void>;
}

/** The sandbox in its own process (its CPU and memory are not the n8n process's), e.g. `['--scale', '118000']`. */
export async function startSandboxProcess(args: string[] = []): Promise<SandboxProcess> {
	const child = spawn(
		resolve(ROOT, 'node_modules', '.bin', 'tsx'),
		[resolve(ROOT, 'test', 'sandbox', 'cli.ts'), ...args],
		{
			stdio: ['ignore', 'pipe', 'inherit'],
		},
	);
	const exited = new Promise<void>((done) => child.once('exit', () => done()));
	const line = await new Promise<string>((done, fail) => {
		let text = '';
		child.stdout.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			if (text.includes('\n')) done(text.split('\n')[0]);
		});
		child.once('exit', (code) => fail(new Error(`sandbox exited with ${code} before it was ready`)));
	});
	const info = JSON.parse(line) as SandboxInfo;
	// n8n runs with SSRF protection on (N8N_3_SETTINGS), which allows the sandbox by host name.
	for (const key of ['coreUrl', 'reportingUrl', 'identityUrl', 'machineStateUrl'] as const)
		info[key] = viaLocalhost(info[key]);
	const admin = info.clients.find((c) => c.administrator) ?? info.clients[0];
	const control = async <T>(method: string, path: string, json?: unknown): Promise<T> => {
		const res = await fetch(`${info.coreUrl}/__sandbox${path}`, {
			method,
			headers: json === undefined ? {} : { 'content-type': 'application/json' },
			body: json === undefined ? undefined : JSON.stringify(json),
		});
		const text = await res.text();
		if (res.status >= 300) throw new Error(`sandbox ${method} ${path}: HTTP ${res.status} ${text}`);
		return (text ? JSON.parse(text) : undefined) as T;
	};
	return {
		info,
		admin,
		stats: () => control('GET', '/stats'),
		resetStats: () => control('DELETE', '/stats'),
		control,
		async token(scope = 'serviceapiv3 reportingapiv1 masstransportapiv1') {
			const res = await fetch(`${info.identityUrl}/connect/token`, {
				method: 'POST',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
				body: new URLSearchParams({
					grant_type: 'client_credentials',
					client_id: admin.clientId,
					client_secret: admin.clientSecret,
					scope,
				}),
			});
			const body = (await res.json()) as { access_token?: string };
			if (!body.access_token) throw new Error(`no token for ${admin.clientId}: ${JSON.stringify(body)}`);
			return body.access_token;
		},
		async stop() {
			child.kill('SIGTERM');
			await exited;
		},
	};
}

/** The credential data of the admin client, every API ticked. */
export function fieldOpsCredentialData(sandbox: SandboxProcess): Record<string, unknown> {
	const { info, admin } = sandbox;
	return {
		environment: 'test',
		coreUrl: info.coreUrl,
		reportingUrl: info.reportingUrl,
		identityUrl: info.identityUrl,
		machineStateUrl: info.machineStateUrl,
		clientId: admin.clientId,
		clientSecret: admin.clientSecret,
		useCoreApi: true,
		useReportingApi: true,
		useMachineStateApi: true,
	};
}

export interface BenchN8n {
	n8n: N8nInstance;
	/** `{ fieldOpsOAuth2Api: { id, name } }`, ready for a node's `credentials`. */
	fieldOpsCredential: Record<string, { id: string; name: string }>;
	/**
	 * With `inspect`: n8n's garbage collected and its unused memory given back (V8's low-memory notification),
	 * so that each run's RSS growth starts from the same floor whatever ran before it.
	 */
	collectGarbage?: () => Promise<void>;
	stop(): Promise<void>;
}

export interface BenchN8nOptions extends StartOptions {
	/** Start n8n with its inspector on loopback (see {@link BenchN8n.collectGarbage}). */
	inspect?: boolean;
}

/** The inspector protocol of a process started with `--inspect` (Node 22+ has WebSocket built in). */
export async function connectInspector(port: number) {
	const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as {
		webSocketDebuggerUrl: string;
	}[];
	const socket = new WebSocket(target.webSocketDebuggerUrl);
	await new Promise((ready) => socket.addEventListener('open', ready, { once: true }));
	const waiting = new Map<number, (result: unknown) => void>();
	socket.addEventListener('message', (event) => {
		const message = JSON.parse(String(event.data)) as { id?: number; result?: unknown };
		if (message.id) waiting.get(message.id)?.(message.result);
	});
	let lastId = 0;
	const send = <T>(method: string, params: object = {}) =>
		new Promise<T>((answer) => {
			waiting.set(++lastId, answer as (result: unknown) => void);
			socket.send(JSON.stringify({ id: lastId, method, params }));
		});
	return { send, close: () => socket.close() };
}

/** A real n8n (owner, API key, a Field Ops credential on the sandbox's admin client). */
async function startBenchN8n(sandbox: SandboxProcess, options: BenchN8nOptions = {}): Promise<BenchN8n> {
	const { inspect, ...startOptions } = options;
	const port = inspect ? await freePort() : undefined;
	const n8n = await startN8n(
		port === undefined
			? startOptions
			: { ...startOptions, env: { ...startOptions.env, NODE_OPTIONS: `--inspect=127.0.0.1:${port}` } },
	);
	try {
		await n8n.setupOwner();
		await n8n.createApiKey();
		const name = 'Field Ops (bench)';
		const id = await n8n.createCredential(name, CREDENTIAL_TYPE, fieldOpsCredentialData(sandbox));
		const inspector = port === undefined ? undefined : await connectInspector(port);
		return {
			n8n,
			fieldOpsCredential: { [CREDENTIAL_TYPE]: { id, name } },
			collectGarbage: inspector && (async () => void (await inspector.send('HeapProfiler.collectGarbage'))),
			async stop() {
				inspector?.close();
				await n8n.stop();
			},
		};
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}

/** Starts the sandbox (with `sandboxArgs`) and an n8n on it, runs `work`, and stops both whatever happens. */
export async function withSandboxAndN8n<T>(
	sandboxArgs: string[],
	n8nOptions: BenchN8nOptions,
	work: (sandbox: SandboxProcess, bench: BenchN8n) => Promise<T>,
): Promise<T> {
	const sandbox = await startSandboxProcess(sandboxArgs);
	try {
		const bench = await startBenchN8n(sandbox, n8nOptions);
		try {
			return await work(sandbox, bench);
		} finally {
			await bench.stop();
		}
	} finally {
		await sandbox.stop();
	}
}

/** Samples a process's resident memory (VmRSS, from /proc) every `everyMs` until `stop()`. */
export function sampleRss(pid: number, everyMs = 20): { stop(): { baseline: number; peak: number } } {
	const read = () => {
		const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
		return match ? Number(match[1]) * 1024 : 0;
	};
	const baseline = read();
	let peak = baseline;
	const timer = setInterval(() => {
		try {
			peak = Math.max(peak, read());
		} catch {
			// The process ended.
		}
	}, everyMs);
	return {
		stop() {
			clearInterval(timer);
			try {
				peak = Math.max(peak, read());
			} catch {
				// The process ended.
			}
			return { baseline, peak };
		},
	};
}

export interface WebhookRun {
	executionId: string;
	status: string;
	/** The execution's own stoppedAt − startedAt, in ms (the work inside n8n). */
	ms: number;
	/** Wall time of the webhook call from this process, in ms (includes HTTP and saving). */
	wallMs: number;
	/** RSS of the n8n main process just before the call and its peak during it, in bytes. */
	rssBaseline: number;
	rssPeak: number;
	/** The webhook's answer: the last node's first item's JSON (`responseData: firstEntryJson`). */
	response: unknown;
}

export interface WebhookWorkflow {
	id: string;
	run(body?: unknown): Promise<WebhookRun>;
	/** The saved execution with its run data (can be large: call it once, outside the timing). */
	execution(executionId: string): Promise<any>;
}

/**
 * Imports and activates a workflow that starts with a webhook and returns the last node's first item when it
 * is done. `nodes` are the nodes after the webhook, connected in a line; `connections` (optional) replaces the
 * line. Each node gets the Field Ops credential when its type is ours (or the floor node) and it has none.
 */
export async function webhookWorkflow(
	bench: BenchN8n,
	name: string,
	nodes: WorkflowFile['nodes'],
	options: {
		connections?: WorkflowFile['connections'];
		responseData?: 'firstEntryJson' | 'noData';
		/** Workflow settings besides `executionOrder: 'v1'` (e.g. `saveDataSuccessExecution: 'none'`). */
		settings?: Record<string, unknown>;
		/**
		 * false: n8n does not keep the execution (its data would be too large to save), so `ms` is the webhook's wall
		 * time and `executionId` is empty.
		 */
		saved?: boolean;
	} = {},
): Promise<WebhookWorkflow> {
	const { n8n } = bench;
	const path = randomUUID();
	const webhook = {
		id: randomUUID(),
		name: 'Webhook',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: {
			httpMethod: 'POST',
			path,
			responseMode: 'lastNode',
			responseData: options.responseData ?? 'firstEntryJson',
		},
	};
	const placed = nodes.map((node, index) => ({
		id: randomUUID(),
		position: [260 * (index + 1), 0],
		...node,
		...(/\.fieldOps/.test(node.type) && !node.credentials ? { credentials: bench.fieldOpsCredential } : {}),
	}));
	const all = [webhook, ...placed] as WorkflowFile['nodes'];
	const line: Record<string, unknown> = {};
	for (let i = 0; i + 1 < all.length; i++)
		line[all[i].name as string] = { main: [[{ node: all[i + 1].name, type: 'main', index: 0 }]] };
	const id = await n8n.importWorkflow({
		name,
		nodes: all,
		connections: options.connections ?? line,
		settings: { executionOrder: 'v1', ...options.settings },
	});
	await n8n.activateWorkflow(id);

	const latestId = async (): Promise<string | undefined> => {
		const list = await n8n.api('GET', `/executions?workflowId=${id}&limit=1`);
		return (list.body?.data?.[0]?.id as string | undefined) ?? undefined;
	};

	return {
		id,
		async run(body = {}) {
			await bench.collectGarbage?.();
			const before = await latestId();
			const pid = n8n.process.pid;
			if (!pid) throw new Error('n8n has no pid');
			const rss = sampleRss(pid);
			const started = performance.now();
			let answer: Response | undefined;
			for (let attempt = 0; ; attempt++) {
				answer = await fetch(`${n8n.url}/webhook/${path}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify(body),
				});
				// Just activated: n8n may take a moment to register the webhook.
				if (answer.status !== 404 || attempt >= 40) break;
				await answer.arrayBuffer();
				await new Promise((r) => setTimeout(r, 250));
			}
			const text = await answer.text();
			const wallMs = performance.now() - started;
			const memory = rss.stop();
			if (options.saved === false) {
				if (answer.status >= 300)
					throw new Error(
						`"${name}" failed (HTTP ${answer.status}): ${text.slice(0, 500)}\n${n8n.logTail(20)}`,
					);
				let response: unknown = text;
				try {
					response = JSON.parse(text);
				} catch {
					// Not JSON (noData).
				}
				return {
					executionId: '',
					status: 'success',
					ms: wallMs,
					wallMs,
					rssBaseline: memory.baseline,
					rssPeak: memory.peak,
					response,
				};
			}
			// The execution is saved just after the answer: wait for it.
			for (let waited = 0; ; waited += 100) {
				const executionId = await latestId();
				if (executionId && executionId !== before) {
					const summary = (await n8n.api('GET', `/executions/${executionId}`)).body as {
						status: string;
						startedAt: string;
						stoppedAt?: string | null;
					};
					if (summary.stoppedAt) {
						if (answer.status >= 300 || summary.status !== 'success') {
							throw new Error(
								`"${name}" failed (HTTP ${answer.status}, execution ${executionId} ${summary.status}): ${text.slice(0, 500)}\n${n8n.logTail(20)}`,
							);
						}
						let response: unknown = text;
						try {
							response = JSON.parse(text);
						} catch {
							// Not JSON (noData).
						}
						return {
							executionId,
							status: summary.status,
							ms: Date.parse(summary.stoppedAt) - Date.parse(summary.startedAt),
							wallMs,
							rssBaseline: memory.baseline,
							rssPeak: memory.peak,
							response,
						};
					}
				}
				if (waited > 120_000)
					throw new Error(
						`no finished execution of "${name}" 2 min after its webhook answered ${answer.status}: ${text.slice(0, 300)}`,
					);
				await new Promise((r) => setTimeout(r, 100));
			}
		},
		async execution(executionId) {
			return (await n8n.api('GET', `/executions/${executionId}?includeData=true`)).body;
		},
	};
}

/** Runs `fn` `runs` times (after `warmup` unrecorded runs) and returns the results in order. */
export async function repeat<T>(runs: number, fn: (run: number) => Promise<T>, warmup = 0): Promise<T[]> {
	for (let i = 0; i < warmup; i++) await fn(-1 - i);
	const results: T[] = [];
	for (let i = 0; i < runs; i++) results.push(await fn(i));
	return results;
}
