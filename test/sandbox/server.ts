import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

import { ApiError, type ErrorApi, errorReply, type Reply, RequestContext } from './http';
import { authenticate } from './identity';
import { SANDBOX_MODULES } from './modules';
import { type Api, Router } from './router';
import { Sandbox, type SandboxOptions } from './sandbox';
import { DEFAULT_VARIANT, type VariantName } from './variant';

export interface SandboxInfo {
	ready: true;
	coreUrl: string;
	reportingUrl: string;
	identityUrl: string;
	machineStateUrl: string;
	/** Which answers the sandbox gives where the spec is silent (variant.ts). */
	variant: VariantName;
	clients: {
		clientId: string;
		clientSecret: string;
		companyId: string;
		scopes: string[];
		administrator: boolean;
	}[];
}

export interface RunningSandbox extends SandboxInfo {
	/** In-process access to the state, for tests that need to look behind the HTTP interface. */
	sandbox: Sandbox;
	close(): Promise<void>;
}

const ALL_APIS: Api[] = ['core', 'reporting', 'identity', 'machineState'];

export function buildRouter(): Router {
	const router = new Router();
	for (const module of SANDBOX_MODULES) module.register(router);
	return router;
}

/** [E1] Which API's error body a path gets. */
function errorApiOf(path: string, api: Api | undefined): ErrorApi {
	const lower = path.toLowerCase();
	if (lower.startsWith('/api/v5/')) return 'v5';
	if (api === 'reporting' || lower.startsWith('/v1/')) return 'reporting';
	if (api === 'machineState' || lower.startsWith('/api/external-excavator-state')) return 'machineState';
	if (api === 'identity' || lower.startsWith('/connect/')) return 'identity';
	return 'core';
}

/** [X1] A plausible deprecation notice for the v4 users API (the spec shows no dates). */
const V4_DEPRECATION = { Deprecation: '@1798761600', Sunset: 'Fri, 31 Dec 2027 23:59:59 GMT' };

// Unref'd: a request waiting out its latency does not keep a closed sandbox's process alive.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

async function handle(
	router: Router,
	sandbox: Sandbox,
	apis: ReadonlySet<Api>,
	req: IncomingMessage,
	res: ServerResponse,
): Promise<void> {
	const method = (req.method ?? 'GET').toUpperCase();
	const url = new URL(req.url ?? '/', 'http://sandbox.local');
	const ctx = new RequestContext(req, method, url.pathname, url.searchParams);
	const isControl = url.pathname.startsWith('/__sandbox/');
	if (!isControl) {
		ctx.variant = sandbox.variant;
		ctx.ignoreUnknownFields = sandbox.variant.unknownFields === 'ignored';
		// --latency-ms: the network and the service's own time, for every request of the service.
		if (sandbox.latencyMs > 0) await sleep(sandbox.latencyMs);
	}
	let reply: Reply;
	let api: Api | undefined;
	try {
		const match = router.match(apis, method, url.pathname);
		if (match === undefined || match === 'methodNotAllowed') {
			if (!isControl) sandbox.count(`${method} <unmatched>`);
			throw new ApiError(
				match ? 405 : 404,
				match ? `${method} is not allowed on ${url.pathname}` : `No route for ${method} ${url.pathname}`,
			);
		}
		ctx.params = match.params;
		ctx.routeTemplate = match.route.template;
		api = match.route.api;
		if (!isControl) {
			sandbox.count(`${method} ${match.route.template}`);
			const fault = sandbox.takeFault(method, url.pathname, match.route.template);
			if (fault) {
				if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
				if (fault.drop) {
					req.socket.destroy();
					return;
				}
				if (fault.status) {
					send(res, {
						status: fault.status,
						json: fault.body ?? { message: `Injected fault (${fault.status})` },
						headers: fault.headers,
					});
					return;
				}
			}
		}
		if (match.route.scope) ctx.caller = authenticate(ctx, sandbox, match.route.scope);
		reply = await match.route.handler(ctx, sandbox);
	} catch (error) {
		if (error instanceof ApiError) {
			reply = errorReply(error, isControl ? DEFAULT_VARIANT : sandbox.variant, errorApiOf(url.pathname, api));
		} else {
			console.error('[sandbox] unexpected error', method, url.pathname, error);
			reply = { status: 500, json: { message: 'Unexpected sandbox failure' } };
		}
	}
	if (reply.status === 401) sandbox.stats.unauthorized += 1;
	if (
		!isControl &&
		sandbox.variant.v4Deprecation === 'headers' &&
		/^\/api\/v4\/integration\/users(\/|$)/i.test(url.pathname)
	) {
		reply = { ...reply, headers: { ...reply.headers, ...V4_DEPRECATION } };
	}
	// Drain what the handler did not read, so the connection can be reused.
	if (!req.readableEnded) req.resume();
	const prepared = prepare(reply);
	// --latency-per-kb: a large answer (a reporting page of 10,000 records) takes longer to arrive.
	if (!isControl && sandbox.latencyPerKb > 0 && prepared.body !== undefined) {
		await sleep((Buffer.byteLength(prepared.body) / 1024) * sandbox.latencyPerKb);
	}
	write(res, prepared);
}

interface Prepared {
	status: number;
	headers: Record<string, string>;
	body?: Buffer | string;
}

function prepare(reply: Reply): Prepared {
	const headers: Record<string, string> = { ...reply.headers };
	let body: Buffer | string | undefined = reply.body;
	if (reply.json !== undefined) {
		body = JSON.stringify(reply.json);
		headers['Content-Type'] ??= 'application/json; charset=utf-8';
	}
	if (body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(body));
	return { status: reply.status, headers, body };
}

function write(res: ServerResponse, { status, headers, body }: Prepared): void {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, headers);
	res.end(body);
}

function send(res: ServerResponse, reply: Reply): void {
	write(res, prepare(reply));
}

function listen(server: Server, port: number, host: string): Promise<number> {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
	});
}

/** Starts the sandbox; resolves once every port listens. */
export async function startSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
	const host = options.host ?? '127.0.0.1';
	const sandbox = new Sandbox(options);
	const router = buildRouter();
	const groups: Api[][] = options.split ? ALL_APIS.map((api) => [api]) : [ALL_APIS];
	const servers: Server[] = [];
	const urls = {} as Record<Api, string>;
	const firstPort = options.port ?? 0;
	for (const [index, group] of groups.entries()) {
		const apis = new Set(group);
		const server = createServer((req, res) => {
			handle(router, sandbox, apis, req, res).catch((error) => {
				console.error('[sandbox] failed to answer', error);
				res.destroy();
			});
		});
		server.keepAliveTimeout = 65_000;
		server.requestTimeout = 0;
		servers.push(server);
		const port = await listen(server, firstPort === 0 ? 0 : firstPort + index, host);
		for (const api of group) urls[api] = `http://${host}:${port}`;
	}
	sandbox.urls = { ...urls };
	return {
		ready: true,
		coreUrl: urls.core,
		reportingUrl: urls.reporting,
		identityUrl: urls.identity,
		machineStateUrl: urls.machineState,
		variant: sandbox.variant.name,
		clients: sandbox.world.clients.map(({ clientId, clientSecret, companyId, scopes, administrator }) => ({
			clientId,
			clientSecret,
			companyId,
			scopes: [...scopes],
			administrator,
		})),
		sandbox,
		close: async () => {
			await Promise.all(
				servers.map(
					(server) =>
						new Promise<void>((resolve) => {
							server.close(() => resolve());
							server.closeAllConnections();
						}),
				),
			);
		},
	};
}
