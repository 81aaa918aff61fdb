/**
 * `npm run demo`: builds the package, installs the pinned n8n on first use, starts the Field Ops sandbox and a
 * real n8n on localhost with the package installed as a community package, an owner account, a Field Ops
 * credential pointing at the sandbox, the demo's mail (scripts/demo-mailbox.ts) and every `examples/*.json`
 * workflow imported. Then every example shows itself working: the e-mail example reads sample mails, and a sample
 * incident makes "New incident → notify" send its e-mail into the demo inbox. Ctrl-C stops everything.
 *
 * `startDemo()` is the same set-up for tests (n8n installed and the package built beforehand).
 *
 * Environment: N8N_PORT (default 5678, or a free port when taken), SANDBOX_PORT (default: free port).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

import { startSandbox, type RunningSandbox } from '../test/sandbox/server';
import { dovecotUnavailable, startDemoMailbox, type DemoMailbox } from './demo-mailbox';
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
const MAIL_EXAMPLE = 'email-attachments-to-project-documents.json';
const INCIDENT_EXAMPLE = 'new-incident-notify.json';
const INCIDENT_FEED = 'GET /v1/incident-registrations';

export interface DemoOptions {
	/** n8n's port: this one when free, else any free one (N8N_PORT, or 5678, unless told). */
	n8nPort?: number;
	/** The sandbox's port (SANDBOX_PORT, or a free one, unless told). */
	sandboxPort?: number;
	/** Where the demo reports what happens (the console unless told). */
	log?: (line: string) => void;
}

export interface Demo {
	url: string;
	login: { email: string; password: string };
	n8n: N8nInstance;
	sandbox: RunningSandbox;
	/** The Field Ops credential's id and what its Test button says. */
	credential: { id: string; name: string; test: { status: string; message: string } };
	/** Imported examples: file name → workflow id. */
	workflows: Record<string, string>;
	mailbox: DemoMailbox;
	/** The project (of the credential's company) the samples use. */
	project: { id: string; projectNumber: string; name: string };
	/** What the CLI prints once n8n is ready: where to log in and what was set up. */
	summary: string;
	/**
	 * Activates "E-mail attachments → project documents" and "New incident → notify", delivers the sample mails and,
	 * once the incident trigger has made its first check, registers a sample incident. Resolves with its id.
	 */
	runExamples(): Promise<string>;
	/** Registers a new sample incident on the demo's project; the active example mails it within a minute. */
	newIncident(): Promise<string>;
	stop(): Promise<void>;
}

async function portOrFree(wanted: number): Promise<number> {
	const { createServer } = await import('node:net');
	return await new Promise((resolvePort) => {
		const server = createServer();
		server.once('error', () => void freePort().then(resolvePort));
		server.listen(wanted, '127.0.0.1', () => server.close(() => resolvePort(wanted)));
	});
}

const readExamples = (): { file: string; workflow: WorkflowFile }[] => {
	const dir = join(ROOT, 'examples');
	return (existsSync(dir) ? readdirSync(dir) : [])
		.filter((file) => file.endsWith('.json'))
		.sort()
		.map((file) => ({ file, workflow: JSON.parse(readFileSync(join(dir, file), 'utf8')) as WorkflowFile }));
};

