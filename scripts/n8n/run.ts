/**
 * Real n8n, headless, for `npm run demo` and the end-to-end tests: starts `n8n start` on loopback with our
 * package installed as a community package, sets up the owner and an API key, and offers the few calls the
 * demo and the tests need. Install n8n first with `ensureN8n()` (scripts/n8n/install.ts).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
	closeSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	openSync,
	readFileSync,
	readdirSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_2, ROOT, node24, node24Env, type N8nRelease } from './install';

export const PACKAGE_NAME = 'n8n-nodes-fieldops';
export const NODE_TYPE = `${PACKAGE_NAME}.fieldOps`;
export const TRIGGER_NODE_TYPE = `${PACKAGE_NAME}.fieldOpsTrigger`;
export const TOOL_NODE_TYPE = `${PACKAGE_NAME}.fieldOpsTool`;
export const CREDENTIAL_TYPE = 'fieldOpsOAuth2Api';

export const OWNER = {
	email: 'demo@fieldops.example.com',
	password: 'FieldOps-demo-1',
	firstName: 'Field',
	lastName: 'Ops',
};
// Fixed so that a kept user folder can be decrypted again after a restart.
const ENCRYPTION_KEY = 'fieldops-e2e-not-a-secret';
// The auth cookie is bound to this header; any constant works for a script.
const BROWSER_ID = 'fieldops-e2e';

/**
 * n8n 3.0's defaults, switched on in the n8n 2.x we run wherever 2.x has them: SSRF protection on, with the Field
 * Ops addresses allowed by host name as a user allows their own service (credentials use http://localhost:<port>,
 * see `viaLocalhost`), and the binary data folder under its 3.0 name (`storage`, an old `binaryData` renamed).
 * Queue mode with manual executions on workers is the `queue` option of `startN8n` (a Redis and a worker per
 * start); the binary data mode is then n8n's queue default, `database` (`filesystem` otherwise).
 */
export const N8N_3_SETTINGS: Readonly<Record<string, string>> = {
	N8N_SSRF_PROTECTION_ENABLED: 'true',
	N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost',
	N8N_MIGRATE_FS_STORAGE_PATH: 'true',
};

/** A loopback address by the host name the SSRF settings allow (`http://127.0.0.1:8080` → `http://localhost:8080`). */
export const viaLocalhost = (url: string) =>
	url.replace(/^(https?:\/\/)127\.0\.0\.1(?=[:/]|$)/, '$1localhost');

/** A free TCP port on loopback (closed again before n8n binds it; a race we accept for tests). */
export function freePort(): Promise<number> {
	return new Promise((resolvePort, reject) => {
		const server = createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const address = server.address();
			server.close(() =>
				typeof address === 'object' && address ? resolvePort(address.port) : reject(new Error('no port')),
			);
		});
	});
}

/**
 * `npm pack` of the built package (run `npm run build` first); returns the tarball's path. The folder is this
 * process's own, so tests, the demo and benchmarks running at once never remove each other's tarball.
 */
export function packPackage(destination = join(ROOT, '.e2e', 'pack', String(process.pid))): string {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		n8n: { nodes: string[]; credentials: string[] };
	};
	const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
	// A build running at the same time cleans dist/ first: give it up to a minute to finish.
	for (let waited = 0; declared.some((path) => !existsSync(join(ROOT, path))); waited++) {
		if (waited >= 60)
			throw new Error(
				`dist/ lacks ${declared.filter((path) => !existsSync(join(ROOT, path))).join(', ')}: run \`npm run build\` first`,
			);
		execFileSync('sleep', ['1']);
	}
	mkdirSync(destination, { recursive: true });
	for (const old of readdirSync(destination)) if (old.endsWith('.tgz')) rmSync(join(destination, old));
	const out = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
		cwd: ROOT,
		env: node24Env(),
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	const [packed] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
	// A build that started meanwhile would give a tarball n8n loads without our types.
	const inTarball = new Set(packed.files.map((f) => f.path));
	const missing = declared.filter((path) => !inTarball.has(path));
	if (missing.length)
		throw new Error(
			`The packed tarball lacks ${missing.join(', ')}: run \`npm run build\` (and let other builds finish) first`,
		);
	return join(destination, packed.filename);
}

