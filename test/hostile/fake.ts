import {
	createServer,
	type IncomingHttpHeaders,
	type IncomingMessage,
	type Server,
	type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Distinctive values, so a leak is found wherever it lands (also URL-encoded: none of their characters needs it). */
export const CLIENT_ID = 'hostile-client';
export const CLIENT_SECRET = 'cs7f3aHOSTILEsecret91d2';
export const ACCESS_TOKEN = 'at5b8eHOSTILEtokenc04f';

/** The credential's four addresses, and a fifth host that is none of them (a cross-origin redirect target). */
export type Host = 'identity' | 'core' | 'reporting' | 'machineState' | 'elsewhere';
const HOSTS: Host[] = ['identity', 'core', 'reporting', 'machineState', 'elsewhere'];

/** One request a fake server received. */
export interface Exchange {
	host: Host;
	method: string;
	path: string;
	query: URLSearchParams;
	headers: IncomingHttpHeaders;
	body: string;
}

export type Reply = (request: Exchange, res: ServerResponse) => void | Promise<void>;

interface Route {
	host: Host;
	method: string;
	path: string | RegExp;
	reply: Reply;
}

/**
 * Small fake Field Ops servers on 127.0.0.1 (one per address, like production), answering what each test says.
 * Every request is recorded; later routes win over earlier ones, so a test overrides the happy path it set up.
 */
export class FakeFieldOps {
	readonly seen: Exchange[] = [];
	private routes: Route[] = [];
	private readonly sockets = new Set<Socket>();

	private constructor(
		readonly urls: Record<Host, string>,
		private readonly servers: Server[],
	) {}

	static async start(): Promise<FakeFieldOps> {
		const servers = HOSTS.map(() => createServer());
		const urls = {} as Record<Host, string>;
		for (const [index, server] of servers.entries()) {
			await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
			urls[HOSTS[index]] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
		}
		const fake = new FakeFieldOps(urls, servers);
		servers.forEach((server, index) => {
			server.on('connection', (socket) => {
				fake.sockets.add(socket);
				socket.on('close', () => fake.sockets.delete(socket));
			});
			server.on('request', (req, res) => void fake.handle(HOSTS[index], req, res));
		});
		fake.reset();
		return fake;
	}

	/** Forgets the routes and the requests seen; the token server hands out {@link ACCESS_TOKEN} again. */
	reset(): void {
		this.routes = [];
		this.seen.length = 0;
		this.on(
			'identity',
			'POST',
			'/connect/token',
			json(200, { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600 }),
		);
	}

	on(host: Host, method: string, path: string | RegExp, reply: Reply): this {
		this.routes.push({ host, method, path, reply });
		return this;
	}

	/** Requests seen on a host (and method), oldest first. */
	requests(host?: Host, method?: string): Exchange[] {
		return this.seen.filter((e) => (!host || e.host === host) && (!method || e.method === method));
	}

	async close(): Promise<void> {
		for (const socket of this.sockets) socket.destroy();
		await Promise.all(this.servers.map((server) => new Promise((resolve) => server.close(resolve))));
	}

	private async handle(host: Host, req: IncomingMessage, res: ServerResponse) {
		const chunks: Buffer[] = [];
		for await (const chunk of req) chunks.push(chunk as Buffer);
		const url = new URL(req.url ?? '/', 'http://fake');
		const exchange: Exchange = {
			host,
			method: req.method ?? 'GET',
			path: url.pathname,
			query: url.searchParams,
			headers: req.headers,
			body: Buffer.concat(chunks).toString('latin1'),
		};
		this.seen.push(exchange);
		const route = [...this.routes]
			.reverse()
			.find(
				(r) =>
					r.host === host &&
					r.method === exchange.method &&
					(typeof r.path === 'string' ? r.path === url.pathname : r.path.test(url.pathname)),
			);
		if (!route) return json(404, { message: `No route ${exchange.method} ${url.pathname}` })(exchange, res);
		await route.reply(exchange, res);
	}
}

export const json =
	(status: number, body: unknown, headers: Record<string, string> = {}): Reply =>
	(_request, res) => {
		res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
		res.end(body === undefined ? '' : JSON.stringify(body));
	};

export const text =
	(status: number, body: string, contentType = 'text/plain', headers: Record<string, string> = {}): Reply =>
	(_request, res) => {
		res.writeHead(status, { 'content-type': contentType, ...headers });
		res.end(body);
	};

/** A long web page, as a proxy or a wrong address answers. */
export const PAGE = `<!DOCTYPE html><html><head><title>Sign in</title></head><body>${'<p>Welcome to the portal</p>'.repeat(200)}</body></html>`;
export const html = (status: number, page = PAGE): Reply => text(status, page, 'text/html; charset=utf-8');

export const redirect =
	(status: number, location: string): Reply =>
	(_request, res) => {
		res.writeHead(status, { location, 'content-type': 'text/plain' });
		res.end(`Moved to ${location}`);
	};

/** Everything the request carried, back in an error body: a hostile or debugging server. */
export const echo =
	(status: number): Reply =>
	(request, res) => {
		res.writeHead(status, { 'content-type': 'application/json' });
		const seen = `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${request.body}`;
		res.end(
			JSON.stringify({
				message: seen,
				error: 'invalid_request',
				error_description: seen,
				errors: [{ field: 'request', message: seen }],
			}),
		);
	};

/** Headers, then nothing: the body never comes. */
export const stall =
	(contentType = 'application/json'): Reply =>
	(_request, res) => {
		res.writeHead(200, { 'content-type': contentType });
		res.flushHeaders();
		res.write(contentType.includes('json') ? '{"data": [' : '%PDF-1');
	};

/** The connection dropped without an answer. */
export const drop = (): Reply => (_request, res) => {
	res.socket?.destroy();
};

/** Answers in turn; the last one repeats. */
export function sequence(...replies: Reply[]): Reply {
	let next = 0;
	return (request, res) => replies[Math.min(next++, replies.length - 1)](request, res);
}

/** A file download. */
export const file =
	(content: string, name = 'file.pdf', type = 'application/pdf'): Reply =>
	(_request, res) => {
		res.writeHead(200, { 'content-type': type, 'content-disposition': `attachment; filename="${name}"` });
		res.end(content);
	};

/** An address where nothing listens (connection refused). */
export async function closedPort(): Promise<string> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise((resolve) => server.close(resolve));
	return `http://127.0.0.1:${port}`;
}