/** The sandbox, n8n with the package, the Field Ops credential, the demo's mail and every example imported. */
export async function startDemo(options: DemoOptions = {}): Promise<Demo> {
	const log = options.log ?? console.log;
	const started: { sandbox?: RunningSandbox; n8n?: N8nInstance; mailbox?: DemoMailbox } = {};
	// n8n first, so that its mail triggers do not see the mailbox go away under them.
	const stop = async () => {
		await started.n8n?.stop().catch(() => undefined);
		await started.mailbox?.close().catch(() => undefined);
		await started.sandbox?.close().catch(() => undefined);
	};
	try {
		const sandbox = await startSandbox({
			port: options.sandboxPort ?? Number(process.env.SANDBOX_PORT ?? 0),
		});
		started.sandbox = sandbox;
		const admin = sandbox.clients.find((c) => c.administrator) ?? sandbox.clients[0];
		const noDovecot = dovecotUnavailable(log);

		log('Starting n8n with n8n-nodes-fieldops installed as a community package…');
		// n8n in this machine's time zone (its default is America/New_York): reports count weeks where you are.
		const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
		const n8n = await startN8n({
			port: await portOrFree(options.n8nPort ?? Number(process.env.N8N_PORT ?? 5678)),
			env: { GENERIC_TIMEZONE: process.env.GENERIC_TIMEZONE ?? timeZone },
		});
		started.n8n = n8n;
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

		const mailbox = await startDemoMailbox(n8n, noDovecot, log);
		started.mailbox = mailbox;
		const workflows: Record<string, string> = {};
		const examples = readExamples();
		// The examples refer to credentials by placeholder ids; point them at the ones just created.
		for (const { file, workflow } of examples)
			workflows[file] = await n8n.importWorkflow(workflow, {
				[CREDENTIAL_TYPE]: { id: credentialId, name: CREDENTIAL_NAME },
				...mailbox.credentials,
			});

		const project = [...sandbox.sandbox.world.projects.values()].find((p) => p.companyId === admin.companyId);
		if (!project) throw new Error(`The sandbox has no project of company ${admin.companyId}`);

		const newIncident = async () => {
			const answer = await fetch(`${sandbox.coreUrl}/__sandbox/activity`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify({ kind: 'incident-registrations', action: 'create', projectId: project.id }),
			});
			if (!answer.ok) throw new Error(`The sandbox did not register an incident: ${answer.status}`);
			const [id] = ((await answer.json()) as { ids: string[] }).ids;
			log(
				`Incident: a new sample incident was registered on project ${project.projectNumber}; "New incident → notify" checks every minute, so its e-mail arrives within a minute.`,
			);
			return id;
		};

		const testLine =
			test.status === 'OK' ? 'connection tested OK' : `connection test FAILED: ${test.message}`;
		const summary = `
n8n is running with n8n-nodes-fieldops (Ctrl-C stops n8n, the mail and the sandbox).

  Open        ${n8n.url}
  Email       ${OWNER.email}
  Password    ${OWNER.password}

  Credential  "${CREDENTIAL_NAME}" → the sandbox (client ${admin.clientId}, company ${admin.companyId}), ${testLine}
  Workflows   ${examples.length ? examples.map(({ workflow }) => workflow.name).join(', ') : '(no examples/*.json yet)'}
  Sandbox     core ${sandbox.coreUrl}, reporting ${sandbox.reportingUrl}, token ${sandbox.identityUrl}
${mailbox.lines.join('\n')}
  n8n log     ${join(n8n.userFolder, 'n8n.log')}`;

		return {
			url: n8n.url,
			login: { email: OWNER.email, password: OWNER.password },
			n8n,
			sandbox,
			credential: { id: credentialId, name: CREDENTIAL_NAME, test },
			workflows,
			mailbox,
			project: { id: project.id, projectNumber: project.projectNumber, name: project.name },
			summary,
			async runExamples() {
				if (workflows[MAIL_EXAMPLE]) await mailbox.run(workflows[MAIL_EXAMPLE], project.projectNumber);
				const incidents = workflows[INCIDENT_EXAMPLE];
				if (!incidents) throw new Error(`examples/${INCIDENT_EXAMPLE} is missing`);
				// Activation makes the trigger's first check at once: it only notes where to start ("Start From: Now").
				// An incident registered before that check ends would count as older than the workflow.
				const checks = () => sandbox.sandbox.stats.requests[INCIDENT_FEED] ?? 0;
				const before = checks();
				await n8n.activateWorkflow(incidents);
				for (const until = Date.now() + 60_000; checks() === before; ) {
					if (Date.now() > until)
						throw new Error(`"New incident → notify" made no first check within 60 s:\n${n8n.logTail(20)}`);
					await new Promise((r) => setTimeout(r, 200));
				}
				await new Promise((r) => setTimeout(r, 2000));
				return await newIncident();
			},
			newIncident,
			stop,
		};
	} catch (error) {
		await stop();
		throw error;
	}
}

async function main(): Promise<void> {
	let demo: Demo | undefined;
	let stopping = false;
	const stop = async (code: number) => {
		if (stopping) return;
		stopping = true;
		console.log('\nStopping n8n, the mail and the sandbox…');
		await demo?.stop();
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

		demo = await startDemo();
		console.log(demo.summary);
		await demo.runExamples();
		offerIncidents(demo);
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		await stop(1);
	}
}

/** In a terminal, Enter registers another sample incident. */
function offerIncidents(demo: Demo): void {
	if (!process.stdin.isTTY) return;
	console.log('Press Enter to register another sample incident.');
	createInterface({ input: process.stdin, terminal: false }).on('line', () => {
		demo
			.newIncident()
			.catch((error: unknown) => console.error(error instanceof Error ? error.message : error));
	});
}

if (require.main === module) void main();
