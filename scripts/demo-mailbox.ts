/**
 * The demo's mail, set up as the mail test sets it up: a private Dovecot (installed the way `npm test`'s set-up
 * installs it: apt-get as root on Debian) and a mail sink (scripts/n8n/mail-sink.ts), with their credentials in n8n.
 *
 * - "Mailbox for documents" (IMAP) is read by "E-mail attachments → project documents": once it is active, sample
 *   mails arrive (two drawings for a project and a mail without attachments: a green execution; then a drawing for
 *   a project that does not exist: a red one naming the file and why); each execution is reported as it ends.
 * - "Demo mail (SMTP)" is the mail sink: every mail a workflow sends (the incident e-mail, payroll's CSV file) lands
 *   in one demo inbox whoever it is addressed to, and the demo prints a line for it. The inbox is read in n8n itself,
 *   by the workflow "Demo inbox" (each mail one execution): an office user already has n8n open, while a mail
 *   program would need an account on a plain-text IMAP server at an odd port. Its IMAP login is printed too.
 *
 * Without Dovecot (not root, no apt-get) the demo goes on, says the one command to run, and the sink keeps the mails
 * as .eml files in a folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startDovecot, type Dovecot, type Mailbox } from './n8n/dovecot';
import { startMailSink, type MailSink, type SunkMail } from './n8n/mail-sink';
import { buildMail, pdf } from './n8n/mime';
import type { N8nInstance, WorkflowFile } from './n8n/run';
import { dovecotBinary, ensureSystemPackages, systemPrograms } from './n8n/system-packages';

const DOCUMENTS = { user: 'documents@fieldops.example.com', password: 'FieldOps-mail-1' };
const INBOX = { user: 'inbox@fieldops.example.com', password: 'FieldOps-mail-2' };
const SMTP = { user: 'workflows@fieldops.example.com', password: 'FieldOps-smtp-1' };
const IMAP_CREDENTIAL = 'Mailbox for documents';
const SMTP_CREDENTIAL = 'Demo mail (SMTP)';
const INBOX_CREDENTIAL = 'Demo inbox (IMAP)';
export const INBOX_WORKFLOW = 'Demo inbox: mail your workflows sent';
export const READ_THE_MAIL = 'Read the mail';
const FROM = 'Ola Nordmann <ola@arkitekt.example.com>';

export interface DemoMailbox {
	/** For `importWorkflow`: the examples' IMAP credential (when there is a mailbox) and SMTP credential. */
	credentials: Record<string, { id: string; name: string }>;
	/** What the demo prints about its mail. */
	lines: string[];
	/** The private Dovecot, when it runs. */
	dovecot?: Dovecot;
	/** The mailbox the e-mail example reads, when Dovecot runs. */
	documents?: Mailbox;
	/** The demo inbox every sent mail lands in, when Dovecot runs. */
	inbox?: Mailbox;
	/** The "Demo inbox" workflow, when Dovecot runs. */
	inboxWorkflowId?: string;
	/** Where sent mail is kept as .eml files when Dovecot does not run. */
	folder?: string;
	sink: MailSink;
	/** Resolves with the first sent mail (past or future) that `match` accepts; rejects after `timeoutMs`. */
	sentMail(match: (mail: SunkMail) => boolean, timeoutMs: number): Promise<SunkMail>;
	/** Activates the e-mail example and delivers the sample mails; reports each execution as it ends. */
	run(workflowId: string, projectNumber: string): Promise<void>;
	close(): Promise<void>;
}

/**
 * Why the demo cannot run Dovecot, with the one command that fixes it; undefined when it can (after installing it).
 * Call it before n8n starts: apt-get blocks this process for up to a minute, long enough for n8n to close the
 * idle connections this process would then reuse.
 */
