/**
 * 4. Trigger: one poll with nothing new, and one poll after 50,000 changes, on a feed whose cursor is a record
 * field (machine registrations: modifiedDateTime) and on one that uses the poll-clock fallback (incident
 * registrations). Polls run through n8n-core's real engine in this process (n8n's own scheduler polls at most
 * once a minute, which is what the e2e test covers); the sandbox runs in its own process. Requests are
 * counted by the sandbox; every emitted record is checked against the changes made (no duplicate, none missing).
 */
import type { IDataObject } from 'n8n-workflow';

import { figure, startSandboxProcess, type Figure, type Section } from './lib';

const CHANGES = 50_000;
const FEEDS = [
	{ feed: 'machineRegistrations', kind: 'machine-registrations', route: 'GET /v1/machine-registrations', cursor: 'record field' },
	{ feed: 'incidentRegistrations', kind: 'incident-registrations', route: 'GET /v1/incident-registrations', cursor: 'poll clock' },
];

export async function run({ runs }: { runs: number }): Promise<Section> {
	const { N8nHarness } = await import('../test/harness');
	const { TRIGGER, triggerWorkflow, useSandboxCredential } = await import('../test/helpers/workflows');
	const sandbox = await startSandboxProcess();
	try {
		const harness = await N8nHarness.load();
		useSandboxCredential(harness, sandbox.info as never);
		const token = await sandbox.token('serviceapiv3');
		const projects = (await (await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, { headers: { authorization: `Bearer ${token}` } })).json()) as { id: string }[];
		const figures: Figure[] = [];
		const facts: Record<string, unknown> = {};
		for (const f of FEEDS) {
			// Everything in one execution, so the one poll after the changes is the whole cost.
			const workflow = triggerWorkflow({ feed: f.feed, events: ['new', 'changed'], options: { maxPerPoll: CHANGES } });
			const idleRequests: number[] = [];
			const idleMs: number[] = [];
			const busyRequests: number[] = [];
			const busyMs: number[] = [];
			const stateBytes: number[] = [];
			for (let i = 0; i < runs; i++) {
				await sandbox.control('POST', '/reset', {});
				let staticData: IDataObject = {};
				staticData = (await harness.poll(workflow, TRIGGER, { staticData })).staticData;
				await sandbox.control('POST', '/clock', { advanceSeconds: 2 });

				await sandbox.resetStats();
				let started = performance.now();
				const idle = await harness.poll(workflow, TRIGGER, { staticData });
				idleMs.push(performance.now() - started);
				idleRequests.push((await sandbox.stats()).requests[f.route] ?? 0);
				if (idle.items.length) throw new Error(`${f.feed}: a poll with nothing new emitted ${idle.items.length}`);
				staticData = idle.staticData;

				// On the company's own projects, so every change is the credential's to see.
				const changed = new Set<string>();
				for (let made = 0; made < CHANGES; made += 10_000) {
					const { ids } = await sandbox.control<{ ids: string[] }>('POST', '/activity', { kind: f.kind, action: 'create', count: 10_000, projectId: projects[(made / 10_000) % projects.length].id });
					for (const id of ids) changed.add(id);
				}
				await sandbox.control('POST', '/clock', { advanceSeconds: 2 });

				await sandbox.resetStats();
				started = performance.now();
				const busy = await harness.poll(workflow, TRIGGER, { staticData });
				busyMs.push(performance.now() - started);
				busyRequests.push((await sandbox.stats()).requests[f.route] ?? 0);
				const emitted = busy.items.map((item) => String(item.json.id));
				const unique = new Set(emitted);
				const missing = [...changed].filter((id) => !unique.has(id));
				if (unique.size !== emitted.length || missing.length || unique.size !== changed.size) {
					throw new Error(`${f.feed}: ${emitted.length} emitted, ${unique.size} distinct, ${missing.length} of ${changed.size} changes missing`);
				}
				stateBytes.push(Buffer.byteLength(JSON.stringify(busy.staticData)));
			}
			figures.push(
				figure(`${f.feed} (${f.cursor}): requests, nothing new`, 'requests', idleRequests, { atMost: 1 }),
				figure(`${f.feed}: poll, nothing new`, 'ms', idleMs),
				figure(`${f.feed}: requests, after ${CHANGES} changes`, 'requests', busyRequests),
				figure(`${f.feed}: poll after ${CHANGES} changes`, 'ms', busyMs),
				figure(`${f.feed}: state after it`, 'bytes', stateBytes),
			);
			facts[f.feed] = { changes: CHANGES, pageSize: 10_000 };
		}
		return { id: 'trigger', title: `Trigger polls: nothing new, and after ${CHANGES} changes`, figures, facts, notes: [] };
	} finally {
		await sandbox.stop();
	}
}
