import { request } from 'undici';

import { type RunningSandbox, startSandbox } from '../sandbox/server';
import type { SandboxOptions } from '../sandbox/sandbox';
import { variantByName } from '../sandbox/variant';

export type { RunningSandbox };

/**
 * Starts an in-process sandbox for one test file: `const sb = useSandbox();` then `sb().coreUrl` inside
 * tests. Closed after the file's tests. Without `options.variant`, `FIELDOPS_SANDBOX_VARIANT` (`default` or
 * `alt`) chooses the variant, so the node suites can be run against `alt` unchanged; the sandbox's own suites
 * (test/sandbox/) check the default's rules and ignore it.
 */
export function useSandbox(options: SandboxOptions = {}): () => RunningSandbox {
	let running: RunningSandbox | undefined;
	const ownSuite = /[\\/]test[\\/]sandbox[\\/]/.test(expect.getState().testPath ?? '');
	// The real-n8n suites run n8n with SSRF protection on (N8N_3_SETTINGS in scripts/n8n/run.ts), which allows the
	// sandbox by host name, as a user allows their own service: there its addresses are http://localhost:<port>.
	const realN8n = /[\\/]test[\\/](e2e|compat)[\\/]/.test(expect.getState().testPath ?? '');
	const variant =
		options.variant ?? (ownSuite ? 'default' : variantByName(process.env.FIELDOPS_SANDBOX_VARIANT).name);
	beforeAll(async () => {
		running = await startSandbox({ ...(realN8n ? { host: 'localhost' } : {}), ...options, variant });
	});
	afterAll(async () => {
		await running?.close();
	});
	return () => {
		if (!running) throw new Error('The sandbox is not started yet (use it inside a test)');
		return running;
	};
}

export interface HttpResult<T = any> {
	status: number;
	headers: Record<string, string | string[] | undefined>;
	body: T;
	/** The raw bytes, for non-JSON answers. */
	raw: Buffer;
}

export interface CallOptions {
	method?: string;
	token?: string;
	json?: unknown;
	body?: string | Buffer | FormData;
	headers?: Record<string, string>;
	query?: Record<string, string | number | boolean | string[] | undefined>;
}

/** One HTTP call; the body is parsed as JSON when the answer says it is JSON. */
export async function call<T = any>(
	baseUrl: string,
	path: string,
	options: CallOptions = {},
): Promise<HttpResult<T>> {
	const url = new URL(path, baseUrl);
	for (const [key, value] of Object.entries(options.query ?? {})) {
		if (value === undefined) continue;
		if (Array.isArray(value)) for (const v of value) url.searchParams.append(key, v);
		else url.searchParams.set(key, String(value));
	}
	const headers: Record<string, string> = { ...options.headers };
	if (options.token) headers.authorization = `Bearer ${options.token}`;
	let body: string | Buffer | FormData | undefined = options.body;
	if (body instanceof FormData) {
		// Encoded by Node's own fetch classes: undici's request() does not take the global FormData.
		const encoded = new Response(body);
		headers['content-type'] = encoded.headers.get('content-type') as string;
		body = Buffer.from(await encoded.arrayBuffer());
	}
	if (options.json !== undefined) {
		body = JSON.stringify(options.json);
		headers['content-type'] ??= 'application/json';
	}
	const res = await request(url, { method: (options.method ?? 'GET') as 'GET', headers, body });
	const raw = Buffer.from(await res.body.arrayBuffer());
	const contentType = String(res.headers['content-type'] ?? '');
	let parsed: unknown = raw;
	if (contentType.includes('json') && raw.length > 0) parsed = JSON.parse(raw.toString('utf8'));
	return { status: res.statusCode, headers: res.headers, body: parsed as T, raw };
}

/** Fetches a token for one of the sandbox's clients (by client id), with the given scopes. */
export async function tokenFor(
	sb: RunningSandbox,
	clientId = 'fieldops-admin',
	scopes?: string[],
): Promise<string> {
	const client = sb.clients.find((c) => c.clientId === clientId);
	if (!client) throw new Error(`No sandbox client ${clientId}`);
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: client.clientId,
		client_secret: client.clientSecret,
		scope: (scopes ?? client.scopes).join(' '),
	});
	const res = await call(sb.identityUrl, '/connect/token', {
		method: 'POST',
		body: form.toString(),
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
	});
	if (res.status !== 200) throw new Error(`Token request failed: ${res.status} ${JSON.stringify(res.body)}`);
	return res.body.access_token as string;
}
