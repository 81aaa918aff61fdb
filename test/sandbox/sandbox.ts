import { VirtualClock } from './clock';
import type { Scope } from './http';
import { SANDBOX_MODULES } from './modules';
import { Rng } from './rng';
import { seedMasterData } from './seed';
import { World } from './state';
import { variantByName, type Variant, type VariantName } from './variant';

export interface SandboxOptions {
	/** First port; 0 picks free ports. */
	port?: number;
	/** Serve the core API, reporting API, token server and machine-state API each on its own port. */
	split?: boolean;
	seed?: number;
	/** About this many records per reporting feed. */
	scale?: number;
	/** Lifetime of issued tokens, in seconds. */
	tokenTtl?: number;
	host?: string;
	/** Which answers to give where the spec is silent (variant.ts); default `default`. */
	variant?: VariantName;
	/** Added to every request of the service (not to `/__sandbox/*`), in ms. */
	latencyMs?: number;
	/** Added per KiB of every answer body of the service, in ms (a large reporting page takes longer). */
	latencyPerKb?: number;
	/** The sites' time zone: the day (`date`) of time registrations, payroll lines and absences (default UTC). */
	siteTimeZone?: string;
}

export interface IssuedToken {
	clientId: string;
	companyId: string;
	scopes: Scope[];
	administrator: boolean;
	/** Real (not virtual) time: token lifetime is about wall-clock seconds, whatever the data clock says. */
	expiresAtMs: number;
}

export interface Fault {
	method?: string;
	/** A literal path, a route template (`/api/v4/integration/projects/{id}`), or a prefix ending in `*`. */
	path: string;
	status?: number;
	delayMs?: number;
	/** Destroy the connection without an answer. */
	drop?: boolean;
	body?: unknown;
	headers?: Record<string, string>;
	/** Matching requests to let through before the fault starts (to fail page 3 of a pagination, say). */
	after?: number;
	times: number;
}

export interface Stats {
	/** Requests per `METHOD route-template` (control endpoints not counted). */
	requests: Record<string, number>;
	tokensIssued: number;
	/** 401 responses sent. */
	unauthorized: number;
}

export const DEFAULT_SEED = 1;
export const DEFAULT_SCALE = 200;
export const DEFAULT_TOKEN_TTL_SECONDS = 1800;

/** Everything the sandbox knows: its options, the data world, tokens, statistics and pending faults. */
export class Sandbox {
	readonly clock = new VirtualClock();
	readonly tokens = new Map<string, IssuedToken>();
	faults: Fault[] = [];
	stats: Stats = emptyStats();
	world!: World;
	seed: number;
	scale: number;
	readonly tokenTtlSeconds: number;
	readonly variant: Variant;
	readonly latencyMs: number;
	readonly latencyPerKb: number;
	readonly siteTimeZone: string | undefined;
	/** Base URLs as listening (set by `startSandbox`); reporting records link to files on the core URL. */
	urls = {
		core: 'http://127.0.0.1',
		reporting: 'http://127.0.0.1',
		identity: 'http://127.0.0.1',
		machineState: 'http://127.0.0.1',
	};

	constructor(options: SandboxOptions = {}) {
		this.seed = options.seed ?? DEFAULT_SEED;
		this.scale = options.scale ?? DEFAULT_SCALE;
		this.tokenTtlSeconds = options.tokenTtl ?? DEFAULT_TOKEN_TTL_SECONDS;
		this.variant = variantByName(options.variant);
		this.latencyMs = Math.max(0, options.latencyMs ?? 0);
		this.latencyPerKb = Math.max(0, options.latencyPerKb ?? 0);
		this.siteTimeZone = options.siteTimeZone;
		this.reset();
	}

	/** Rebuilds the data from the seed; tokens stay valid, statistics and faults are cleared. */
	reset(seed = this.seed, scale = this.scale): void {
		this.seed = seed;
		this.scale = scale;
		this.world = new World({
			seed,
			rng: new Rng(seed),
			clock: this.clock,
			scale,
			variant: this.variant,
			siteTimeZone: this.siteTimeZone,
		});
		seedMasterData(this.world);
		for (const module of SANDBOX_MODULES) module.seed?.(this.world);
		this.faults = [];
		this.stats = emptyStats();
	}

	count(key: string): void {
		this.stats.requests[key] = (this.stats.requests[key] ?? 0) + 1;
	}

	/** Takes the first pending fault matching the request, if any. */
	takeFault(method: string, path: string, template: string | undefined): Fault | undefined {
		const index = this.faults.findIndex(
			(f) =>
				(!f.method || f.method.toUpperCase() === method) &&
				(f.path === path ||
					f.path === template ||
					(f.path.endsWith('*') && path.startsWith(f.path.slice(0, -1)))),
		);
		if (index < 0) return undefined;
		const fault = this.faults[index];
		if (fault.after && fault.after > 0) {
			fault.after -= 1;
			return undefined;
		}
		fault.times -= 1;
		if (fault.times <= 0) this.faults.splice(index, 1);
		return fault;
	}
}

function emptyStats(): Stats {
	return { requests: {}, tokensIssued: 0, unauthorized: 0 };
}
