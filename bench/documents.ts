/**
 * 5. Documents: a 200 MB file through a real n8n in filesystem binary mode. Upload: Read/Write Files from Disk →
 * Field Ops Document Upload; download: Field Ops Document Download → Read/Write Files from Disk. The figure is
 * the n8n process's peak RSS growth during each execution. A baseline workflow (read → write, no Field Ops
 * node) shows what n8n's own file nodes cost. Every run checks the bytes: sizes and SHA-256 of both files.
 *
 * 5b. A 25 MB e-mail attachment from a mailbox (a private Dovecot) to Field Ops, in filesystem and in database
 * binary mode: n8n's Email Trigger (IMAP, Resolved, as in the example) → Document Upload. The figure is n8n's peak
 * RSS growth from the delivery until the execution has ended, minus the attachment's own 25 MiB (n8n holds the
 * file once whatever reads it). Beside it, the same mail into a trigger → No Operation workflow: what n8n's IMAP
 * trigger alone costs. Each mail is delivered while Dovecot restarts, so the trigger reconnects and reads it at
 * once instead of after imapflow's 15 s IDLE delay. Every upload is checked in the sandbox: size and SHA-256.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { startDovecot, type Dovecot } from '../scripts/n8n/dovecot';
import { buildMail, noise } from '../scripts/n8n/mime';
import type { WorkflowFile } from '../scripts/n8n/run';
import { MiB, figure, sampleRss, webhookWorkflow, type Figure, type Section, withSandboxAndN8n } from './lib';

const SIZE = 200 * MiB;

async function writeFile(path: string, bytes: number): Promise<void> {
	await new Promise<void>((done, fail) => {
		const out = createWriteStream(path);
		const chunk = Buffer.alloc(MiB);
		let written = 0;
		const write = () => {
			while (written < bytes) {
				// Not all one byte: a PDF-like header, then varying content.
				chunk.fill(written / MiB);
				written += chunk.length;
				if (!out.write(Buffer.from(chunk))) return void out.once('drain', write);
			}
			out.end(done);
		};
		out.on('error', fail);
		write();
	});
}

async function sha256(path: string): Promise<string> {
	const hash = createHash('sha256');
	for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
	return hash.digest('hex');
}

const ATTACHMENT = 25 * MiB;

/** Per binary mode: RSS growth beyond the attachment, trigger → upload and trigger → No-Op, over `runs` mails. */
async function mailToDocuments(
	dovecot: Dovecot,
	mode: 'filesystem' | 'database',
	runs: number,
): Promise<{ figures: Figure[]; uploadMs: number[] }> {
	return await withSandboxAndN8n([], { binaryDataMode: mode }, async (sandbox, bench) => {
		const { n8n } = bench;
		const token = await sandbox.token('serviceapiv3');
		const projects = (await (
			await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, {
				headers: { authorization: `Bearer ${token}` },
			})
		).json()) as { id: string }[];
		const trigger = async (user: string, next: WorkflowFile['nodes'][number]) => {
			const mailbox = dovecot.addUser(user, `bench-${mode}`);
			const imap = await n8n.createCredential(user, 'imap', mailbox.imapCredential);
			const id = await n8n.importWorkflow({
				name: `Bench: 25 MB mail (${user})`,
				nodes: [
					{
						id: randomUUID(),
						name: 'New e-mail',
						type: 'n8n-nodes-base.emailReadImap',
						typeVersion: 2.2,
						position: [0, 0],
						parameters: { mailbox: 'INBOX', postProcessAction: 'read', format: 'resolved', options: {} },
						credentials: { imap: { id: imap, name: user } },
					},
					{ id: randomUUID(), position: [260, 0], ...next },
				],
				connections: { 'New e-mail': { main: [[{ node: next.name, type: 'main', index: 0 }]] } },
				settings: { executionOrder: 'v1' },
			});
			const logins = dovecot.logins(user);
			await n8n.activateWorkflow(id);
			while (dovecot.logins(user) === logins) await new Promise((r) => setTimeout(r, 100));
			return id;
		};
		const uploadUser = `upload-${mode}@example.com`;
		const noopUser = `noop-${mode}@example.com`;
		const upload = await trigger(uploadUser, {
			name: 'Upload',
			type: 'n8n-nodes-fieldops.fieldOps',
			typeVersion: 1.1,
			parameters: {
				resource: 'document',
				operation: 'upload',
				project: { __rl: true, mode: 'id', value: projects[0].id },
				options: { section: `Bench ${mode}` },
			},
			credentials: bench.fieldOpsCredential,
		});
		const noop = await trigger(noopUser, {
			name: 'No Operation',
			type: 'n8n-nodes-base.noOp',
			typeVersion: 1,
			parameters: {},
		});

		const content = noise(ATTACHMENT, 5);
		const digest = createHash('sha256').update(content).digest('hex');
		const message = buildMail({
			from: 'bench@example.com',
			to: uploadUser,
			subject: 'Punktsky',
			text: '25 MB',
			attachments: [{ fileName: 'Punktsky.laz', contentType: 'application/octet-stream', content }],
		});
		/** Delivers the mail while Dovecot restarts; the RSS growth until the workflow's new execution has ended. */
		const readMail = async (user: string, workflowId: string) => {
			const finished = async () =>
				(
					(await n8n.api('GET', `/executions?workflowId=${workflowId}&limit=100`)).body.data as {
						stoppedAt?: string;
					}[]
				).filter((e) => e.stoppedAt);
			const before = (await finished()).length;
			const pid = n8n.process.pid;
			if (!pid) throw new Error('n8n has no pid');
			const rss = sampleRss(pid);
			const started = performance.now();
			await dovecot.stop();
			dovecot.deliver(user, message);
			await dovecot.start();
			for (let waited = 0; (await finished()).length === before; waited++) {
				if (waited > 1200)
					throw new Error(`the 25 MB mail to ${user} was not read in 2 min:\n${n8n.logTail(20)}`);
				await new Promise((r) => setTimeout(r, 100));
			}
			const memory = rss.stop();
			return { growth: (memory.peak - memory.baseline - ATTACHMENT) / MiB, ms: performance.now() - started };
		};
		const withUpload: number[] = [];
		const alone: number[] = [];
		const uploadMs: number[] = [];
		for (let i = -1; i < runs; i++) {
			const uploaded = await readMail(uploadUser, upload);
			const pages = (await (
				await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects/${projects[0].id}/documents`, {
					headers: { authorization: `Bearer ${token}` },
				})
			).json()) as { section: string; files: { fileReferenceId: string }[] }[];
			const files = pages.find((p) => p.section === `Bench ${mode}`)?.files ?? [];
			if (files.length !== i + 2) throw new Error(`${files.length} documents after ${i + 2} mails (${mode})`);
			const latest = await fetch(
				`${sandbox.info.coreUrl}/api/v4/integration/projects/${projects[0].id}/documents/${files[files.length - 1].fileReferenceId}`,
				{ headers: { authorization: `Bearer ${token}` } },
			);
			const bytes = Buffer.from(await latest.arrayBuffer());
			if (bytes.length !== ATTACHMENT || createHash('sha256').update(bytes).digest('hex') !== digest)
				throw new Error(`the uploaded attachment differs from the mail's (${mode})`);
			const baseline = await readMail(noopUser, noop);
			// The first round warms n8n up and is not recorded.
			if (i < 0) continue;
			withUpload.push(uploaded.growth);
			alone.push(baseline.growth);
			uploadMs.push(uploaded.ms);
		}
		return {
			uploadMs,
			figures: [
				figure(`25 MB mail → upload (${mode}): n8n RSS growth beyond the attachment`, 'MiB', withUpload, {
					atMost: 64,
				}),
				figure(`25 MB mail → No-Op (${mode}): the IMAP trigger alone, beyond the attachment`, 'MiB', alone),
			],
		};
	});
}

/** Section 5b in both binary modes, with one Dovecot (skipped with a note when it cannot start). */
export async function mailSection(runs: number): Promise<{ figures: Figure[]; notes: string[] }> {
	let dovecot: Dovecot;
	try {
		dovecot = await startDovecot();
	} catch (error) {
		return {
			figures: [],
			notes: [`5b skipped: ${error instanceof Error ? error.message.split('\n')[0] : error}`],
		};
	}
	try {
		const figures: Figure[] = [];
		for (const mode of ['filesystem', 'database'] as const) {
			const measured = await mailToDocuments(dovecot, mode, runs);
			figures.push(
				...measured.figures,
				figure(
					`25 MB mail → upload (${mode}): delivery to the end of the execution`,
					'ms',
					measured.uploadMs,
				),
			);
		}
		return { figures, notes: [] };
	} finally {
		await dovecot.close();
	}
}

export async function run({ runs }: { runs: number }): Promise<Section> {
	const mail = await mailSection(runs);
	const work = mkdtempSync(join(tmpdir(), 'fieldops-bench-docs-'));
	const source = join(work, 'drawing.pdf');
	await writeFile(source, SIZE);
	const sourceHash = await sha256(source);
	try {
		return await withSandboxAndN8n(
			[],
			{ env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem', N8N_RESTRICT_FILE_ACCESS_TO: work } },
			async (sandbox, bench) => {
				const token = await sandbox.token('serviceapiv3');
				const projects = (await (
					await fetch(`${sandbox.info.coreUrl}/api/v4/integration/projects`, {
						headers: { authorization: `Bearer ${token}` },
					})
				).json()) as { id: string }[];
				const project = { __rl: true, mode: 'id', value: projects[0].id };
				const read = {
					name: 'Read file',
					type: 'n8n-nodes-base.readWriteFile',
					typeVersion: 1.1,
					parameters: { operation: 'read', fileSelector: source, options: { mimeType: 'application/pdf' } },
				};
				const write = (name: string) => ({
					name: 'Write file',
					type: 'n8n-nodes-base.readWriteFile',
					typeVersion: 1.1,
					parameters: {
						operation: 'write',
						fileName: join(work, name),
						dataPropertyName: 'data',
						options: {},
					},
				});

				const upload = await webhookWorkflow(bench, 'Bench: document upload', [
					read,
					{
						name: 'Upload',
						type: 'n8n-nodes-fieldops.fieldOps',
						typeVersion: 1,
						parameters: {
							resource: 'document',
							operation: 'upload',
							project,
							binarySource: 'all',
							options: { replaceExistingFilesWithSameName: true },
						},
					},
				]);
				const download = await webhookWorkflow(bench, 'Bench: document download', [
					{
						name: 'Download',
						type: 'n8n-nodes-fieldops.fieldOps',
						typeVersion: 1,
						parameters: {
							resource: 'document',
							operation: 'download',
							project,
							fileReferenceId: '={{ $json.body.fileReferenceId }}',
						},
					},
					write('downloaded.pdf'),
				]);
				const copy = await webhookWorkflow(bench, 'Bench: read and write only (n8n baseline)', [
					read,
					write('copied.pdf'),
				]);

				const growth = (r: { rssPeak: number; rssBaseline: number }) => (r.rssPeak - r.rssBaseline) / MiB;
				const up: number[] = [];
				const down: number[] = [];
				const base: number[] = [];
				const upMs: number[] = [];
				const downMs: number[] = [];
				for (let i = -1; i < runs; i++) {
					const uploaded = await upload.run();
					const file = ((uploaded.response as { files?: { size: number; fileReference: { id: string } }[] })
						.files ?? [])[0];
					if (file?.size !== SIZE) throw new Error(`upload stored ${file?.size} bytes, expected ${SIZE}`);
					const downloaded = await download.run({ fileReferenceId: file.fileReference.id });
					const got = join(work, 'downloaded.pdf');
					if (statSync(got).size !== SIZE || (await sha256(got)) !== sourceHash)
						throw new Error('the downloaded file differs from the uploaded one');
					rmSync(got);
					const copied = await copy.run();
					rmSync(join(work, 'copied.pdf'));
					// The first round warms n8n up and is not recorded.
					if (i < 0) continue;
					up.push(growth(uploaded));
					down.push(growth(downloaded));
					base.push(growth(copied));
					upMs.push(uploaded.ms);
					downMs.push(downloaded.ms);
				}
				return {
					id: 'documents',
					title:
						'200 MB document through n8n (filesystem binary mode); a 25 MB e-mail attachment to a document (both modes)',
					facts: { bytes: SIZE, sha256: sourceHash },
					figures: [
						...mail.figures,
						figure('upload: peak RSS growth of n8n', 'MiB', up, { atMost: 64 }),
						figure('download: peak RSS growth of n8n', 'MiB', down, { atMost: 64 }),
						figure('read → write without Field Ops (n8n alone)', 'MiB', base),
						figure('upload (execution)', 'ms', upMs),
						figure('download (execution)', 'ms', downMs),
					],
					notes: mail.notes,
				};
			},
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