/**
 * Installs the tarball the way n8n installs a community package: `npm install` into `<user folder>/.n8n/nodes`,
 * without peer dependencies (n8n provides n8n-workflow) and without install scripts.
 */
export function installCommunityPackage(userFolder: string, tarball: string): void {
	const nodesDir = join(userFolder, '.n8n', 'nodes');
	mkdirSync(nodesDir, { recursive: true });
	const manifest = join(nodesDir, 'package.json');
	if (!existsSync(manifest))
		writeFileSync(
			manifest,
			`${JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }, null, 2)}\n`,
		);
	execFileSync(
		'npm',
		[
			'install',
			'--omit=peer',
			'--ignore-scripts',
			'--prefer-offline',
			'--package-lock=false',
			'--audit=false',
			'--fund=false',
			'--bin-links=false',
			'--loglevel=error',
			tarball,
		],
		{ cwd: nodesDir, env: node24Env(), stdio: ['ignore', 'pipe', 'pipe'] },
	);
}

/**
 * n8n only logs `Failed to load package` and goes on without our types; loading each declared node and
 * credential here (with n8n's own n8n-workflow) gives the actual error instead.
 */
export function checkPackageLoads(userFolder: string, n8n: N8nRelease = N8N_2): void {
	const dir = join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	const script = `
		const { join } = require('node:path');
		const manifest = require(join(${JSON.stringify(dir)}, 'package.json'));
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			const exported = require(join(${JSON.stringify(dir)}, file));
			for (const Type of Object.values(exported)) if (typeof Type === 'function') new Type();
		}`;
	try {
		execFileSync(node24(), ['-e', script], {
			env: { ...node24Env(), NODE_PATH: join(n8n.dir, 'node_modules') },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
	} catch (error) {
		const stderr = String((error as { stderr?: Buffer }).stderr ?? error);
		throw new Error(
			`${PACKAGE_NAME} would not load in n8n (is the build broken?):\n${stderr.split('\n').slice(0, 12).join('\n')}`,
		);
	}
}

export interface HttpAnswer<T = any> {
	status: number;
	body: T;
	headers: Headers;
}

export interface StartOptions {
	/** Keep using this folder (state survives a restart); a fresh temp folder otherwise. */
	userFolder?: string;
	/**
	 * Our package's tarball to install; FIELDOPS_TARBALL or a fresh `npm pack` of dist/ when omitted.
	 * `false`: install nothing.
	 */
	tarball?: string | false;
	port?: number;
	/** Extra environment for n8n (e.g. queue mode). */
	env?: Record<string, string>;
	/** n8n's binary data mode (N8N_DEFAULT_BINARY_DATA_MODE); n8n's own default when omitted. */
	binaryDataMode?: 'filesystem' | 'database';
	/** Print n8n's output here instead of only into `<user folder>/n8n.log`. */
	inheritOutput?: boolean;
	/** Seconds to wait for /healthz/readiness and /rest/settings. */
	readyTimeout?: number;
	/** Which installed n8n to run (`ensureN8n({ release })` first); n8n 2.x unless told. */
	n8n?: N8nRelease;
	/**
	 * Queue mode as n8n 3.0 runs it: a Redis of its own, main with `EXECUTIONS_MODE=queue` and manual executions
	 * offloaded to workers, and one `n8n worker` (`instance.worker`); `stop()` stops all three.
	 */
	queue?: boolean;
}

export interface N8nInstance {
	/** The n8n it runs. */
	n8n: N8nRelease;
	url: string;
	port: number;
	userFolder: string;
	env: NodeJS.ProcessEnv;
	process: ChildProcess;
	/** Seconds from spawn to readiness. */
	startSeconds: number;
	/** The worker of a queue-mode start. */
	worker?: N8nWorker;
	cookie?: string;
	apiKey?: string;
	/** Internal REST API (`/rest/...`) with the owner's login cookie; answers are unwrapped from `{ data }`. */
	rest<T = any>(method: string, path: string, json?: unknown): Promise<HttpAnswer<T>>;
	/** Any path of the server (e.g. `/types/nodes.json`) with the login cookie. */
	get<T = any>(path: string): Promise<HttpAnswer<T>>;
	/** Public API (`/api/v1/...`) with the API key. */
	api<T = any>(method: string, path: string, json?: unknown): Promise<HttpAnswer<T>>;
	/** Sets up the owner (or logs in if it exists) and keeps the cookie. */
	setupOwner(): Promise<void>;
	createApiKey(): Promise<string>;
	createCredential(name: string, type: string, data: Record<string, unknown>): Promise<string>;
	/**
	 * The editor's "Test" of a saved credential (2.41 requires its id), with `data` as edited in the form (n8n
	 * merges it over the stored values), or the saved values as the form shows them when omitted.
	 */
	testCredential(
		id: string,
		type: string,
		data?: Record<string, unknown>,
	): Promise<{ status: string; message: string }>;
	/** Creates a workflow through the public API (only the fields it accepts); returns its id. */
	importWorkflow(
		workflow: WorkflowFile,
		credentialIds?: Record<string, { id: string; name: string }>,
	): Promise<string>;
	activateWorkflow(id: string): Promise<void>;
	/** Runs a saved workflow with `n8n execute` in a second process (uses the same database). */
	executeWithCli(id: string): Promise<any>;
	/** Waits for the newest finished execution of a workflow and returns it with its data. */
	latestExecution(workflowId: string, timeoutMs?: number): Promise<any>;
	/** A workflow's finished executions with their data, oldest first, once `enough` accepts them (asked each second). */
	finishedExecutions<T = any>(
		workflowId: string,
		enough: (found: T[]) => boolean,
		timeoutMs: number,
	): Promise<T[]>;
	/** The tail of n8n's log, for failure messages. */
	logTail(lines?: number): string;
	stop(): Promise<void>;
}

export interface WorkflowFile {
	name: string;
	nodes: {
		type: string;
		credentials?: Record<string, { id: string; name: string }>;
		[key: string]: unknown;
	}[];
	connections: unknown;
	settings?: Record<string, unknown>;
	[key: string]: unknown;
}

/**
 * A production webhook (POST `path`, node "Start") → `nodes` in a row; it answers with the last node's items
 * (`responseData`: n8n's Webhook option). Each node gets an id and a place unless it brings its own.
 */
export function webhookChain(
	name: string,
	path: string,
	nodes: Array<Record<string, unknown>>,
	responseData: 'allEntries' | 'firstEntryJson' | 'firstEntryBinary' = 'allEntries',
): WorkflowFile {
	const start = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.webhook',
		typeVersion: 2,
		position: [0, 0],
		webhookId: path,
		parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData, options: {} },
	};
	const chain: Array<Record<string, unknown>> = [
		start,
		...nodes.map((node, i) => ({ id: `n${i}`, position: [260 * (i + 1), 0], ...node })),
	];
	const connections = Object.fromEntries(
		chain
			.slice(0, -1)
			.map((node, i) => [
				String(node.name),
				{ main: [[{ node: String(chain[i + 1].name), type: 'main', index: 0 }]] },
			]),
	);
	return {
		name,
		nodes: chain as unknown as WorkflowFile['nodes'],
		connections,
		settings: { executionOrder: 'v1' },
	};
}

