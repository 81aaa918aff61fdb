import type { Reply, RequestContext, Scope } from './http';
import type { Sandbox } from './sandbox';

/** Which configured address serves a route; with `--split` each has its own port. */
export type Api = 'core' | 'reporting' | 'identity' | 'machineState';

export type Handler = (ctx: RequestContext, sandbox: Sandbox) => Promise<Reply> | Reply;

export interface Route {
	api: Api;
	method: string;
	/** As in the spec, e.g. `/api/v4/integration/projects/{id}`; also the key in `/__sandbox/stats`. */
	template: string;
	/** `null`: no bearer token needed (token server, control endpoints). */
	scope: Scope | null;
	handler: Handler;
	segments: string[];
	literalCount: number;
}

export interface RouteMatch {
	route: Route;
	params: Record<string, string>;
}

export class Router {
	private readonly routes: Route[] = [];

	add(api: Api, method: string, template: string, scope: Scope | null, handler: Handler): void {
		const segments = template.split('/').filter(Boolean);
		const literalCount = segments.filter((s) => !s.startsWith('{')).length;
		this.routes.push({ api, method, template, scope, handler, segments, literalCount });
	}

	/** Every route, for tests that exercise the whole surface. */
	list(): readonly Route[] {
		return this.routes;
	}

	/** Core API routes need `serviceapiv3`. */
	core(method: string, template: string, handler: Handler): void {
		this.add('core', method, template, 'serviceapiv3', handler);
	}

	reporting(method: string, template: string, handler: Handler): void {
		this.add('reporting', method, template, 'reportingapiv1', handler);
	}

	machineState(method: string, template: string, handler: Handler): void {
		this.add('machineState', method, template, 'masstransportapiv1', handler);
	}

	/** Sandbox control endpoints, on the core address, no token. */
	control(method: string, template: string, handler: Handler): void {
		this.add('core', method, template, null, handler);
	}

	/**
	 * Finds the route for a raw (still encoded) path. Each segment is decoded on its own, so `%2F` in an id
	 * stays inside its segment. A literal segment beats a parameter (`/by-project-number/...` over `/{id}`).
	 * Answers `methodNotAllowed` when the path exists under another method.
	 */
	match(
		apis: ReadonlySet<Api>,
		method: string,
		rawPath: string,
	): RouteMatch | 'methodNotAllowed' | undefined {
		const rawSegments = rawPath.split('/').filter(Boolean);
		let segments: string[];
		try {
			segments = rawSegments.map((s) => decodeURIComponent(s));
		} catch {
			return undefined;
		}
		let best: RouteMatch | undefined;
		let pathExists = false;
		for (const route of this.routes) {
			if (!apis.has(route.api) || route.segments.length !== segments.length) continue;
			const params: Record<string, string> = {};
			let ok = true;
			for (let i = 0; i < segments.length && ok; i++) {
				const part = route.segments[i];
				if (part.startsWith('{')) params[part.slice(1, -1)] = segments[i];
				else ok = part.toLowerCase() === segments[i].toLowerCase();
			}
			if (!ok) continue;
			pathExists = true;
			if (route.method !== method) continue;
			if (!best || route.literalCount > best.route.literalCount) best = { route, params };
		}
		if (best) return best;
		return pathExists ? 'methodNotAllowed' : undefined;
	}
}
