/**
 * "E-mail attachments → project documents" for real: a private Dovecot IMAP server, real MIME messages delivered
 * into its Maildir, n8n's own Email Trigger (IMAP) reading them in the activated example workflow, and the
 * documents compared byte for byte in the sandbox. Once per binary data mode n8n 3.0 keeps (filesystem, database),
 * one n8n each. Per mode three deliveries, each waited for once: a batch of good mails (green), mails with refused
 * files (a visible failure naming each file), and a mail delivered while Dovecot is down (read once it is back).
 * n8n's IMAP client (imapflow) starts IDLE 15 s after its last command, so each batch takes about that long to be
 * seen. Needs Dovecot (`npx tsx scripts/n8n/system-packages.ts` installs it) and root (Dovecot's sessions).
 */
import { createHash, randomUUID } from 'node:crypto';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { startDovecot, type Dovecot } from '../../scripts/n8n/dovecot';
import { buildMail, noise, pdf, type Mail, type MailFile } from '../../scripts/n8n/mime';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	startN8n,
	webhookChain,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';
import { administrator, callWebhook, sandboxCredentialData } from './fixtures';

jest.setTimeout(4 * 60_000);

const MODES = ['filesystem', 'database'] as const;
const MiB = 1024 * 1024;
// A mail takes ~15 s to be seen (imapflow's IDLE delay), longer on a loaded machine.
const ARRIVAL_WAIT_MS = 120_000;
const TRIGGER = 'New e-mail';
const SITE_MANAGER = 'byggeleder@entreprenor.example.com';
const UPLOAD = 'Attach to the project';
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
	'base64',
);
const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const file = (fileName: string, contentType: string, content: Buffer): MailFile => ({
	fileName,
	contentType,
	content,
});

// eslint-disable-next-line @typescript-eslint/no-require-imports
const example = require('../../examples/email-attachments-to-project-documents.json') as WorkflowFile;

interface Execution {
	id: string;
	status: string;
	data: { resultData: { error?: { message: string }; runData: Record<string, any[]> } };
}

const timings: Record<string, number> = {};
const figures: Record<string, unknown> = {};