async function http(
	url: string,
	method: string,
	headers: Record<string, string>,
	json?: unknown,
): Promise<HttpAnswer> {
	const res = await fetch(url, {
		method,
		headers: { ...headers, ...(json === undefined ? {} : { 'content-type': 'application/json' }) },
		body: json === undefined ? undefined : JSON.stringify(json),
	});
	const text = await res.text();
	let body: unknown = text;
	if ((res.headers.get('content-type') ?? '').includes('json') && text) body = JSON.parse(text);
	return { status: res.status, body, headers: res.headers };
}

function expectOk<T>(answer: HttpAnswer<T>, what: string): T {
	if (answer.status >= 300)
		throw new Error(
			`${what}: HTTP ${answer.status} ${typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body)}`,
		);
	return answer.body;
}

/** The environment that runs n8n quietly on loopback (see the notes on running n8n here). */
export function n8nEnv(
	userFolder: string,
	port: number,
	brokerPort: number,
	extra: Record<string, string> = {},
): NodeJS.ProcessEnv {
	const env = node24Env({
		N8N_USER_FOLDER: userFolder,
		N8N_ENCRYPTION_KEY: ENCRYPTION_KEY,
		N8N_PORT: String(port),
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: 'localhost',
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://localhost:${port}`,
		WEBHOOK_URL: `http://localhost:${port}/`,
		N8N_SECURE_COOKIE: 'false',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_LOG_LEVEL: 'info',
		DB_SQLITE_POOL_SIZE: '2',
		...N8N_3_SETTINGS,
		...extra,
	});
	// Jest sets NODE_ENV=test, which switches n8n into its own test mode: run it as a user would.
	for (const key of Object.keys(env)) if (key === 'NODE_ENV' || key.startsWith('JEST_')) delete env[key];
	return env;
}