export function dovecotUnavailable(log: (line: string) => void): string | undefined {
	const root = typeof process.getuid !== 'function' || process.getuid() === 0;
	const installed = spawnSync(dovecotBinary(), ['--version'], { stdio: 'ignore' }).status === 0;
	// The private Dovecot runs its sessions as nobody, which takes root (see scripts/n8n/dovecot.ts).
	if (!root) {
		if (installed) return 'its Dovecot needs root here: run `sudo npm run demo`';
		return spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
			? 'Dovecot is not installed and needs root here: run `sudo npm run demo` (it installs Dovecot with apt-get)'
			: "Dovecot is not installed: install it with your system's package manager (or set DOVECOT_PATH), then run the demo as root";
	}
	const dovecot = systemPrograms().find((program) => program.name === 'Dovecot');
	if (!dovecot) return 'Dovecot is unknown to scripts/n8n/system-packages.ts';
	try {
		ensureSystemPackages({
			programs: [{ ...dovecot, why: 'its mailbox' }],
			needs: 'The demo needs',
			log,
			versions: false,
			quiet: true,
		});
		return undefined;
	} catch (error) {
		return (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').trim();
	}
}

/** What one finished execution of the e-mail example shows, in a line. */
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

/** The demo inbox in n8n: every mail in it becomes an execution of this workflow, to open and read. */
function inboxWorkflow(credential: { id: string; name: string }): WorkflowFile {
	const field = (name: string, value: string) => ({ id: `demo-inbox-${name}`, name, value, type: 'string' });
	return {
		name: INBOX_WORKFLOW,
		nodes: [
			{
				id: 'demo-inbox-trigger',
				name: 'Mail in the demo inbox',
				type: 'n8n-nodes-base.emailReadImap',
				typeVersion: 2.2,
				position: [0, 0],
				parameters: {
					mailbox: 'INBOX',
					postProcessAction: 'read',
					format: 'simple',
					downloadAttachments: true,
					options: {},
				},
				credentials: { imap: credential },
			},
			{
				id: 'demo-inbox-read',
				name: READ_THE_MAIL,
				type: 'n8n-nodes-base.set',
				typeVersion: 3.4,
				position: [240, 0],
				parameters: {
					mode: 'manual',
					includeOtherFields: false,
					options: { stripBinary: false },
					assignments: {
						assignments: [
							field('Subject', '={{ $json.subject }}'),
							field('From', '={{ $json.from }}'),
							field('To', '={{ $json.to }}'),
							field('Text', '={{ $json.textPlain }}'),
						],
					},
				},
			},
			{
				id: 'demo-inbox-note',
				name: 'Note',
				type: 'n8n-nodes-base.stickyNote',
				typeVersion: 1,
				position: [-40, -300],
				parameters: {
					width: 560,
					height: 260,
					content: `## Demo inbox\nOnly in the demo: every e-mail your workflows send with the credential **${SMTP_CREDENTIAL}** lands in this one inbox, whoever it is addressed to, and nothing leaves this computer.\n\n**To read a mail:** open **Executions** (top of this page), which shows the newest mail, then double-click *${READ_THE_MAIL}*: its subject, who it is from and to, and its text; files under *Binary*. Older mails are in the list on the left.\n\nWith a mail program instead: IMAP login ${INBOX.user}, password ${INBOX.password} (the demo prints the server).`,
				},
			},
		],
		connections: {
			'Mail in the demo inbox': { main: [[{ node: READ_THE_MAIL, type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** The demo's mail in n8n; `unavailable` is what `dovecotUnavailable()` said before n8n started. */
export async function startDemoMailbox(
	n8n: N8nInstance,
	unavailable: string | undefined,
	log: (line: string) => void = console.log,
): Promise<DemoMailbox> {
	let dovecot: Dovecot | undefined;
	let why = unavailable;
	if (!unavailable) {
		try {
			dovecot = await startDovecot();
		} catch (error) {
			why = `Dovecot did not start (${error instanceof Error ? error.message.split('\n')[0] : error})`;
		}
	}
	const documents = dovecot?.addUser(DOCUMENTS.user, DOCUMENTS.password);
	const inbox = dovecot?.addUser(INBOX.user, INBOX.password);
	const folder = dovecot ? undefined : mkdtempSync(join(tmpdir(), 'fieldops-demo-mail-'));

	const waiting = new Set<(mail: SunkMail) => void>();
	const sink = await startMailSink({
		...SMTP,
		onMessage: (mail) => {
			if (dovecot && inbox) dovecot.deliver(inbox.user, mail.message);
			else if (folder) writeFileSync(join(folder, `${Date.now()}-${mail.to[0] ?? 'mail'}.eml`), mail.message);
			log(
				`Mail sent: "${mail.subject}" to ${mail.to.join(', ')} → ${dovecot ? `the demo inbox (open "${INBOX_WORKFLOW}" in n8n)` : folder}`,
			);
			for (const notify of waiting) notify(mail);
		},
	});
	const smtpId = await n8n.createCredential(SMTP_CREDENTIAL, 'smtp', sink.smtpCredential);
	const credentials: DemoMailbox['credentials'] = { smtp: { id: smtpId, name: SMTP_CREDENTIAL } };
	const lines = [
		`  Sent mail   every mail the workflows send (credential "${SMTP_CREDENTIAL}", smtp://${sink.host}:${sink.port}) stays on this computer:`,
	];

	let inboxWorkflowId: string | undefined;
	if (dovecot && documents && inbox) {
		credentials.imap = {
			id: await n8n.createCredential(IMAP_CREDENTIAL, 'imap', documents.imapCredential),
			name: IMAP_CREDENTIAL,
		};
		const inboxCredential = {
			id: await n8n.createCredential(INBOX_CREDENTIAL, 'imap', inbox.imapCredential),
			name: INBOX_CREDENTIAL,
		};
		inboxWorkflowId = await n8n.importWorkflow(inboxWorkflow(inboxCredential));
		await n8n.activateWorkflow(inboxWorkflowId);
		lines.push(
			`              read it in n8n: open the workflow "${INBOX_WORKFLOW}", then Executions`,
			`              or with a mail program: IMAP ${dovecot.host}:${dovecot.port} (no TLS), ${inbox.user} / ${inbox.password}`,
			`  Mailbox     ${documents.user} / ${documents.password} at imap://${dovecot.host}:${dovecot.port} (no TLS), read by the active "E-mail attachments → project documents"`,
			`              more mail: copy an .eml file into ${join(documents.maildir, 'new')}`,
		);
	} else {
		lines.push(
			`              kept as .eml files in ${folder}`,
			`  Mailbox     none: ${why}; the e-mail example is imported, not active`,
		);
	}

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
			// n8n may close an idle connection under the request ("other side closed"): ask again next second.
			const execution = await n8n
				.api('GET', `/executions/${done.id}?includeData=true`)
				.catch(() => undefined);
			if (!execution) continue;
			reported.add(done.id);
			log(`Mailbox: ${describeExecution(execution.body)}`);
			return;
		}
	};

	return {
		credentials,
		lines,
		dovecot,
		documents,
		inbox,
		inboxWorkflowId,
		folder,
		sink,
		sentMail(match, timeoutMs) {
			const past = sink.received.find(match);
			if (past) return Promise.resolve(past);
			return new Promise((resolveMail, reject) => {
				const timer = setTimeout(() => {
					waiting.delete(notify);
					reject(new Error(`No matching mail was sent within ${timeoutMs / 1000} s`));
				}, timeoutMs);
				const notify = (mail: SunkMail) => {
					if (!match(mail)) return;
					clearTimeout(timer);
					waiting.delete(notify);
					resolveMail(mail);
				};
				waiting.add(notify);
			});
		},
		async run(workflowId, projectNumber) {
			if (!dovecot || !documents) return;
			const user = documents.user;
			const logins = dovecot.logins(user);
			await n8n.activateWorkflow(workflowId);
			// n8n activates in the background; mail waiting before the trigger opens the mailbox counts as old.
			for (let waited = 0; dovecot.logins(user) === logins && waited < 600; waited++)
				await new Promise((r) => setTimeout(r, 100));
			await new Promise((r) => setTimeout(r, 1000));
			dovecot.deliver(
				user,
				buildMail({
					from: FROM,
					to: user,
					subject: `[${projectNumber}] Reviderte tegninger`,
					text: 'Hei, vedlagt reviderte tegninger.',
					attachments: [
						{ fileName: 'Tegning A – fasade.pdf', contentType: 'application/pdf', content: pdf('A') },
						{ fileName: 'Tegning B – snitt.pdf', contentType: 'application/pdf', content: pdf('B') },
					],
				}),
				buildMail({ from: FROM, to: user, subject: 'Møtereferat', text: 'Ingen vedlegg.' }),
			);
			log('Mailbox: 2 sample mails delivered; n8n reads new mail within about 20 s.');
			// Then a mail for a project that does not exist: its execution shows the failure branch.
			void (async () => {
				await reportNext(workflowId);
				dovecot.deliver(
					user,
					buildMail({
						from: FROM,
						to: user,
						subject: '[P-9999] Tegning til et prosjekt som ikke finnes',
						text: 'Feil prosjektnummer.',
						attachments: [{ fileName: 'Tegning C.pdf', contentType: 'application/pdf', content: pdf('C') }],
					}),
				);
				await reportNext(workflowId);
			})();
		},
		async close() {
			await sink.close();
			await dovecot?.close();
			if (folder) rmSync(folder, { recursive: true, force: true });
		},
	};
}
