/**
 * `npm run demo`: builds the package, installs the pinned n8n on first use, starts the Field Ops sandbox and a
 * real n8n on localhost with the package installed as a community package, an owner account, a Field Ops
 * credential pointing at the sandbox and every `examples/*.json` workflow imported. Ctrl-C stops everything.
 *
 * Environment: N8N_PORT (default 5678, or a free port when taken), SANDBOX_PORT (default: free port).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { startSandbox, type RunningSandbox } from '../test/sandbox/server';
import { startDemoMailbox, type DemoMailbox } from './demo-mailbox';
import { ensureN8n, node24Env, ROOT } from './n8n/install';
import {
	CREDENTIAL_TYPE,
	freePort,
	OWNER,
	startN8n,
	viaLocalhost,
	type N8nInstance,
	type WorkflowFile,
} from './n8n/run';

const CREDENTIAL_NAME = 'Field Ops account';

async function portOrFree(wanted: number): Promise<number> {
	const { createServer } = await import('node:net');
	return await new Promise((resolvePort) => {
		const server = createServer();
		server.once('error', () => void freePort().then(resolvePort));
		server.listen(wanted, '127.0.0.1', () => server.close(() => resolvePort(wanted)));
	});
}

async function main(): Promise<void> {
	let sandbox: RunningSandbox | undefined;
	let n8n: N8nInstance | undefined;
	let mailbox: DemoMailbox | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n and the sandbox…');
		await n8n?.stop().catch(() => undefined);
		await mailbox?.close().catch(() => undefined);
		await sandbox?.close().catch(() => undefined);
		process.exit(code);
	};
	process.on('SIGINT', () => void stop(0));
	process.on('SIGTERM', () => void stop(0));

	try {
		console.log('Building the package…');
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: ROOT,
			env: node24Env(),
			stdio: ['ignore', 'ignore', 'inherit'],
		});
		const install = await ensureN8n();
		if (!install.cached)
			console.log(
				`n8n ${install.version} installed in ${install.seconds.toFixed(0)} s (${install.diskUse}).`,
			);

		sandbox = await startSandbox({ port: Number(process.env.SANDBOX_PORT ?? 0) });
		const admin = sandbox.clients.find((c) => c.administrator) ?? sandbox.clients[0];

		console.log('Starting n8n with n8n-nodes-fieldops installed as a community package…');
		// n8n in this machine's time zone (its default is America/New_York): reports count weeks where you are.
		const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
		n8n = await startN8n({
			port: await portOrFree(Number(process.env.N8N_PORT ?? 5678)),
			env: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE ?? timeZone },
		});
		await n8n.setupOwner();
		await n8n.createApiKey();
		const credentialId = await n8n.createCredential(CREDENTIAL_NAME, CREDENTIAL_TYPE, {
			environment: 'test',
			coreUrl: viaLocalhost(sandbox.coreUrl),
			reportingUrl: viaLocalhost(sandbox.reportingUrl),
			identityUrl: viaLocalhost(sandbox.identityUrl),
			machineStateUrl: viaLocalhost(sandbox.machineStateUrl),
			clientId: admin.clientId,
			clientSecret: admin.clientSecret,
			useCoreApi: admin.scopes.includes('serviceapiv3'),
			useReportingApi: admin.scopes.includes('reportingapiv1'),
			useMachineStateApi: admin.scopes.includes('masstransportapiv1'),
		});

		// The same check as the credential's Test button, so a broken set-up shows here rather than in the editor.
		const test = await n8n.testCredential(credentialId, CREDENTIAL_TYPE);
		const testLine =
			test.status === 'OK' ? 'connection tested OK' : `connection test FAILED: ${test.message}`;

		const examplesDir = join(ROOT, 'examples');
		const files = existsSync(examplesDir)
			? readdirSync(examplesDir)
					.filter((f) => f.endsWith('.json'))
					.sort()
			: [];
		const imported: string[] = [];
		// The e-mail example reads a mailbox the demo provides (Dovecot), when it can.
		mailbox = await startDemoMailbox(n8n);
		let mailWorkflowId: string | undefined;
		for (const file of files) {
			const workflow = JSON.parse(readFileSync(join(examplesDir, file), 'utf8')) as WorkflowFile;
			// The examples refer to the credential by a placeholder id; point them at the one just created.
			const id = await n8n.importWorkflow(workflow, {
				[CREDENTIAL_TYPE]: { id: credentialId, name: CREDENTIAL_NAME },
				...mailbox.credentials,
			});
			if (file === 'email-attachments-to-project-documents.json') mailWorkflowId = id;
			imported.push(workflow.name);
		}

		console.log(`
n8n is running with n8n-nodes-fieldops (Ctrl-C stops n8n and the sandbox).

  Open        ${n8n.url}
  Email       ${OWNER.email}
  Password    ${OWNER.password}

  Credential  "${CREDENTIAL_NAME}" → the sandbox (client ${admin.clientId}, company ${admin.companyId}), ${testLine}
  Workflows   ${imported.length ? imported.join(', ') : '(no examples/*.json yet)'}
  Sandbox     core ${sandbox.coreUrl}, reporting ${sandbox.reportingUrl}, token ${sandbox.identityUrl}
${mailbox.lines.join('\n')}
  n8n log     ${join(n8n.userFolder, 'n8n.log')}`);
		const project = [...sandbox.sandbox.world.projects.values()].find((p) => p.companyId === admin.companyId);
		if (mailWorkflowId && project) await mailbox.run(mailWorkflowId, project.projectNumber);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		await stop(1);
	}
}

void main();