// n8n runs in its own process group (so stop() can end its task runner too), which also means it outlives a
// script that exits without stop(): end those groups when this process exits.
const running = new Set<number>();
process.on('exit', () => {
	for (const pid of running) {
		try {
			process.kill(-pid, 'SIGKILL');
		} catch {
			// Already gone.
		}
	}
});

interface SpawnedN8n {
	child: ChildProcess;
	readonly exited: boolean;
	log(): string;
	logTail(lines?: number): string;
	/** SIGTERM to the whole process group (n8n and its task runner), SIGKILL after 15 s. */
	stop(): Promise<void>;
}

/** `n8n <command>` in its own process group, its output appended to `logFile` (or inherited). */
function spawnN8n(
	n8n: N8nRelease,
	command: 'start' | 'worker',
	cwd: string,
	env: NodeJS.ProcessEnv,
	logFile: string,
	inheritOutput = false,
): SpawnedN8n {
	const logFd = openSync(logFile, 'a');
	const args = command === 'worker' ? [n8n.bin, 'worker', '--concurrency=2'] : [n8n.bin, command];
	const child = spawn(node24(), args, {
		cwd,
		env,
		detached: true,
		stdio: ['ignore', inheritOutput ? 'inherit' : logFd, inheritOutput ? 'inherit' : logFd],
	});
	closeSync(logFd);
	let exited = false;
	if (child.pid) running.add(child.pid);
	const exitPromise = new Promise<void>((resolveExit) =>
		child.on('exit', () => {
			exited = true;
			if (child.pid) running.delete(child.pid);
			resolveExit();
		}),
	);
	const log = () => (existsSync(logFile) ? readFileSync(logFile, 'utf8') : '');
	const signal = (name: NodeJS.Signals) => {
		try {
			if (child.pid) process.kill(-child.pid, name);
		} catch {
			// Already gone.
		}
	};
	return {
		child,
		get exited() {
			return exited;
		},
		log,
		logTail: (lines = 40) => log().split('\n').slice(-lines).join('\n') || '(no log)',
		async stop() {
			if (exited || !child.pid) return;
			signal('SIGTERM');
			const timer = setTimeout(() => signal('SIGKILL'), 15_000);
			await exitPromise;
			clearTimeout(timer);
		},
	};
}

