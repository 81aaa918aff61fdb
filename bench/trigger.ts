/**
 * 4. Trigger: one poll with nothing new, and one poll after 50,000 changes (older than the Re-Read Window, so
 * read once without remembering them), on a feed whose cursor is a record field (machine registrations:
 * modifiedDateTime) and on one that uses the poll clock (incident registrations); then a backlog of 100,000
 * records from "Everything" at the default Max Records per Execution (1000), polled until drained: records read ÷
 * backlog and the state's size at every poll; then the soak of test/trigger/soak-driver.ts per kind of feed (a
 * burst of 20,000 rows within one second among two hours of field work and faults, on a simulated feed): its
 * duplicates, gaps, wrong labels, records waiting once caught up, requests and records read after the burst per
 * needed, and the largest state. Polls run through n8n-core's real engine in this process (n8n's own scheduler
 * polls at most once a minute, which is what the e2e test covers); the sandbox runs in its own process.
 * Requests are counted by the sandbox, records read by a proxy in front of its reporting API; every emitted
 * record is checked (no duplicate, none missing).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

import type { IDataObject } from 'n8n-workflow';

import { runSoak, SOAK_KINDS } from '../test/trigger/soak-driver';
import { SCALE } from './extraction';
import { figure, startSandboxProcess, type Figure, type SandboxProcess, type Section } from './lib';

const CHANGES = 50_000;
const FEEDS = [
	{
		feed: 'machineRegistrations',
		kind: 'machine-registrations',
		route: 'GET /v1/machine-registrations',
		path: '/v1/machine-registrations',
		cursor: 'record field',
	},
	{
		feed: 'incidentRegistrations',
		kind: 'incident-registrations',
		route: 'GET /v1/incident-registrations',
		path: '/v1/incident-registrations',
		cursor: 'poll clock',
	},
];
/** Issue #18's targets for a backlog: records read ÷ backlog, and the state at every poll. */
const READ_RATIO = 1.2;
const STATE_BYTES = 64 * 1024;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A proxy in front of the sandbox's reporting API that counts the records it serves. */
async function countingProxy(
	target: string,
): Promise<{ url: string; records: () => number; reset(): void; close(): Promise<void> }> {
	let records = 0;
	const server = createServer((req, res) => {
		void (async () => {
			const upstream = await fetch(new URL(req.url ?? '/', target), {
				headers: { authorization: req.headers.authorization ?? '' },
			});
			const body = Buffer.from(await upstream.arrayBuffer());
			const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
			if (upstream.ok && type.includes('json'))
				records += ((JSON.parse(body.toString('utf8')) as { data?: unknown[] }).data ?? []).length;
			res.writeHead(upstream.status, { 'content-type': type, date: upstream.headers.get('date') ?? '' });
			res.end(body);
		})().catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		records: () => records,
		reset: () => {
			records = 0;
		},
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

/** Every record id the admin client sees in one feed (a raw incremental read from the epoch). */
async function visibleIds(sandbox: SandboxProcess, path: string): Promise<Set<string>> {
	const token = await sandbox.token('reportingapiv1');
	const ids = new Set<string>();
	let continuation = '';
	do {
		const url = new URL(path, sandbox.info.reportingUrl);
		url.searchParams.set('ModifiedSince', '1970-01-01T00:00:00Z');
		url.searchParams.set('ChunkLimit', '10000');
		if (continuation) url.searchParams.set('ContinuationToken', continuation);
		const page = (await (await fetch(url, { headers: { authorization: `Bearer ${token}` } })).json()) as {
			data: Array<{ id: string; isDeleted?: boolean }>;
			continuationToken?: string;
		};
		for (const record of page.data) if (record.isDeleted !== true) ids.add(record.id);
		continuation = page.continuationToken ?? '';
	} while (continuation);
	return ids;
}

export async function run({ runs, seeds }: { runs: number; seeds?: number[] }): Promise<Section> {
	const { N8nHarness } = await import('../test/harness');
	const { TRIGGER, triggerWorkflow, useSandboxCredential } = await import('../test/helpers/workflows');
	const figures: Figure[] = [];
	const facts: Record<string, unknown> = {};
	const sandbox = await startSandboxProcess();
	try {
		const harness = await N8nHarness.load();
		useSandboxCredential(harness, sandbox.info as never);
		const token = await sandbox.token('serviceapiv3');
		const projects = (await (
			await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, {
				headers: { authorization: `Bearer ${token}` },
			})
		).json()) as { id: string }[];
		for (const f of FEEDS) {
			// Everything in one execution, so the one poll after the changes is the whole cost.
			// A short Re-Read Window: the changes are older than it after a short wait (the sandbox's clock runs in
			// real time and is not moved, so n8n's and the service's clocks agree).
			const workflow = triggerWorkflow({
				feed: f.feed,
				events: ['new', 'changed'],
				options: { maxPerPoll: CHANGES, overlapSeconds: 2 },
			});
			const idleRequests: number[] = [];
			const idleMs: number[] = [];
			const busyRequests: number[] = [];
			const busyMs: number[] = [];
			const busyPolls: number[] = [];
			const stateBytes: number[] = [];
			for (let i = 0; i < runs; i++) {
				await sandbox.control('POST', '/reset', {});
				let staticData: IDataObject = {};
				staticData = (await harness.poll(workflow, TRIGGER, { staticData })).staticData;
				await sleep(2500);

				await sandbox.resetStats();
				let started = performance.now();
				const idle = await harness.poll(workflow, TRIGGER, { staticData });
				idleMs.push(performance.now() - started);
				idleRequests.push((await sandbox.stats()).requests[f.route] ?? 0);
				if (idle.items.length)
					throw new Error(`${f.feed}: a poll with nothing new emitted ${idle.items.length}`);
				staticData = idle.staticData;

				// On the company's own projects, so every change is the credential's to see.
				const changed = new Set<string>();
				// In calls of 1,000: each call stamps its records with one millisecond (a tie read whole).
				for (let made = 0; made < CHANGES; made += 1000) {
					const { ids } = await sandbox.control<{ ids: string[] }>('POST', '/activity', {
						kind: f.kind,
						action: 'create',
						count: 1000,
						projectId: projects[Math.floor(made / 10_000) % projects.length].id,
					});
					for (const id of ids) changed.add(id);
				}
				await sleep(3000);

				await sandbox.resetStats();
				started = performance.now();
				// Polls until all are out: one execution may hold all of them; a poll-clock window holds what the
				// state can remember until the next one (about 2,000), so one poll reads up to MAX_READS_PER_POLL.
				const emitted: string[] = [];
				let busy = await harness.poll(workflow, TRIGGER, { staticData });
				let count = 1;
				for (; busy.items.length > 0 && count < 20; count++) {
					emitted.push(...busy.items.map((item) => String(item.json.id)));
					busy = await harness.poll(workflow, TRIGGER, { staticData: busy.staticData });
				}
				busyMs.push(performance.now() - started);
				busyPolls.push(count);
				busyRequests.push((await sandbox.stats()).requests[f.route] ?? 0);
				const unique = new Set(emitted);
				const missing = [...changed].filter((id) => !unique.has(id));
				if (unique.size !== emitted.length || missing.length || unique.size !== changed.size) {
					throw new Error(
						`${f.feed}: ${emitted.length} emitted, ${unique.size} distinct, ${missing.length} of ${changed.size} changes missing`,
					);
				}
				stateBytes.push(Buffer.byteLength(JSON.stringify(busy.staticData)));
			}
			figures.push(
				figure(`${f.feed} (${f.cursor}): requests, nothing new`, 'requests', idleRequests, { atMost: 1 }),
				figure(`${f.feed}: poll, nothing new`, 'ms', idleMs),
				figure(`${f.feed}: requests, after ${CHANGES} changes`, 'requests', busyRequests),
				figure(`${f.feed}: polls until they are out (Max Records ${CHANGES})`, 'polls', busyPolls),
				figure(`${f.feed}: those polls`, 'ms', busyMs),
				figure(`${f.feed}: state after it`, 'bytes', stateBytes),
			);
			facts[f.feed] = { changes: CHANGES, pageSize: 10_000 };
		}
	} finally {
		await sandbox.stop();
	}
	figures.push(...(await backlog(runs, facts, N8nHarness, triggerWorkflow, useSandboxCredential, TRIGGER)));
	figures.push(...soak(seeds ?? Array.from({ length: runs }, (_, run) => 7 + run), facts));
	return {
		id: 'trigger',
		title: `Trigger polls: nothing new, after ${CHANGES} changes, a backlog from "Everything", and the soak with a burst of 20,000 rows`,
		figures,
		facts,
		notes: [],
	};
}

/** A backlog of about 100,000 records per feed from "Everything", default cap, polled until drained. */
async function backlog(
	runs: number,
	facts: Record<string, unknown>,
	Harness: typeof import('../test/harness').N8nHarness,
	triggerWorkflow: typeof import('../test/helpers/workflows').triggerWorkflow,
	useSandboxCredential: typeof import('../test/helpers/workflows').useSandboxCredential,
	TRIGGER: string,
): Promise<Figure[]> {
	const figures: Figure[] = [];
	const sandbox = await startSandboxProcess(['--scale', String(SCALE)]);
	const proxy = await countingProxy(sandbox.info.reportingUrl);
	try {
		const harness = await Harness.load();
		useSandboxCredential(harness, { ...sandbox.info, reportingUrl: proxy.url } as never);
		for (const f of FEEDS) {
			const workflow = triggerWorkflow({ feed: f.feed, startFrom: 'everything' });
			const ratio: number[] = [];
			const largest: number[] = [];
			const polls: number[] = [];
			const requests: number[] = [];
			const seconds: number[] = [];
			let size = 0;
			// A backlog is slow to drain (about 100 polls of 1000): at most three runs.
			for (let i = 0; i < Math.min(runs, 3); i++) {
				await sandbox.control('POST', '/reset', {});
				const expected = await visibleIds(sandbox, f.path);
				size = expected.size;
				await sandbox.resetStats();
				proxy.reset();
				let staticData: IDataObject = {};
				let state = 0;
				const emitted = new Set<string>();
				let duplicates = 0;
				let count = 0;
				const started = performance.now();
				for (let quiet = 0; quiet < 2 && count < 400; count++) {
					const result = await harness.poll(workflow, TRIGGER, { staticData });
					staticData = result.staticData;
					state = Math.max(state, Buffer.byteLength(JSON.stringify(staticData)));
					for (const item of result.items) {
						if (emitted.has(String(item.json.id))) duplicates++;
						emitted.add(String(item.json.id));
					}
					quiet = result.items.length === 0 ? quiet + 1 : 0;
				}
				seconds.push((performance.now() - started) / 1000);
				const missing = [...expected].filter((id) => !emitted.has(id)).length;
				if (duplicates || missing)
					throw new Error(
						`${f.feed} backlog: ${duplicates} duplicates, ${missing} of ${expected.size} missing`,
					);
				ratio.push(proxy.records() / expected.size);
				largest.push(state);
				polls.push(count);
				requests.push((await sandbox.stats()).requests[f.route] ?? 0);
			}
			figures.push(
				figure(`${f.feed}: backlog of ${size} from Everything: records read ÷ backlog`, 'ratio', ratio, {
					atMost: READ_RATIO,
				}),
				figure(`${f.feed}: backlog: largest state at any poll`, 'bytes', largest, { atMost: STATE_BYTES }),
				figure(`${f.feed}: backlog: polls until drained (Max Records 1000)`, 'polls', polls),
				figure(`${f.feed}: backlog: requests`, 'requests', requests),
				figure(`${f.feed}: backlog: all polls`, 's', seconds),
			);
			facts[`${f.feed} backlog`] = { records: size, maxPerPoll: 1000, startFrom: 'everything' };
		}
	} finally {
		await proxy.close();
		await sandbox.stop();
	}
	return figures;
}

/** The soak per kind of feed, one run per seed (`--seeds 1-12`; by default seeds 7 on, one per run). */
function soak(seeds: number[], facts: Record<string, unknown>): Figure[] {
	const figures: Figure[] = [];
	for (const kind of SOAK_KINDS) {
		const results = seeds.map((seed) => runSoak(kind, seed));
		const each = (pick: (result: (typeof results)[number]) => number) => results.map(pick);
		const zero = { atMost: 0 };
		figures.push(
			figure(
				`soak ${kind.name}: duplicates`,
				'versions',
				each((r) => r.duplicates),
				zero,
			),
			figure(
				`soak ${kind.name}: gaps`,
				'versions',
				each((r) => r.gaps),
				zero,
			),
			figure(
				`soak ${kind.name}: wrong labels`,
				'versions',
				each((r) => r.wrongLabels),
				zero,
			),
			figure(
				`soak ${kind.name}: versions passed over by the cursor`,
				'versions',
				each((r) => r.passedOver),
				zero,
			),
			figure(
				`soak ${kind.name}: records waiting once caught up`,
				'rows',
				each((r) => r.waiting),
				zero,
			),
			figure(
				`soak ${kind.name}: after the burst, requests ÷ needed`,
				'ratio',
				each((r) => r.pagesRead / r.pagesNeeded),
				{ atMost: 1.2 },
			),
			figure(
				`soak ${kind.name}: after the burst, records read ÷ emitted`,
				'ratio',
				each((r) => r.rowsRead / r.rowsEmitted),
				{ atMost: 1.2 },
			),
			figure(
				`soak ${kind.name}: largest state`,
				'bytes',
				each((r) => r.largestState),
				{ atMost: STATE_BYTES },
			),
		);
		facts[`soak ${kind.name}`] = {
			seeds,
			burstRows: results[0].burstRows,
			polls: each((r) => r.polls),
			failedPolls: each((r) => r.failedPolls),
		};
	}
	return figures;
}
