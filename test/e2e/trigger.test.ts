/**
 * The polling trigger in a real n8n: the "New incident → notify" example activated on n8n's own scheduler
 * (every minute, the shortest n8n allows), new sandbox incidents emitted exactly once, with n8n's durable poll
 * cursors on (2.37+: the trigger's state is a `poller_state` row committed with the execution). The cursor
 * survives n8n killed in the middle of a poll (its request to Field Ops held back) and the restart after it:
 * incidents created meanwhile arrive once, nothing twice, and an edit is not new again.
 * Slow by nature: each step waits for n8n's next poll, up to a minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { N8N_DIR } from '../../scripts/n8n/install';
import { CREDENTIAL_TYPE, startN8n, type N8nInstance, type WorkflowFile } from '../../scripts/n8n/run';
import { administrator, sandboxCredentialData } from './fixtures';

/** n8n 2.37+: poll triggers on the durable scheduler, their cursor committed with the execution. */
const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};

/** The trigger's cursor as n8n keeps it in its `poller_state` table (undefined: no row). */
async function pollerState(userFolder: string, workflowId: string): Promise<Record<string, any> | undefined> {
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const sqlite3 = require(join(N8N_DIR, 'node_modules', 'sqlite3')) as any;
	const db = new sqlite3.Database(join(userFolder, '.n8n', 'database.sqlite'), sqlite3.OPEN_READONLY);
	try {
		const row = await new Promise<any>((resolve, reject) =>
			db.get(
				'SELECT cursor FROM poller_state WHERE workflowId = ?',
				[workflowId],
				(error: Error, found: any) => (error ? reject(error) : resolve(found)),
			),
		);
		return row ? (JSON.parse(row.cursor) as Record<string, any>) : undefined;
	} finally {
		db.close();
	}
}

const FEED_ROUTE = 'GET /v1/incident-registrations';
// n8n polls once a minute at a random second; allow for a slow start and a loaded machine.
const POLL_WAIT_MS = 100_000;

jest.setTimeout(8 * 60_000);

