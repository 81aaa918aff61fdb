/**
 * Queue mode as n8n 3.0 runs it (`startN8n({ queue: true })`): main + one `n8n worker` + Redis, manual executions
 * offloaded to workers, binary data in the database (queue mode's default), SSRF protection on with the sandbox
 * allowed by host name (N8N_3_SETTINGS). A production execution of a workflow using Field Ops is enqueued by main
 * and run by the worker, which loads our community package from the shared user folder. n8n's HTTP Request node
 * uses the Field Ops credential, and one token serves main, the worker and an n8n restart.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { call, useSandbox } from '../helpers/sandbox';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	nodeOutput,
	startN8n,
	webhookChain,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';
import { callWebhook, projectsWorkflow, sandboxCredentialData, sandboxProjectIds } from './fixtures';

jest.setTimeout(5 * 60_000);

describe('queue mode with n8n 3.0 settings: main + worker + Redis', () => {
	const sb = useSandbox();
	const userFolder = mkdtempSync(join(tmpdir(), 'fieldops-queue-'));
	let main: N8nInstance | undefined;
	const n8n = () => {
		if (!main) throw new Error('n8n is not started');
		return main;
	};
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body as {
			tokensIssued: number;
			unauthorized: number;
			requests: Record<string, number>;
		};
	const resetStats = () => call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	/** Posts to a webhook; fails with n8n's answer and both logs unless it answers 200. */
	const answerOf = async (path: string) => {
		const answer = await callWebhook(n8n(), path);
		const text = await answer.text();
		expect({
			status: answer.status,
			text: answer.status === 200 ? '' : `${text}\n${n8n().logTail(20)}\n${n8n().worker?.logTail(20)}`,
		}).toEqual({ status: 200, text: '' });
		return JSON.parse(text) as Record<string, unknown>[];
	};

	beforeAll(async () => {
		main = await startN8n({ userFolder, queue: true });
		await main.setupOwner();
		await main.createApiKey();
	});

	afterAll(async () => {
		await main?.stop();
		rmSync(userFolder, { recursive: true, force: true });
	});

	it('runs a Field Ops workflow on the worker', async () => {
		const credentialId = await n8n().createCredential(
			'Field Ops account',
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb(), { useReportingApi: false }),
		);
		const path = randomUUID();
		const workflowId = await n8n().importWorkflow(
			projectsWorkflow('Field Ops in queue mode', { id: credentialId, name: 'Field Ops account' }, path),
		);
		await n8n().activateWorkflow(workflowId);

		const projects = await answerOf(path);

		const expected = await sandboxProjectIds(sb());
		expect(expected.length).toBeGreaterThan(0);
		expect(projects.map((p) => p.id).sort()).toEqual(expected);
		// Main enqueued it; the worker ran it.
		const execution = await n8n().latestExecution(workflowId);
		expect(execution.status).toBe('success');
		expect(n8n().logTail(400)).toContain(`Enqueued execution ${execution.id}`);
		expect(n8n().worker?.log()).toContain(`Worker finished execution ${execution.id}`);
	});

	it('keeps a report file in binary data in the database (n8n’s queue-mode default; 3.0 has no in-memory mode)', async () => {
		const credentialId = await n8n().createCredential(
			'Field Ops reports',
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb()),
		);
		const path = randomUUID();
		// The example's report node, started by a webhook instead of its schedule.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const example = require('../../examples/weekly-hours-to-csv-file.json') as WorkflowFile;
		const report = example.nodes.find((node) => node.type === NODE_TYPE);
		if (!report) throw new Error('the CSV example has no Field Ops node any more: update this test');
		const { id: _id, position: _position, ...reportNode } = report;
		const workflowId = await n8n().importWorkflow(
			webhookChain('Report file in queue mode', path, [
				{
					...reportNode,
					credentials: { [CREDENTIAL_TYPE]: { id: credentialId, name: 'Field Ops reports' } },
				},
			]),
		);
		await n8n().activateWorkflow(workflowId);

		await answerOf(path);

		const execution = await n8n().latestExecution(workflowId);
		const [file] = execution.data.resultData.runData[String(report.name)][0].data.main[0];
		expect(file.binary.data.id).toMatch(/^database:/);
		expect(file.json.records).toBeGreaterThan(0);
	});

	it('n8n’s HTTP Request node uses the Field Ops credential; one token serves worker, main and a restart; a 401 renews it once', async () => {
		const name = 'Field Ops (shared token)';
		const credentialId = await n8n().createCredential(name, CREDENTIAL_TYPE, sandboxCredentialData(sb()));
		const credentials = { [CREDENTIAL_TYPE]: { id: credentialId, name } };
		const coreUrl = String(sandboxCredentialData(sb()).coreUrl);
		const httpRequest = {
			name: 'Projects (HTTP Request)',
			type: 'n8n-nodes-base.httpRequest',
			typeVersion: 4.2,
			executeOnce: true,
			parameters: {
				url: `${coreUrl}/api/v4/integration/projects`,
				authentication: 'predefinedCredentialType',
				nodeCredentialType: CREDENTIAL_TYPE,
				options: {},
			},
			credentials,
		};
		const fieldOps = {
			name: 'Field Ops',
			type: NODE_TYPE,
			typeVersion: 1,
			parameters: { resource: 'project', operation: 'getAll', returnAll: true },
			credentials,
		};
		const bothPath = randomUUID();
		const httpOnlyPath = randomUUID();
		const both = await n8n().importWorkflow(
			webhookChain('Field Ops, then HTTP Request', bothPath, [fieldOps, httpRequest]),
		);
		const httpOnly = await n8n().importWorkflow(
			webhookChain('HTTP Request only', httpOnlyPath, [httpRequest]),
		);
		await n8n().activateWorkflow(both);
		await n8n().activateWorkflow(httpOnly);
		const expected = await sandboxProjectIds(sb());
		const ids = (items: Record<string, unknown>[]) => items.map((p) => p.id).sort();
		await resetStats();

		// The worker: the Field Ops node fetches the token and n8n stores it; the HTTP Request node reads it from there.
		expect(ids(await answerOf(bothPath))).toEqual(expected);
		const onWorker = await n8n().latestExecution(both);
		expect(n8n().worker?.log()).toContain(`Worker finished execution ${onWorker.id}`);
		expect(ids(nodeOutput(onWorker, 'Field Ops'))).toEqual(expected);
		expect(await stats()).toMatchObject({ tokensIssued: 1, unauthorized: 0 });

		// Main: a list look-up from the editor (Machine → Create's machine types).
		const lookup = await n8n().rest<{ name: string; value: string }[]>(
			'POST',
			'/dynamic-node-parameters/options',
			{
				path: 'parameters.typeId',
				methodName: 'getMachineTypes',
				nodeTypeAndVersion: { name: NODE_TYPE, version: 1 },
				currentNodeParameters: { resource: 'machine', operation: 'create' },
				credentials,
			},
		);
		expect(lookup.status).toBe(200);
		expect(lookup.body.length).toBeGreaterThan(0);
		expect(await stats()).toMatchObject({ tokensIssued: 1, unauthorized: 0 });

		// A restart of main and worker (same database): the stored token still serves.
		const apiKey = n8n().apiKey;
		await n8n().stop();
		main = undefined;
		main = await startN8n({ userFolder, queue: true, tarball: false });
		await main.setupOwner();
		main.apiKey = apiKey;
		expect(ids(await answerOf(bothPath))).toEqual(expected);
		expect(await stats()).toMatchObject({ tokensIssued: 1, unauthorized: 0 });

		// Field Ops revokes the token: the HTTP Request node meets one 401, n8n asks the credential for a new
		// token once and sends the request again; the Field Ops node then uses the renewed token.
		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });
		expect(ids(await answerOf(httpOnlyPath))).toEqual(expected);
		expect(await stats()).toMatchObject({ tokensIssued: 2, unauthorized: 1 });
		expect(ids(await answerOf(bothPath))).toEqual(expected);
		const after = await stats();
		expect(after).toMatchObject({ tokensIssued: 2, unauthorized: 1 });
		console.log(
			`tokens for worker + main look-up + restart + a revocation: ${after.tokensIssued} issued, ${after.unauthorized} refused (401), ${after.requests['GET /api/v4/integration/projects']} project reads`,
		);
	});
});
