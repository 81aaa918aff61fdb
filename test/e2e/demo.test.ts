/**
 * `npm run demo`'s set-up end to end, through `startDemo()` (scripts/demo.ts) as the CLI runs it: the sandbox, real
 * n8n with the package, a real Dovecot and the demo's mail sink. Every example is imported with credentials that
 * exist; "New incident → notify" mails the sample incident through the sink into the demo inbox, where the "Demo
 * inbox" workflow reads it; the e-mail example reads the sample mails (green, then red for an unknown project).
 * Slow by nature: the incident trigger checks once a minute, and n8n's IMAP client sees new mail after ~15 s.
 * Needs Dovecot and root, as the mail test (`npx tsx scripts/n8n/system-packages.ts` installs Dovecot).
 */
import { startDemo, type Demo } from '../../scripts/demo';
import { INBOX_WORKFLOW, READ_THE_MAIL } from '../../scripts/demo-mailbox';
import { headerOf, type SunkMail } from '../../scripts/n8n/mail-sink';
import { freePort } from '../../scripts/n8n/run';

jest.setTimeout(6 * 60_000);

// A minute between the trigger's checks, plus a loaded machine.
const INCIDENT_WAIT_MS = 150_000;
// imapflow's IDLE starts 15 s after its last command, longer on a loaded machine.
const IMAP_WAIT_MS = 120_000;

interface Execution {
	id: string;
	status: string;
	stoppedAt?: string;
	data: { resultData: { error?: { message: string }; runData: Record<string, any[]> } };
}

