import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { type RunningSandbox, type SandboxInfo, startSandbox } from './server';

/** Milliseconds a call takes, from send to the whole answer. */
async function timed<T>(work: () => Promise<T>): Promise<{ ms: number; result: T }> {
	const start = performance.now();
	const result = await work();
	return { ms: performance.now() - start, result };
}

// Timers may fire up to a millisecond early after rounding; the bounds are lower bounds only.
const SLACK_MS = 2;

describe('sandbox --latency-ms and --latency-per-kb (#18)', () => {
	const LATENCY_MS = 120;
	const sb = useSandbox({ latencyMs: LATENCY_MS });

	it('adds the latency to every request of the service: token server, core and reporting', async () => {
		const token = await timed(() => tokenFor(sb()));
		expect(token.ms).toBeGreaterThanOrEqual(LATENCY_MS - SLACK_MS);
		for (const [url, path] of [
			[sb().coreUrl, '/api/v4/integration/projects'],
			[sb().reportingUrl, '/v1/user'],
		]) {
			const { ms, result } = await timed(() => call(url, path, { token: token.result }));
			expect(result.status).toBe(200);
			expect(ms).toBeGreaterThanOrEqual(LATENCY_MS - SLACK_MS);
		}
	});

	it('does not delay /__sandbox control calls: one answers while a service call is still waiting', async () => {
		let slow: RunningSandbox | undefined;
		try {
			slow = await startSandbox({ latencyMs: 60_000 });
			let serviceAnswered = false;
			const pending = call(slow.coreUrl, '/api/v4/integration/projects').then(
				() => (serviceAnswered = true),
				() => (serviceAnswered = true),
			);
			const clock = await call(slow.coreUrl, '/__sandbox/clock');
			expect(clock.status).toBe(200);
			expect(serviceAnswered).toBe(false);
			await slow.close();
			slow = undefined;
			await pending;
		} finally {
			await slow?.close();
		}
	});

	it('adds the per-KiB latency to large answers, such as a reporting page', async () => {
		const PER_KB = 5;
		const running = await startSandbox({ latencyPerKb: PER_KB });
		try {
			const token = await tokenFor(running);
			const { ms, result } = await timed(() =>
				call(running.reportingUrl, '/v1/time-registrations', { token, query: { ChunkLimit: 150 } }),
			);
			expect(result.status).toBe(200);
			const expected = (result.raw.length / 1024) * PER_KB;
			expect(expected).toBeGreaterThan(50);
			expect(ms).toBeGreaterThanOrEqual(expected - SLACK_MS);
		} finally {
			await running.close();
		}
	});

	it('npm run sandbox -- --variant alt --latency-ms N: the CLI takes both options', async () => {
		const tsx = join(process.cwd(), 'node_modules', '.bin', 'tsx');
		const child = spawn(tsx, ['test/sandbox/cli.ts', '--variant', 'alt', '--latency-ms', '80'], {
			cwd: process.cwd(),
			stdio: ['ignore', 'pipe', 'inherit'],
		});
		try {
			const [line] = (await once(createInterface({ input: child.stdout }), 'line')) as [string];
			const info = JSON.parse(line) as SandboxInfo;
			expect(info).toMatchObject({ ready: true, variant: 'alt' });
			const form = new URLSearchParams({
				grant_type: 'client_credentials',
				client_id: 'fieldops-user',
				client_secret: 'sandbox-user-secret',
				scope: 'serviceapiv3 masstransportapiv1',
			});
			const { ms, result } = await timed(() =>
				call(info.identityUrl, '/connect/token', {
					method: 'POST',
					body: form.toString(),
					headers: { 'content-type': 'application/x-www-form-urlencoded' },
				}),
			);
			// [A1] alt: the scope the client lacks is left out of the token rather than refused.
			expect(result.body.scope).toBe('serviceapiv3');
			expect(ms).toBeGreaterThanOrEqual(80 - SLACK_MS);
		} finally {
			child.kill('SIGTERM');
			await once(child, 'exit');
		}
	});
});