describe('Field Ops Trigger activated in real n8n', () => {
	const sb = useSandbox();
	const userFolder = mkdtempSync(join(tmpdir(), 'fieldops-n8n-trigger-'));
	let n8n: N8nInstance | undefined;

	afterAll(async () => {
		await n8n?.stop();
		rmSync(userFolder, { recursive: true, force: true });
	});

	const control = async (path: string, json?: unknown, method = 'POST') => {
		const res = await call(sb().coreUrl, path, { method, json });
		if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body;
	};
	const feedReads = async () =>
		((await control('/__sandbox/stats', undefined, 'GET')) as { requests: Record<string, number> }).requests[
			FEED_ROUTE
		] ?? 0;

	/** Every item the trigger emitted, over all saved executions of the workflow, oldest first. */
	const emittedIds = async (
		instance: N8nInstance,
		workflowId: string,
	): Promise<{ executions: number; ids: string[] }> => {
		const list = await instance.api('GET', `/executions?workflowId=${workflowId}&includeData=true&limit=100`);
		const executions = (list.body.data as { id: string; data: any }[]).sort(
			(a, b) => Number(a.id) - Number(b.id),
		);
		const ids = executions.flatMap((execution) => {
			const run = execution.data.resultData.runData['New incident'][0];
			return (run.data.main[0] as { json: { id: string; _event: string } }[]).map((item) => {
				expect(item.json._event).toBe('new');
				return item.json.id;
			});
		});
		return { executions: executions.length, ids };
	};

	const waitFor = async (what: string, instance: N8nInstance, check: () => Promise<boolean>) => {
		const until = Date.now() + POLL_WAIT_MS;
		while (!(await check())) {
			if (Date.now() > until)
				throw new Error(
					`${what}: not within ${POLL_WAIT_MS / 1000} s\n--- n8n log ---\n${instance.logTail(30)}`,
				);
			await new Promise((r) => setTimeout(r, 500));
		}
	};

	/** Incidents created on a project of the credential's company, so the trigger sees every one of them. */
	const createIncidents = async (count: number, projectId: string) =>
		(
			(await control('/__sandbox/activity', {
				kind: 'incident-registrations',
				action: 'create',
				count,
				projectId,
			})) as { ids: string[] }
		).ids;

	it('emits each new incident once, and keeps its durable cursor through a crash in the middle of a poll', async () => {
		const projects = await call(sb().coreUrl, '/api/v4/integration/projects', {
			token: await tokenFor(sb(), administrator(sb()).clientId),
		});
		const projectId = (projects.body as { id: string }[])[0].id;

		n8n = await startN8n({ userFolder, env: DURABLE_CURSORS });
		await n8n.setupOwner();
		const apiKey = await n8n.createApiKey();
		const credentialId = await n8n.createCredential(
			'Field Ops account',
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb()),
		);
		// The example as users import it; only the e-mail node becomes a No-Op (no mail server here).
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const example = require('../../examples/new-incident-notify.json') as WorkflowFile;
		const nodes = example.nodes.map((node) =>
			node.type === 'n8n-nodes-base.emailSend'
				? { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {}, credentials: undefined }
				: node,
		);
		const workflowId = await n8n.importWorkflow(
			{ ...example, nodes },
			{ [CREDENTIAL_TYPE]: { id: credentialId, name: 'Field Ops account' } },
		);

		// Activation polls once at once: with "Start From: Now" it only sets the cursor.
		const readsBefore = await feedReads();
		await n8n.activateWorkflow(workflowId);
		const activated = n8n;
		await waitFor(
			'the poll n8n runs on activation',
			activated,
			async () => (await feedReads()) > readsBefore,
		);
		expect((await emittedIds(n8n, workflowId)).executions).toBe(0);

		const first = await createIncidents(3, projectId);
		expect(first).toHaveLength(3);
		const running = n8n;
		await waitFor(
			'an execution with the 3 new incidents',
			running,
			async () => (await emittedIds(running, workflowId)).executions > 0,
		);
		expect((await emittedIds(running, workflowId)).ids.sort()).toEqual([...first].sort());
		// The cursor is n8n's durable one: committed with that execution.
		const durable = await pollerState(userFolder, workflowId);
		expect(durable?.cursor?.version).toBe(4);

		// The field keeps working: 2 new incidents, and an edit of an old one (not a "new" event). n8n's next poll
		// asks Field Ops, whose answer is held back, and n8n dies in the middle of it.
		const whileDown = await createIncidents(2, projectId);
		await control('/__sandbox/activity', {
			kind: 'incident-registrations',
			action: 'update',
			ids: [first[0]],
		});
		await control('/__sandbox/faults', { path: '/v1/incident-registrations', delayMs: 60_000, times: 1 });
		const asked = await feedReads();
		await waitFor('the next poll', running, async () => (await feedReads()) > asked);
		process.kill(-(running.process.pid as number), 'SIGKILL');
		await running.stop();
		n8n = undefined;
		// Nothing of that poll was committed.
		expect(await pollerState(userFolder, workflowId)).toEqual(durable);

		const restarted = await startN8n({ userFolder, tarball: false, env: DURABLE_CURSORS });
		n8n = restarted;
		await restarted.setupOwner();
		restarted.apiKey = apiKey;
		await waitFor(
			'the incidents created while n8n was down',
			restarted,
			async () => (await emittedIds(restarted, workflowId)).ids.length >= 5,
		);
		// One more poll after that: it must emit nothing again.
		const reads = await feedReads();
		await waitFor('the next poll', restarted, async () => (await feedReads()) > reads);
		await new Promise((r) => setTimeout(r, 2000));

		const all = await emittedIds(restarted, workflowId);
		expect(all.ids.sort()).toEqual([...first, ...whileDown].sort());
		expect(new Set(all.ids).size).toBe(all.ids.length);
		expect((await pollerState(userFolder, workflowId))?.cursor?.cursor).toBeGreaterThan(
			durable?.cursor?.cursor,
		);
	});
});
