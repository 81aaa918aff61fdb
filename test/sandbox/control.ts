import { randomBytes } from 'node:crypto';

import { z } from 'zod';

import { parseIsoDate, type Reply } from './http';
import type { Router } from './router';
import type { Fault } from './sandbox';

/**
 * Control endpoints under `/__sandbox`: not part of the service, only for tests, benchmarks and the demo.
 * Work-order templates live in core/, field activity and ground-truth records in reporting/.
 */

const resetBody = z
	.object({ seed: z.number().int().optional(), scale: z.number().int().min(0).max(1_000_000).optional() })
	.strict();

const faultSchema = z
	.object({
		method: z.string().optional(),
		path: z.string().min(1),
		status: z.number().int().min(100).max(599).optional(),
		delayMs: z.number().int().min(0).max(120_000).optional(),
		drop: z.boolean().optional(),
		body: z.unknown().optional(),
		headers: z.record(z.string(), z.string()).optional(),
		after: z.number().int().min(0).optional(),
		times: z.number().int().min(1).default(1),
	})
	.strict()
	.refine((f) => f.status !== undefined || f.delayMs !== undefined || f.drop, {
		message: 'a fault needs status, delayMs or drop',
	});

const clockBody = z.union([
	z.object({ advanceSeconds: z.number() }).strict(),
	z
		.object({ now: z.string().refine((v) => parseIsoDate(v) !== undefined, 'must be an ISO 8601 date-time') })
		.strict(),
]);

const ok = (json: unknown = { ok: true }): Reply => ({ status: 200, json });

export function registerControl(router: Router): void {
	router.control('POST', '/__sandbox/reset', async (ctx, sandbox) => {
		const body = (await ctx.json(resetBody.nullable())) ?? {};
		sandbox.reset(body.seed, body.scale);
		return ok({ ok: true, seed: sandbox.seed, scale: sandbox.scale });
	});

	router.control('GET', '/__sandbox/stats', (_ctx, sandbox) => ok(sandbox.stats));
	router.control('DELETE', '/__sandbox/stats', (_ctx, sandbox) => {
		sandbox.stats = { requests: {}, tokensIssued: 0, unauthorized: 0 };
		return ok();
	});

	router.control('GET', '/__sandbox/faults', (_ctx, sandbox) => ok(sandbox.faults));
	router.control('POST', '/__sandbox/faults', async (ctx, sandbox) => {
		const faults = await ctx.json(z.union([faultSchema, z.array(faultSchema)]));
		sandbox.faults.push(...((Array.isArray(faults) ? faults : [faults]) as Fault[]));
		return ok({ pending: sandbox.faults.length });
	});
	router.control('DELETE', '/__sandbox/faults', (_ctx, sandbox) => {
		sandbox.faults = [];
		return ok();
	});

	// Spec, Authentication 8: an administrator's longer-lived static token, generated in the web interface (here).
	router.control('POST', '/__sandbox/static-tokens', async (ctx, sandbox) => {
		const { clientId } = await ctx.json(z.object({ clientId: z.string() }).strict());
		const client = sandbox.world.clients.find((c) => c.clientId === clientId);
		if (!client) return { status: 404, json: { message: `No client ${clientId}` } };
		const token = `sbx-static.${randomBytes(24).toString('base64url')}`;
		sandbox.tokens.set(token, {
			clientId: client.clientId,
			companyId: client.companyId,
			scopes: [...client.scopes],
			administrator: client.administrator,
			expiresAtMs: Date.now() + 365 * 86_400_000,
		});
		return ok({ token });
	});

	router.control('POST', '/__sandbox/tokens/expire', (_ctx, sandbox) => {
		for (const token of sandbox.tokens.values()) token.expiresAtMs = 0;
		return ok({ expired: sandbox.tokens.size });
	});

	router.control('GET', '/__sandbox/clock', (_ctx, sandbox) => ok({ now: sandbox.clock.iso() }));
	router.control('POST', '/__sandbox/clock', async (ctx, sandbox) => {
		const body = await ctx.json(clockBody);
		if ('advanceSeconds' in body) sandbox.clock.advance(body.advanceSeconds);
		else sandbox.clock.set((parseIsoDate(body.now) as Date).getTime());
		return ok({ now: sandbox.clock.iso() });
	});
}
