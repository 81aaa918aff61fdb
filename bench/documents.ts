/**
 * 5. Documents: a 200 MB file through a real n8n in filesystem binary mode. Upload: Read/Write Files from Disk →
 * Field Ops Document Upload; download: Field Ops Document Download → Read/Write Files from Disk. The figure is
 * the n8n process's peak RSS growth during each execution. A baseline workflow (read → write, no Field Ops
 * node) shows what n8n's own file nodes cost. Every run checks the bytes: sizes and SHA-256 of both files.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { MiB, figure, webhookWorkflow, type Section, withSandboxAndN8n } from './lib';

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

export async function run({ runs }: { runs: number }): Promise<Section> {
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
					title: '200 MB document through n8n (filesystem binary mode)',
					facts: { bytes: SIZE, sha256: sourceHash },
					figures: [
						figure('upload: peak RSS growth of n8n', 'MiB', up, { atMost: 64 }),
						figure('download: peak RSS growth of n8n', 'MiB', down, { atMost: 64 }),
						figure('read → write without Field Ops (n8n alone)', 'MiB', base),
						figure('upload (execution)', 'ms', upMs),
						figure('download (execution)', 'ms', downMs),
					],
					notes: [],
				};
			},
		);
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}