/** Starts n8n and waits until it is ready. The owner and API key are created by `setupOwner`/`createApiKey`. */
export async function startN8n(options: StartOptions = {}): Promise<N8nInstance> {
	const n8n = options.n8n ?? N8N_2;
	if (!existsSync(n8n.bin)) {
		const line = n8n === N8N_2 ? '' : ` ${n8n.version.split('.')[0]}`;
		throw new Error(
			`n8n ${n8n.version} is not installed: run \`npx tsx scripts/n8n/install.ts${line}\` first (${n8n.bin} is missing)`,
		);
	}
	const ownFolder = options.userFolder === undefined;
	const userFolder = options.userFolder ?? mkdtempSync(join(tmpdir(), 'fieldops-n8n-'));
	mkdirSync(userFolder, { recursive: true });
	try {
		if (options.tarball !== false) {
			installCommunityPackage(userFolder, options.tarball ?? process.env.FIELDOPS_TARBALL ?? packPackage());
			checkPackageLoads(userFolder, n8n);
		}
	} catch (error) {
		if (ownFolder) rmSync(userFolder, { recursive: true, force: true });
		throw error;
	}

	const port = options.port ?? (await freePort());
	const binaryMode: Record<string, string> = options.binaryDataMode
		? { N8N_DEFAULT_BINARY_DATA_MODE: options.binaryDataMode }
		: {};
	const redis = options.queue ? await startRedis() : undefined;
	const queueEnv: Record<string, string> = redis
		? {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redis.port),
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
			}
		: {};
	const env = n8nEnv(userFolder, port, await freePort(), { ...queueEnv, ...binaryMode, ...options.env });
	const started = Date.now();
	const n8nProcess = spawnN8n(
		n8n,
		'start',
		userFolder,
		env,
		join(userFolder, 'n8n.log'),
		options.inheritOutput,
	);
	const { child, logTail } = n8nProcess;
	const exited = () => n8nProcess.exited;
	const url = `http://localhost:${port}`;
	let worker: N8nWorker | undefined;
	const stop = async () => {
		await worker?.stop();
		await n8nProcess.stop();
		redis?.stop();
		if (ownFolder) rmSync(userFolder, { recursive: true, force: true });
	};

	const deadline = started + (options.readyTimeout ?? 120) * 1000;
	for (;;) {
		if (exited()) {
			const tail = logTail();
			await stop();
			throw new Error(`n8n exited before it was ready:\n${tail}`);
		}
		if (Date.now() > deadline) {
			const tail = logTail();
			await stop();
			throw new Error(`n8n was not ready after ${options.readyTimeout ?? 120} s:\n${tail}`);
		}
		try {
			// n8n 1.x answers readiness once its database is migrated, before its REST API is mounted (POST
			// /rest/owner/setup then gets Express's 404): ready means the public settings answer too.
			const res = await fetch(`${url}/healthz/readiness`);
			if (res.status === 200 && (await fetch(`${url}/rest/settings`)).status === 200) break;
		} catch {
			// Not listening yet.
		}
		await new Promise((r) => setTimeout(r, 250));
	}

	const instance: N8nInstance = {
		n8n,
		url,
		port,
		userFolder,
		env,
		process: child,
		startSeconds: (Date.now() - started) / 1000,
		async rest(method, path, json) {
			const headers: Record<string, string> = { 'browser-id': BROWSER_ID };
			if (instance.cookie) headers.cookie = instance.cookie;
			const answer = await http(`${url}/rest${path}`, method, headers, json);
			if (answer.body && typeof answer.body === 'object' && 'data' in answer.body)
				answer.body = answer.body.data;
			return answer;
		},
		async get(path) {
			return http(`${url}${path}`, 'GET', {
				'browser-id': BROWSER_ID,
				...(instance.cookie ? { cookie: instance.cookie } : {}),
			});
		},
		async api(method, path, json) {
			if (!instance.apiKey) throw new Error('No API key yet: call createApiKey() first');
			return http(`${url}/api/v1${path}`, method, { 'x-n8n-api-key': instance.apiKey }, json);
		},
		async setupOwner() {
			let answer = await http(`${url}/rest/owner/setup`, 'POST', { 'browser-id': BROWSER_ID }, OWNER);
			if (answer.status >= 300) {
				// A kept user folder already has its owner.
				answer = await http(
					`${url}/rest/login`,
					'POST',
					{ 'browser-id': BROWSER_ID },
					{ emailOrLdapLoginId: OWNER.email, password: OWNER.password },
				);
			}
			expectOk(answer, 'owner set-up / login');
			const cookie = answer.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
			if (!cookie) throw new Error('n8n set no n8n-auth cookie');
			instance.cookie = cookie.split(';')[0];
		},
		async createApiKey() {
			const scopes = expectOk(await instance.rest<string[]>('GET', '/api-keys/scopes'), 'API key scopes');
			const created = expectOk(
				await instance.rest('POST', '/api-keys', {
					label: `fieldops-${Date.now()}`,
					scopes,
					expiresAt: null,
				}),
				'API key creation',
			);
			instance.apiKey = (created.rawApiKey ?? created.apiKey) as string;
			return instance.apiKey;
		},
		async createCredential(name, type, data) {
			const created = expectOk(
				await instance.rest('POST', '/credentials', { name, type, data }),
				'credential creation',
			);
			return created.id as string;
		},
		async testCredential(id, type, data) {
			// Without edits, send what the editor's form holds: the stored values with secrets redacted (n8n
			// puts them back). Sending no data at all fails in 2.41.1 for OAuth2 ("reading 'accessToken'").
			const form =
				data ??
				expectOk(await instance.rest('GET', `/credentials/${id}?includeData=true`), `credential ${id}`).data;
			return expectOk(
				await instance.rest('POST', '/credentials/test', { credentials: { id, type, data: form } }),
				'credential test',
			);
		},
		async importWorkflow(workflow, credentialIds = {}) {
			const nodes = workflow.nodes.map((node) => {
				if (!node.credentials) return node;
				const credentials = Object.fromEntries(
					Object.entries(node.credentials).map(([credType, ref]) => [
						credType,
						credentialIds[credType] ?? ref,
					]),
				);
				return { ...node, credentials };
			});
			const created = expectOk(
				await instance.api('POST', '/workflows', {
					name: workflow.name,
					nodes,
					connections: workflow.connections,
					settings: workflow.settings ?? { executionOrder: 'v1' },
				}),
				`import of "${workflow.name}"`,
			);
			return created.id as string;
		},
		async activateWorkflow(id) {
			expectOk(await instance.api('POST', `/workflows/${id}/activate`), `activation of workflow ${id}`);
		},
		async executeWithCli(id) {
			const cliEnv = { ...env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
			const out = await new Promise<string>((resolveRun, reject) => {
				const cli = spawn(node24(), [n8n.bin, 'execute', `--id=${id}`, '--rawOutput'], {
					cwd: userFolder,
					env: cliEnv,
					stdio: ['ignore', 'pipe', 'pipe'],
				});
				let stdout = '';
				let stderr = '';
				cli.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
				cli.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
				cli.on('error', reject);
				cli.on('exit', (code, signal) => {
					// Measured here: `n8n execute` 2.41.1 sometimes segfaults while shutting down, after printing the
					// complete run data; that run counts when its JSON is complete.
					if (code === 0 || (signal === 'SIGSEGV' && runData(stdout) !== undefined)) resolveRun(stdout);
					else
						reject(
							new Error(`n8n execute --id=${id} failed (exit ${code ?? signal}):\n${stdout}\n${stderr}`),
						);
				});
			});
			const data = runData(out);
			if (data === undefined) throw new Error(`n8n execute printed no JSON:\n${out}`);
			return data;
		},
		async latestExecution(workflowId, timeoutMs = 30_000) {
			const until = Date.now() + timeoutMs;
			for (;;) {
				const list = expectOk(
					await instance.api('GET', `/executions?workflowId=${workflowId}&limit=1`),
					'executions',
				);
				const [latest] = (list.data ?? []) as {
					id: string;
					finished: boolean;
					stoppedAt?: string | null;
					status?: string;
				}[];
				if (latest && latest.stoppedAt) {
					return expectOk(
						await instance.api('GET', `/executions/${latest.id}?includeData=true`),
						`execution ${latest.id}`,
					);
				}
				if (Date.now() > until)
					throw new Error(`No finished execution of workflow ${workflowId} after ${timeoutMs} ms`);
				await new Promise((r) => setTimeout(r, 250));
			}
		},
		async finishedExecutions(workflowId, enough, timeoutMs) {
			for (const until = Date.now() + timeoutMs; ; ) {
				const list = await instance.api('GET', `/executions?workflowId=${workflowId}&limit=50`);
				const done = (list.body.data as { id: string; stoppedAt?: string | null }[])
					.filter((e) => e.stoppedAt)
					.sort((a, b) => +a.id - +b.id);
				const found = [];
				for (const { id } of done)
					found.push((await instance.api('GET', `/executions/${id}?includeData=true`)).body);
				if (enough(found)) return found;
				if (Date.now() > until)
					throw new Error(`Workflow ${workflowId}: ${found.length} execution(s) after ${timeoutMs / 1000} s`);
				await new Promise((r) => setTimeout(r, 1000));
			}
		},
		logTail,
		stop,
	};
	if (redis) {
		try {
			worker = await startWorker(instance);
		} catch (error) {
			await stop();
			throw error;
		}
		instance.worker = worker;
	}
	return instance;
}

