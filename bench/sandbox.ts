/**
 * `npm run bench:sandbox`: the sandbox must never be the bottleneck of the extraction benchmarks.
 * Measures (min/median/max over 5 runs): seeding 100,000 records of one feed, and serving 100,000 time
 * registrations at ChunkLimit=10000 to a plain undici loop that follows the continuation tokens.
 */
import { cpus, totalmem } from 'node:os';

import { request } from 'undici';

import { startSandbox } from '../test/sandbox/server';
import { feedStore, kindDefinition } from '../test/sandbox/reporting/feeds';

const RECORDS = 100_000;
/** The admin client sees its company structure's records: 85 % of a feed (the rest is another company's). */
const SCALE = Math.ceil(RECORDS / 0.85);
const RUNS = 5;

const stats = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return { min: sorted[0], median: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
};

async function token(identityUrl: string): Promise<string> {
	const res = await request(`${identityUrl}/connect/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: 'fieldops-admin',
			client_secret: 'sandbox-admin-secret',
			scope: 'reportingapiv1',
		}).toString(),
	});
	return ((await res.body.json()) as { access_token: string }).access_token;
}

async function main(): Promise<void> {
	const seedMs: number[] = [];
	const serveMs: number[] = [];
	let served = 0;
	for (let run = 0; run < RUNS; run++) {
		const sb = await startSandbox({ scale: SCALE, seed: run + 1 });
		const definition = kindDefinition('time-registrations');
		if (!definition) throw new Error('no time-registrations feed');
		let started = performance.now();
		feedStore(sb.sandbox, definition);
		seedMs.push(performance.now() - started);

		const bearer = await token(sb.identityUrl);
		// The whole window, so every seeded record is served.
		const query = {
			FromDateTime: '2000-01-01T00:00:00Z',
			ToDateTime: '2100-01-01T00:00:00Z',
			ChunkLimit: '10000',
		};
		started = performance.now();
		served = 0;
		let continuation = '';
		do {
			const params = new URLSearchParams({
				...query,
				...(continuation ? { ContinuationToken: continuation } : {}),
			});
			const res = await request(`${sb.reportingUrl}/v1/time-registrations?${params}`, {
				headers: { authorization: `Bearer ${bearer}` },
			});
			const page = (await res.body.json()) as { data: unknown[]; continuationToken?: string };
			served += page.data.length;
			continuation = page.continuationToken ?? '';
		} while (continuation);
		serveMs.push(performance.now() - started);
		await sb.close();
	}
	const seed = stats(seedMs);
	const serve = stats(serveMs);
	const round = (v: number) => Math.round(v);
	console.log(
		`sandbox benchmark — ${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
	);
	console.log(
		`seed ${SCALE} time registrations: min ${round(seed.min)} ms, median ${round(seed.median)} ms, max ${round(seed.max)} ms (target < 5000 ms)`,
	);
	console.log(
		`serve ${served} time registrations at ChunkLimit 10000: min ${round(serve.min)} ms, median ${round(serve.median)} ms, max ${round(serve.max)} ms (target < 2000 ms)`,
	);
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
