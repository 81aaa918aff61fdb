/**
 * The polling trigger in a real n8n: the "New incident → notify" example activated on n8n's own scheduler
 * (every minute, the shortest n8n allows), new sandbox incidents emitted exactly once, and the cursor kept
 * across an n8n restart (incidents created while n8n was down arrive once after it is back, nothing twice).
 * Slow by nature: each step waits for n8n's next poll, up to a minute.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { CREDENTIAL_TYPE, startN8n, type N8nInstance, type WorkflowFile } from '../../scripts/n8n/run';
import { administrator, sandboxCredentialData } from './fixtures';

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

	it('emits each new incident once, and keeps its cursor across a restart', async () => {
		const projects = await call(sb().coreUrl, '/api/v4/integration/projects', {
			token: await tokenFor(sb(), administrator(sb()).clientId),
		});
		const projectId = (projects.body as { id: string }[])[0].id;

		n8n = await startN8n({ userFolder });
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

		// n8n goes down; the field keeps working: 2 new incidents, and an edit of an old one (not a "new" event).
		await n8n.stop();
		n8n = undefined;
		const whileDown = await createIncidents(2, projectId);
		await control('/__sandbox/activity', {
			kind: 'incident-registrations',
			action: 'update',
			ids: [first[0]],
		});

		const restarted = await startN8n({ userFolder, tarball: false });
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
	});
});