/** A throwaway Redis on loopback for queue mode: no persistence, stopped with its n8n. */
export async function startRedis(): Promise<{ port: number; stop(): void }> {
	const binary = process.env.REDIS_SERVER ?? 'redis-server';
	if (spawnSync(binary, ['--version']).error) {
		throw new Error(
			`Queue mode needs Redis: \`${binary}\` was not found. Install it with \`apt-get install -y redis-server\` (or set REDIS_SERVER).`,
		);
	}
	const port = await freePort();
	const child: ChildProcess = spawn(
		binary,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	await new Promise<void>((ready, fail) => {
		let out = '';
		const timer = setTimeout(() => fail(new Error(`redis-server did not start:\n${out}`)), 15_000);
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (out.includes('Ready to accept connections')) {
				clearTimeout(timer);
				ready();
			}
		});
		child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${out}`)));
	});
	return { port, stop: () => child.kill('SIGTERM') };
}

export interface N8nWorker {
	process: ChildProcess;
	logTail(lines?: number): string;
	/** The whole worker log (to see which executions it ran). */
	log(): string;
	stop(): Promise<void>;
}

/**
 * Queue mode: an `n8n worker` beside a main started with `EXECUTIONS_MODE=queue` (same user folder, database,
 * encryption key and Redis, so it loads the same community packages). Resolves once the worker is ready.
 */
export async function startWorker(main: N8nInstance, readySeconds = 90, name = 'worker'): Promise<N8nWorker> {
	const env = {
		...main.env,
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		QUEUE_HEALTH_CHECK_PORT: String(await freePort()),
	};
	// One log per worker (`<name>.log`): readiness and the executions it ran are read from it.
	const logFile = join(main.userFolder, `${name}.log`);
	// A fresh log: readiness is read from it.
	writeFileSync(logFile, '');
	const worker = spawnN8n(main.n8n, 'worker', main.userFolder, env, logFile);
	const { logTail, stop } = worker;
	const until = Date.now() + readySeconds * 1000;
	// n8n 2.41.1 prints this once the worker listens to the queue.
	while (!/n8n worker is now ready/i.test(worker.log())) {
		if (worker.exited || Date.now() > until) {
			const tail = logTail();
			await stop();
			throw new Error(
				`n8n worker ${worker.exited ? 'exited' : `was not ready after ${readySeconds} s`}:\n${tail}`,
			);
		}
		await new Promise((r) => setTimeout(r, 250));
	}
	return { process: worker.child, log: worker.log, logTail, stop };
}

/**
 * The JSON `n8n execute --rawOutput` prints between log lines: from the first line that starts with `{` to the last
 * line that is `}` (on a loaded machine the task runner's "Registered runner" line can follow it).
 */
function runData(stdout: string): any {
	const lines = stdout.split('\n');
	const start = lines.findIndex((line) => line.startsWith('{'));
	const end = lines.findLastIndex((line) => line === '}');
	if (start < 0 || end < start) return undefined;
	try {
		return JSON.parse(lines.slice(start, end + 1).join('\n'));
	} catch {
		return undefined;
	}
}

/** The items one node produced in an execution's run data (first run, first output). */
export function nodeOutput(execution: any, nodeName: string): Record<string, unknown>[] {
	const runData = execution?.data?.resultData?.runData ?? execution?.resultData?.runData;
	const run = runData?.[nodeName]?.[0];
	if (!run) throw new Error(`No run data for node "${nodeName}"`);
	if (run.error)
		throw new Error(`Node "${nodeName}" failed: ${run.error.message ?? JSON.stringify(run.error)}`);
	return ((run.data?.main?.[0] ?? []) as { json: Record<string, unknown> }[]).map((item) => item.json);
}
