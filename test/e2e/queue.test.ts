/**
 * Queue mode: n8n main + one `n8n worker` + Redis (Debian's redis-server, started here). A production
 * execution of a workflow using Field Ops is enqueued by main and run by the worker, which loads our
 * community package from the shared user folder and gets the credential's token itself.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';

import { useSandbox } from '../helpers/sandbox';
import {
	CREDENTIAL_TYPE,
	freePort,
	startN8n,
	startWorker,
	type N8nInstance,
	type N8nWorker,
} from '../../scripts/n8n/run';
import { callWebhook, projectsWorkflow, sandboxCredentialData, sandboxProjectIds } from './fixtures';

jest.setTimeout(4 * 60_000);

/** A throwaway Redis on loopback: no persistence, gone with the test. */
async function startRedis(): Promise<{ port: number; stop(): void }> {
	const binary = process.env.REDIS_SERVER ?? 'redis-server';
	if (spawnSync(binary, ['--version']).error) {
		throw new Error(
			`Queue mode needs Redis: \`${binary}\` was not found. Install it with \`apt-get install -y redis-server\` (or set REDIS_SERVER).`,
		);
	}
	const port = await freePort();
	const child: ChildProcess = spawn(
		binary,
		['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'],
		{ stdio: ['ignore', 'pipe', 'pipe'] },
	);
	await new Promise<void>((ready, fail) => {
		let out = '';
		const timer = setTimeout(() => fail(new Error(`redis-server did not start:\n${out}`)), 15_000);
		child.stdout?.on('data', (chunk: Buffer) => {
			out += chunk.toString();
			if (out.includes('Ready to accept connections')) {
				clearTimeout(timer);
				ready();
			}
		});
		child.once('exit', (code) => fail(new Error(`redis-server exited with ${code}:\n${out}`)));
	});
	return { port, stop: () => child.kill('SIGTERM') };
}

describe('queue mode: main + worker + Redis', () => {
	const sb = useSandbox();
	let redis: { port: number; stop(): void } | undefined;
	let main: N8nInstance | undefined;
	let worker: N8nWorker | undefined;

	beforeAll(async () => {
		redis = await startRedis();
		main = await startN8n({
			env: {
				EXECUTIONS_MODE: 'queue',
				QUEUE_BULL_REDIS_HOST: '127.0.0.1',
				QUEUE_BULL_REDIS_PORT: String(redis.port),
			},
		});
		await main.setupOwner();
		await main.createApiKey();
		worker = await startWorker(main);
	});

	afterAll(async () => {
		await worker?.stop();
		await main?.stop();
		redis?.stop();
	});

	it('runs a Field Ops workflow on the worker', async () => {
		if (!main || !worker) throw new Error('not started');
		const credentialId = await main.createCredential(
			'Field Ops account',
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb(), { useReportingApi: false }),
		);
		const path = randomUUID();
		const workflowId = await main.importWorkflow(
			projectsWorkflow('Field Ops in queue mode', { id: credentialId, name: 'Field Ops account' }, path),
		);
		await main.activateWorkflow(workflowId);

		const answer = await callWebhook(main, path);
		const text = await answer.text();
		expect({
			status: answer.status,
			text: answer.status === 200 ? '' : `${text}\n${main.logTail(20)}\n${worker.logTail(20)}`,
		}).toEqual({ status: 200, text: '' });

		const expected = await sandboxProjectIds(sb());
		expect(expected.length).toBeGreaterThan(0);
		expect((JSON.parse(text) as { id: string }[]).map((p) => p.id).sort()).toEqual(expected);

		// Main enqueued it; the worker ran it.
		const execution = await main.latestExecution(workflowId);
		expect(execution.status).toBe('success');
		expect(main.logTail(400)).toContain(`Enqueued execution ${execution.id}`);
		expect(worker.log()).toContain(`Worker finished execution ${execution.id}`);
	});
});
