/**
 * The demo's mailbox: a private Dovecot with one mailbox and an IMAP credential for it in n8n. Once the
 * "E-mail attachments → project documents" example is active, sample mails arrive: two drawings for a project and a
 * mail without attachments (a green execution), then a drawing for a project that does not exist (a red one naming
 * the file and why); each execution is reported as it ends. Without Dovecot (or root) the demo goes on and says so.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

import { startDovecot, type Dovecot } from './n8n/dovecot';
import { buildMail, pdf } from './n8n/mime';
import type { N8nInstance } from './n8n/run';
import { dovecotBinary } from './n8n/system-packages';

const USER = 'documents@fieldops.example.com';
const PASSWORD = 'FieldOps-mail-1';
const IMAP_CREDENTIAL = 'Mailbox for documents';
const FROM = 'Ola Nordmann <ola@arkitekt.example.com>';

export interface DemoMailbox {
	/** For `importWorkflow`: the example's IMAP credential, when there is a mailbox. */
	credentials: Record<string, { id: string; name: string }>;
	/** What the demo prints about the mailbox. */
	lines: string[];
	/** Activates the example and delivers the sample mails; reports each execution as it ends. */
	run(workflowId: string, projectNumber: string): Promise<void>;
	close(): Promise<void>;
}

function unavailable(reason: string): DemoMailbox {
	return {
		credentials: {},
		lines: [`  Mailbox     none: ${reason}; the e-mail example is imported, not active`],
		run: async () => undefined,
		close: async () => undefined,
	};
}

/** What one finished execution of the example shows, in a line. */
function describeExecution(body: any): string {
	const runData = body.data.resultData.runData;
	const subjects = ((runData['New e-mail']?.[0]?.data?.main?.[0] ?? []) as { json: { subject: string } }[])
		.map((item) => `"${item.json.subject}"`)
		.join(', ');
	const [attached = [], failed = []] = runData['Attach to the project']?.[0]?.data?.main ?? [];
	const files = (attached as { json: { fileName?: string } }[]).filter((item) => item.json.fileName).length;
	const error = body.data.resultData.error?.message;
	const status = body.status === 'success' ? 'green' : `red (${body.status})`;
	return `execution ${body.id} ${status}: ${subjects} → ${files} document(s) attached, ${attached.length - files} without attachment, ${failed.length} not attached${error ? `: ${error}` : ''}`;
}

export async function startDemoMailbox(n8n: N8nInstance): Promise<DemoMailbox> {
	if (spawnSync(dovecotBinary(), ['--version'], { stdio: 'ignore' }).status !== 0)
		return unavailable(
			'Dovecot is not installed (as root: `npx tsx scripts/n8n/system-packages.ts`, or apt-get install dovecot-imapd)',
		);
	let dovecot: Dovecot;
	try {
		dovecot = await startDovecot();
	} catch (error) {
		return unavailable(
			`Dovecot did not start (${error instanceof Error ? error.message.split('\n')[0] : error})`,
		);
	}
	const { maildir, imapCredential } = dovecot.addUser(USER, PASSWORD);
	const credentialId = await n8n.createCredential(IMAP_CREDENTIAL, 'imap', imapCredential);

	const reported = new Set<string>();
	/** Waits for the next finished execution of the workflow and prints what it shows. */
	const reportNext = async (workflowId: string) => {
		for (const until = Date.now() + 120_000; Date.now() < until; ) {
			await new Promise((r) => setTimeout(r, 1000));
			const list = await n8n
				.api('GET', `/executions?workflowId=${workflowId}&limit=20`)
				.catch(() => undefined);
			const done = ((list?.body?.data ?? []) as { id: string; stoppedAt?: string }[]).find(
				(execution) => execution.stoppedAt && !reported.has(execution.id),
			);
			if (!done) continue;
			reported.add(done.id);
			console.log(
				`Mailbox: ${describeExecution((await n8n.api('GET', `/executions/${done.id}?includeData=true`)).body)}`,
			);
			return;
		}
	};

	return {
		credentials: { imap: { id: credentialId, name: IMAP_CREDENTIAL } },
		lines: [
			`  Mailbox     ${USER} / ${PASSWORD} at imap://${dovecot.host}:${dovecot.port} (no TLS), read by the active "E-mail attachments → project documents"`,
			`              more mail: copy an .eml file into ${join(maildir, 'new')}`,
		],
		async run(workflowId, projectNumber) {
			const logins = dovecot.logins(USER);
			await n8n.activateWorkflow(workflowId);
			// n8n activates in the background; mail waiting before the trigger opens the mailbox counts as old.
			for (let waited = 0; dovecot.logins(USER) === logins && waited < 600; waited++)
				await new Promise((r) => setTimeout(r, 100));
			await new Promise((r) => setTimeout(r, 1000));
			dovecot.deliver(
				USER,
				buildMail({
					from: FROM,
					to: USER,
					subject: `[${projectNumber}] Reviderte tegninger`,
					text: 'Hei, vedlagt reviderte tegninger.',
					attachments: [
						{ fileName: 'Tegning A – fasade.pdf', contentType: 'application/pdf', content: pdf('A') },
						{ fileName: 'Tegning B – snitt.pdf', contentType: 'application/pdf', content: pdf('B') },
					],
				}),
				buildMail({ from: FROM, to: USER, subject: 'Møtereferat', text: 'Ingen vedlegg.' }),
			);
			console.log('Mailbox: 2 sample mails delivered; n8n reads new mail within about 20 s.');
			// Then a mail for a project that does not exist: its execution shows the failure branch.
			void (async () => {
				await reportNext(workflowId);
				dovecot.deliver(
					USER,
					buildMail({
						from: FROM,
						to: USER,
						subject: '[P-9999] Tegning til et prosjekt som ikke finnes',
						text: 'Feil prosjektnummer.',
						attachments: [{ fileName: 'Tegning C.pdf', contentType: 'application/pdf', content: pdf('C') }],
					}),
				);
				await reportNext(workflowId);
			})();
		},
		close: async () => await dovecot.close(),
	};
}
