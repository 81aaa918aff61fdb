import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A proxy on 127.0.0.1 in front of the sandbox's reporting API that behaves like another service: it may refuse
 * or drop a query parameter, answer with another Date header, and it counts the requests and query strings it
 * forwards. Point the credential's Reporting URL at `url`.
 */
export interface ServiceProxy {
	url: string;
	/** Query strings of the requests seen, per path. */
	requests: Array<{ path: string; query: URLSearchParams }>;
	close(): Promise<void>;
}

export interface ProxyBehaviour {
	/** Answer 400 (as the real service might) when a request carries this parameter on a matching path. */
	refuse?: { parameter: string; paths: RegExp };
	/** Forward without this parameter on a matching path, as a service that ignores it. */
	ignore?: { parameter: string; paths: RegExp };
	/** The Date header to send instead of the sandbox's (a proxy with a wrong clock). */
	date?: () => string | undefined;
}

export async function serviceProxy(target: string, behaviour: ProxyBehaviour = {}): Promise<ServiceProxy> {
	const requests: ServiceProxy['requests'] = [];
	const server = createServer((req, res) => {
		void (async () => {
			const url = new URL(req.url ?? '/', target);
			requests.push({ path: url.pathname, query: new URLSearchParams(url.searchParams) });
			const { refuse, ignore } = behaviour;
			if (refuse && refuse.paths.test(url.pathname) && url.searchParams.has(refuse.parameter)) {
				res.writeHead(400, { 'content-type': 'application/json' });
				res.end(JSON.stringify({ message: `${refuse.parameter} is not a parameter of ${url.pathname}` }));
				return;
			}
			if (ignore && ignore.paths.test(url.pathname)) url.searchParams.delete(ignore.parameter);
			const upstream = await fetch(url, { headers: { authorization: req.headers.authorization ?? '' } });
			const body = Buffer.from(await upstream.arrayBuffer());
			const date = behaviour.date?.() ?? upstream.headers.get('date') ?? '';
			res.writeHead(upstream.status, {
				'content-type': upstream.headers.get('content-type') ?? 'application/octet-stream',
				date,
			});
			res.end(body);
		})().catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		requests,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}