describe('e-mail attachments → project documents, read from a real mailbox by n8n’s Email Trigger (IMAP)', () => {
	const sb = useSandbox();
	let dovecot: Dovecot;

	beforeAll(async () => {
		dovecot = await startDovecot();
		// Fault injection (the spec accepts any file type): a type refused with 415, a file answered successful:false.
		const refused = await call(sb().coreUrl, '/__sandbox/documents/refusals', {
			method: 'POST',
			json: [
				{ nameEndsWith: '.exe', status: 415, message: 'File type not allowed' },
				{ nameEndsWith: 'virus.zip', message: 'The file was rejected by the virus scan' },
			],
		});
		expect(refused.status).toBe(200);
	});

	afterAll(async () => {
		await dovecot?.close();
		console.log(
			`mail e2e timings (s): ${JSON.stringify(timings)}\nmail e2e figures: ${JSON.stringify(figures)}`,
		);
	});

	describe.each(MODES)('%s binary data', (mode) => {
		const user = `documents-${mode}@example.com`;
		let n8n: N8nInstance;
		let workflowId = '';
		let token = '';
		let project: { id: string; projectNumber: string };
		/** Every document the project must have, by name, once each: what the mails delivered so far carry. */
		const expected = new Map<string, Buffer>();
		const delivered: string[] = [];
		const seen = new Set<string>();
		let started = 0;

		const mail = (subject: string, rest: Partial<Mail> = {}): Mail => ({
			from: 'Ola Nordmann <ola@arkitekt.example.com>',
			to: user,
			subject: `[${project.projectNumber}] ${subject}`,
			text: 'Se vedlegg.',
			...rest,
		});
		const deliver = (...mails: Mail[]) => {
			dovecot.deliver(user, ...mails.map(buildMail));
			delivered.push(...mails.map((m) => m.subject));
		};

		/** Executions finished since the last call, with their data. */
		const newExecutions = async (): Promise<Execution[]> => {
			const list = await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=100`);
			const done = (list.body.data as { id: string; stoppedAt?: string }[]).filter(
				(e) => e.stoppedAt && !seen.has(e.id),
			);
			const executions: Execution[] = [];
			for (const { id } of done) {
				seen.add(id);
				executions.push((await n8n.api('GET', `/executions/${id}?includeData=true`)).body as Execution);
			}
			return executions;
		};
		const subjectsOf = (execution: Execution) =>
			(execution.data.resultData.runData[TRIGGER]?.[0]?.data?.main?.[0] ?? []).map(
				(item: { json: { subject: string } }) => item.json.subject,
			) as string[];
		/** Waits until every subject was read, in as many executions as n8n made; each mail once. */
		const executionsFor = async (subjects: string[]): Promise<Execution[]> => {
			const until = Date.now() + ARRIVAL_WAIT_MS;
			const executions: Execution[] = [];
			const read = () => executions.flatMap(subjectsOf);
			while (!subjects.every((subject) => read().includes(subject))) {
				if (Date.now() > until)
					throw new Error(
						`Not read within ${ARRIVAL_WAIT_MS / 1000} s: ${subjects.filter((s) => !read().includes(s)).join(', ')}\n--- n8n ---\n${n8n.logTail(30)}\n--- Dovecot ---\n${dovecot.logTail(10)}`,
					);
				executions.push(...(await newExecutions()));
				await new Promise((r) => setTimeout(r, 500));
			}
			expect(read().sort()).toEqual([...subjects].sort());
			return executions;
		};
		/** The upload node's items: success output, error output. */
		const uploadOutputs = (execution: Execution) => {
			const [success = [], failure = []] = execution.data.resultData.runData[UPLOAD]?.[0]?.data?.main ?? [];
			return {
				success: success as { json: any; pairedItem?: { item: number } }[],
				failure: failure as { json: any }[],
			};
		};
		/** The documents on the project's E-post page, with their bytes as the service serves them. */
		const documents = async () => {
			const path = `/api/v4/integration/projects/${project.id}/documents`;
			const pages = (await call(sb().coreUrl, path, { token })).body as {
				section: string;
				files: { fileReferenceId: string; name: string }[];
			}[];
			const files = pages.find((page) => page.section === 'E-post')?.files ?? [];
			return await Promise.all(
				files.map(async ({ fileReferenceId, name }) => ({
					name,
					bytes: (await call(sb().coreUrl, `${path}/${fileReferenceId}`, { token })).raw,
				})),
			);
		};
		/** Every expected document is on the project once, with its size and bytes, and nothing else is. */
		const expectDocuments = async () => {
			const stored = await documents();
			expect(stored.map((d) => d.name).sort()).toEqual([...expected.keys()].sort());
			for (const { name, bytes } of stored)
				expect({ name, size: bytes.length, sha: sha(bytes) }).toEqual({
					name,
					size: expected.get(name)!.length,
					sha: sha(expected.get(name)!),
				});
			return stored;
		};
		/** A test whose duration is reported under `label`. */
		const timed = (label: string, name: string, fn: () => Promise<void>) =>
			it(name, async () => {
				const begun = Date.now();
				try {
					await fn();
				} catch (error) {
					throw new Error(
						`${error instanceof Error ? error.message : String(error)}\n--- n8n log ---\n${n8n?.logTail(30) ?? ''}`,
					);
				} finally {
					timings[`${mode}: ${label}`] = (Date.now() - begun) / 1000;
				}
			});

		beforeAll(async () => {
			started = Date.now();
			const index = MODES.indexOf(mode);
			token = await tokenFor(sb(), administrator(sb()).clientId);
			// A project of its own per mode, so each mode's documents are told apart.
			project = (
				(await call(sb().coreUrl, '/api/v4/integration/projects', { token })).body as (typeof project)[]
			)[index];
			const mailbox = dovecot.addUser(user, `pass-${randomUUID()}`);
			n8n = await startN8n({ binaryDataMode: mode });
			await n8n.setupOwner();
			await n8n.createApiKey();
			const fieldOps = await n8n.createCredential(
				'Field Ops account',
				CREDENTIAL_TYPE,
				sandboxCredentialData(sb()),
			);
			const imap = await n8n.createCredential('Mailbox for documents', 'imap', mailbox.imapCredential);
			// The example as users import it, with its credentials and, in "Where mails go", the project for all other
			// mails filled in as a user would (a project number in the subject still wins).
			const settings = {
				'Project for all other mails': project.projectNumber,
			};
			const configured = {
				...example,
				nodes: example.nodes.map((node) =>
					node.name !== 'Where mails go'
						? node
						: {
								...node,
								parameters: {
									...(node.parameters as object),
									assignments: {
										assignments: (
											node.parameters as { assignments: { assignments: { name: string; value: unknown }[] } }
										).assignments.assignments.map((field) => ({
											...field,
											value: settings[field.name as keyof typeof settings] ?? field.value,
										})),
									},
								},
							},
				),
			};
			workflowId = await n8n.importWorkflow(configured, {
				[CREDENTIAL_TYPE]: { id: fieldOps, name: 'Field Ops account' },
				imap: { id: imap, name: 'Mailbox for documents' },
			});
			const logins = dovecot.logins(user);
			await n8n.activateWorkflow(workflowId);
			// n8n activates in the background: mail already there when the trigger opens the mailbox is not "new".
			const until = Date.now() + 60_000;
			while (dovecot.logins(user) === logins) {
				if (Date.now() > until) throw new Error(`The trigger did not log in to ${user}:\n${n8n.logTail(30)}`);
				await new Promise((r) => setTimeout(r, 100));
			}
			await new Promise((r) => setTimeout(r, 2000));
			timings[`${mode}: n8n start + set-up + activation`] = (Date.now() - started) / 1000;
		}, 180_000);

		afterAll(async () => {
			await n8n?.stop();
			timings[`${mode}: total`] = (Date.now() - started) / 1000;
		});

		timed(
			'batch of mails',
			'reads a batch of mails once each: every attachment arrives with its name and bytes, a mail without one stays green',
			async () => {
				const forwarded = buildMail({
					from: 'Byggherre <post@byggherre.example.com>',
					to: 'ola@arkitekt.example.com',
					subject: 'Revidert tegning',
					text: 'Ny revisjon.',
					attachments: [file('Tegning rev B.pdf', 'application/pdf', pdf('rev B'))],
				});
				const large = noise(25 * MiB, 25);
				const mails = {
					pdf: mail('Fasade nord', {
						attachments: [file('Fasade nord.pdf', 'application/pdf', pdf('fasade'))],
					}),
					types: mail('Underlag befaring', {
						attachments: [
							file('Befaring.pdf', 'application/pdf', pdf('befaring')),
							file('Bilde 1.jpg', 'image/jpeg', noise(40_000, 1)),
							file(
								'Mengdeliste.xlsx',
								'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
								noise(9_000, 2),
							),
							file('Notat.txt', 'text/plain', Buffer.from('Husk stillas på nordsiden.\n')),
						],
					}),
					inline: mail('Bilde fra tomta', {
						html: '<p>Sprekk i grunnmuren:</p><img src="cid:sprekk@tomt">',
						inline: [{ ...file('Sprekk i grunnmur.png', 'image/png', PNG), contentId: 'sprekk@tomt' }],
					}),
					forwarded: mail('VS: Revidert tegning', {
						forwarded: [{ fileName: 'Revidert tegning.eml', message: forwarded }],
					}),
					none: mail('Møte torsdag kl. 10', { text: 'Ingen vedlegg denne gangen.' }),
					large: mail('Punktsky', {
						attachments: [file('Punktsky tomt 5.laz', 'application/octet-stream', large)],
					}),
					nordic: mail('Målebrev', {
						attachments: [file('Målebrev for bærevegg på tomt 5.pdf', 'application/pdf', pdf('æøå ÆØÅ'))],
					}),
					climbing: mail('Rar filsti', { attachments: [file('../../x.pdf', 'application/pdf', pdf('x'))] }),
					// No project number in the subject: the project for all other mails.
					sender: {
						...mail('x'),
						from: `Per Byggeleder <${SITE_MANAGER}>`,
						subject: `Dagsrapport (${mode})`,
						attachments: [file('Dagsrapport.pdf', 'application/pdf', pdf('dagsrapport'))],
					},
					domain: {
						...mail('x'),
						from: 'Kari Landmåler <kari@landmaaler.example.com>',
						subject: `Stikningsdata (${mode})`,
						attachments: [file('Stikning.csv', 'text/csv', Buffer.from('punkt;x;y\n1;100;200\n'))],
					},
				};
				deliver(...Object.values(mails));
				const executions = await executionsFor(Object.values(mails).map((m) => m.subject));
				figures[`${mode}: executions for the batch`] = executions.length;

				expect(executions.map((e) => e.status)).toEqual(executions.map(() => 'success'));
				const success = executions.flatMap((e) =>
					uploadOutputs(e).success.map((item) => ({ ...item, execution: e })),
				);
				expect(executions.flatMap((e) => uploadOutputs(e).failure)).toEqual([]);
				// One result per file, each file once; the mail without attachments passes as "no attachment".
				const uploaded = success.filter((item) => !item.json.noAttachment).map((item) => item.json.fileName);
				const names: Record<keyof typeof mails, string[]> = {
					pdf: ['Fasade nord.pdf'],
					types: ['Befaring.pdf', 'Bilde 1.jpg', 'Mengdeliste.xlsx', 'Notat.txt'],
					inline: ['Sprekk i grunnmur.png'],
					forwarded: ['Revidert tegning.eml'],
					none: [],
					large: ['Punktsky tomt 5.laz'],
					nordic: ['Målebrev for bærevegg på tomt 5.pdf'],
					// n8n's trigger (and the node) keep only the last segment of a path-like name.
					climbing: ['x.pdf'],
					sender: ['Dagsrapport.pdf'],
					domain: ['Stikning.csv'],
				};
				expect(uploaded.sort()).toEqual(Object.values(names).flat().sort());
				expect(success.every((item) => item.json.noAttachment || item.json.successful === true)).toBe(true);
				const [none] = success.filter((item) => item.json.noAttachment);
				const input = none.execution.data.resultData.runData['Where mails go'][0].data.main[0];
				expect(input[none.pairedItem!.item].json.subject).toBe(mails.none.subject);
				expect(none.json.message).toMatch(/^No attachment/);

				for (const [key, message] of Object.entries(mails) as [keyof typeof mails, Mail][])
					for (const [index, name] of names[key].entries()) {
						const source = [...(message.attachments ?? []), ...(message.inline ?? [])][index];
						expected.set(name, source?.content ?? forwarded);
					}
				const stored = await expectDocuments();
				// The forwarded mail is one document: the whole message, its own attachment inside it, not beside it.
				const eml = stored.find((d) => d.name === 'Revidert tegning.eml')!.bytes.toString('latin1');
				expect(eml).toContain('Tegning rev B.pdf');
				figures[`${mode}: documents after the batch`] = {
					files: stored.length,
					bytes: stored.reduce((sum, d) => sum + d.bytes.length, 0),
				};
			},
		);

		timed(
			'refused files',
			'shows refused files and mails without a project (an empty or an unknown number) as a visible failure naming each file and why; the other files arrive',
			async () => {
				deliver(
					mail('Sjekkliste og oppsett', {
						attachments: [
							file('Sjekkliste stillas.pdf', 'application/pdf', pdf('sjekkliste')),
							file('oppsett.exe', 'application/x-msdownload', Buffer.from('MZ not really a program')),
						],
					}),
					mail('Tegninger zippet', {
						attachments: [file('Tegninger virus.zip', 'application/zip', noise(3_000, 3))],
					}),
					{
						...mail('x'),
						from: 'Ukjent <post@ukjent.example.com>',
						subject: `[ ] Tilbud uten prosjektnummer (${mode})`,
						attachments: [file('Tilbud.pdf', 'application/pdf', pdf('tilbud'))],
					},
					{
						...mail('Feil prosjekt'),
						subject: '[NOPE-404] Tegning til feil prosjekt',
						attachments: [file('Feil prosjekt.pdf', 'application/pdf', pdf('feil'))],
					},
				);
				const subjects = delivered.slice(-4);
				const executions = await executionsFor(subjects);
				// Red: the example's "Not attached" stops the run with a message naming each file and why.
				expect(executions.some((e) => e.status === 'error')).toBe(true);
				const message = executions.map((e) => e.data.resultData.error?.message ?? '').join(' | ');
				expect(message).toMatch(/"oppsett\.exe" was not uploaded: .*File type not allowed/);
				expect(message).toMatch(
					/"Tegninger virus\.zip" was not uploaded: Field Ops did not accept the file: The file was rejected by the virus scan/,
				);
				expect(message).toMatch(/"Feil prosjekt\.pdf" was not uploaded: The project was not found/);
				// Brackets in the subject with no number in them: no project (not the one for all other mails).
				expect(message).toMatch(/"Tilbud\.pdf" was not uploaded: Project is empty/);
				const failed = executions.flatMap((e) =>
					uploadOutputs(e).failure.map((item) => [item.json.details?.fileName, item.json.subject]),
				);
				expect(failed.sort()).toEqual(
					[
						['Feil prosjekt.pdf', subjects[3]],
						['Tilbud.pdf', subjects[2]],
						['Tegninger virus.zip', subjects[1]],
						['oppsett.exe', subjects[0]],
					].sort(),
				);
				// The refused file's neighbour in the same mail is attached.
				expected.set('Sjekkliste stillas.pdf', pdf('sjekkliste'));
				await expectDocuments();
			},
		);

		timed(
			'restart',
			'reads a mail that arrives while Dovecot restarts once it is back: nothing lost, nothing uploaded twice',
			async () => {
				const report = mail('Befaringsrapport uke 48', {
					attachments: [file('Befaringsrapport uke 48.pdf', 'application/pdf', pdf('befaringsrapport'))],
				});
				const restarted = Date.now();
				// Delivered once the server is gone (stop() waits for it), started again at once: the trigger's
				// reconnection backs off 1, 2, 4 s…, so a longer outage only makes the test slower.
				await dovecot.stop();
				deliver(report);
				await dovecot.start();
				const executions = await executionsFor([report.subject]);
				timings[`${mode}: restart → uploaded (s)`] = (Date.now() - restarted) / 1000;
				expect(executions.map((e) => e.status)).toEqual(executions.map(() => 'success'));
				expected.set('Befaringsrapport uke 48.pdf', pdf('befaringsrapport'));
				await expectDocuments();
				// Every mail read exactly once over all executions, and marked as read in the mailbox.
				const all = [...seen];
				const reads: string[] = [];
				for (const id of all)
					reads.push(
						...subjectsOf((await n8n.api('GET', `/executions/${id}?includeData=true`)).body as Execution),
					);
				expect(reads.sort()).toEqual([...delivered].sort());
				expect(dovecot.count(user)).toEqual({ unseen: 0, seen: delivered.length });
				figures[`${mode}: mails`] = delivered.length;
				figures[`${mode}: executions`] = all.length;
			},
		);

		timed(
			'download',
			'downloads documents back through n8n’s binary data, bytes equal (Download in this mode)',
			async () => {
				const path = randomUUID();
				const workflow = webhookChain(
					`Download (${mode})`,
					path,
					[
						{
							id: 'd',
							name: 'Download',
							type: NODE_TYPE,
							typeVersion: 1.1,
							position: [260, 0],
							parameters: {
								resource: 'document',
								operation: 'download',
								project: { __rl: true, mode: 'id', value: project.id },
								fileReferenceId: '={{ $json.body.id }}',
							},
							credentials: { [CREDENTIAL_TYPE]: { id: 'x', name: 'x' } },
						},
					],
					'firstEntryBinary',
				);
				const credential = await n8n.createCredential(
					'Field Ops (download)',
					CREDENTIAL_TYPE,
					sandboxCredentialData(sb()),
				);
				const id = await n8n.importWorkflow(workflow, {
					[CREDENTIAL_TYPE]: { id: credential, name: 'Field Ops (download)' },
				});
				await n8n.activateWorkflow(id);
				// Its own documents, put on the project directly (a page of their own), so the test also runs alone.
				const files = [
					{ name: 'Modell 25 MB.ifc', bytes: noise(25 * MiB, 7) },
					{ name: 'Målebrev for bærevegg på tomt 6.pdf', bytes: pdf('æøå nedlasting') },
				];
				const form = new FormData();
				for (const { name, bytes } of files) form.append('file', new Blob([bytes]), name);
				const uploaded = await call(sb().coreUrl, `/api/v4/integration/projects/${project.id}/documents`, {
					method: 'POST',
					token,
					body: form,
					query: { section: 'Nedlasting' },
				});
				expect(uploaded.status).toBeLessThan(300);
				for (const [index, { name, bytes: original }] of files.entries()) {
					const { id: fileReferenceId } = (uploaded.body as { files: { fileReference: { id: string } }[] })
						.files[index].fileReference;
					const answer = await callWebhook(n8n, path, JSON.stringify({ id: fileReferenceId }));
					const bytes = Buffer.from(await answer.arrayBuffer());
					expect({ name, status: answer.status, size: bytes.length, sha: sha(bytes) }).toEqual({
						name,
						status: 200,
						size: original.length,
						sha: sha(original),
					});
				}
			},
		);
	});
});