describe('npm run demo: every example runs', () => {
	let demo: Demo;
	const lines: string[] = [];
	/** The examples started once (`runExamples`), by whichever test comes first: each test also runs alone. */
	let running: Promise<string> | undefined;
	const examplesRunning = () => (running ??= demo.runExamples());
	const timings: Record<string, number> = {};

	/** Finished executions of a workflow with their data, oldest first, once `enough` accepts them. */
	const executions = (workflowId: string, enough: (found: Execution[]) => boolean, timeoutMs: number) =>
		demo.n8n.finishedExecutions(workflowId, enough, timeoutMs).catch((error: Error) => {
			throw new Error(`${error.message}\n${lines.join('\n')}\n--- n8n ---\n${demo.n8n.logTail(30)}`);
		});

	beforeAll(async () => {
		const started = Date.now();
		demo = await startDemo({ n8nPort: await freePort(), log: (line) => lines.push(line) });
		timings['set-up (n8n start, credentials, mail, examples)'] = (Date.now() - started) / 1000;
	}, 240_000);

	afterAll(async () => {
		await demo?.stop();
		console.log(`demo e2e timings (s): ${JSON.stringify(timings)}\ndemo log:\n${lines.join('\n')}`);
	});

	it('sets up the login, a tested Field Ops credential, the mailbox, the mail sink and every example', async () => {
		expect(demo.summary).toContain(`Open        ${demo.url}`);
		expect(demo.summary).toContain(`Email       ${demo.login.email}`);
		expect(demo.credential.test).toMatchObject({ status: 'OK' });
		expect(Object.keys(demo.workflows).sort()).toEqual([
			'email-attachments-to-project-documents.json',
			'new-incident-notify.json',
			'nightly-employees-from-hr-csv.json',
			'weekly-hours-to-csv-file.json',
			'weekly-hours-to-spreadsheet.json',
		]);
		// The mailbox runs (not "Mailbox none: …"), and every credential an example names exists in n8n.
		expect(demo.mailbox.dovecot?.running).toBe(true);
		expect(demo.summary).not.toMatch(/Mailbox {5}none/);
		const credentials = (await demo.n8n.rest('GET', '/credentials')).body as { id: string }[];
		const known = new Set(credentials.map((c) => c.id));
		for (const [file, id] of Object.entries(demo.workflows)) {
			const workflow = (await demo.n8n.api('GET', `/workflows/${id}`)).body as {
				nodes: { name: string; credentials?: Record<string, { id: string }> }[];
			};
			const missing = workflow.nodes.flatMap((node) =>
				Object.values(node.credentials ?? {})
					.filter((credential) => !known.has(credential.id))
					.map((credential) => `${node.name}: ${credential.id}`),
			);
			expect({ file, missing }).toEqual({ file, missing: [] });
		}
	});

	it('mails a new incident through the mail sink into the demo inbox, where n8n reads it', async () => {
		const started = Date.now();
		const incidentId = await examplesRunning();
		const records = (await (
			await fetch(`${demo.sandbox.coreUrl}/__sandbox/records/incident-registrations`)
		).json()) as {
			records: { id: string; title: string; severity: string }[];
		};
		const incident = records.records.find((record) => record.id === incidentId);
		expect(incident).toBeDefined();

		const isIncidentMail = (mail: SunkMail) =>
			mail.message.toString('utf8').includes(`Incident id: ${incidentId}`);
		const mail = await demo.mailbox.sentMail(isIncidentMail, INCIDENT_WAIT_MS);
		timings['incident registered → mail in the sink'] = (Date.now() - started) / 1000;
		expect(mail.to).toEqual(['safety@example.com']);
		expect(mail.subject).toBe(
			`Incident (${incident!.severity}): ${incident!.title} – project ${demo.project.projectNumber}`,
		);
		expect(headerOf(mail.message, 'from')).toContain('fieldops@example.com');
		expect(lines).toContain(
			`Mail sent: "${mail.subject}" to safety@example.com → the demo inbox (open "${INBOX_WORKFLOW}" in n8n)`,
		);

		// The incident example's execution is green, and sent exactly this incident.
		const [sent] = await executions(
			demo.workflows['new-incident-notify.json'],
			(found) => found.length > 0,
			30_000,
		);
		expect(sent.status).toBe('success');
		expect(
			sent.data.resultData.runData['New incident'][0].data.main[0].map((item: any) => item.json.id),
		).toEqual([incidentId]);

		// In the demo inbox: in Dovecot's Maildir, and read by the "Demo inbox" workflow as a user opens it.
		const inbox = demo.mailbox.inbox!;
		const count = demo.mailbox.dovecot!.count(inbox.user);
		expect(count.seen + count.unseen).toBeGreaterThanOrEqual(1);
		const [read] = await executions(
			demo.mailbox.inboxWorkflowId!,
			(found) => found.some((e) => e.data.resultData.runData[READ_THE_MAIL]?.[0]),
			IMAP_WAIT_MS,
		);
		const shown = read.data.resultData.runData[READ_THE_MAIL][0].data.main[0].map((item: any) => item.json);
		expect(shown).toEqual([
			{
				Subject: mail.subject,
				From: 'fieldops@example.com',
				To: 'safety@example.com',
				Text: expect.stringContaining(`Title: ${incident!.title}`),
			},
		]);
		timings['incident registered → read in the Demo inbox workflow'] = (Date.now() - started) / 1000;
	});

	it('reads the e-mail example’s sample mails: the drawings attached (green), a drawing for an unknown project not (red)', async () => {
		await examplesRunning();
		const found = await executions(
			demo.workflows['email-attachments-to-project-documents.json'],
			(list) => list.length >= 2,
			2 * IMAP_WAIT_MS,
		);
		const subjects = (execution: Execution) =>
			execution.data.resultData.runData['New e-mail'][0].data.main[0].map((item: any) => item.json.subject);
		const green = found.find((e) =>
			subjects(e).includes(`[${demo.project.projectNumber}] Reviderte tegninger`),
		);
		const red = found.find((e) => subjects(e).includes('[P-9999] Tegning til et prosjekt som ikke finnes'));
		expect(green?.status).toBe('success');
		const [attached] = green!.data.resultData.runData['Attach to the project'][0].data.main;
		expect(attached.map((item: any) => item.json.fileName ?? item.json.message).sort()).toEqual([
			'No attachment: the item has no file, so nothing was uploaded',
			'Tegning A – fasade.pdf',
			'Tegning B – snitt.pdf',
		]);
		expect(red?.status).toBe('error');
		expect(red!.data.resultData.error?.message).toMatch(
			/"Tegning C\.pdf" was not uploaded: The project was not found/,
		);
	});
});
