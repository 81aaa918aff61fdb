/**
 * `npx tsx bench/documents.ts [--mode filesystem|default] [--mb 200]`: peak memory (RSS) of the n8n process while
 * the Field Ops node uploads one file of that size as a document, then downloads it again (through n8n-core's
 * real engine; the sandbox runs in its own process so its memory is not counted). Build first.
 */
import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

import type { IBinaryData } from 'n8n-workflow';

const { values } = parseArgs({ options: { mode: { type: 'string', default: 'filesystem' }, mb: { type: 'string', default: '200' } } });
const mode = values.mode === 'default' ? 'default' : 'filesystem';
const bytes = Number(values.mb) * 1024 * 1024;
const work = mkdtempSync(join(tmpdir(), 'fieldops-bench-docs-'));
process.env.N8N_DEFAULT_BINARY_DATA_MODE = mode;
process.env.N8N_BINARY_DATA_STORAGE_PATH = join(work, 'store');

const mib = (n: number) => `${Math.round(n / 1024 / 1024)} MiB`;

/** Peak RSS while `run` runs, sampled every 5 ms, and the RSS just before. */
async function peakDuring<T>(run: () => Promise<T>): Promise<{ result: T; before: number; peak: number; ms: number }> {
	global.gc?.();
	const before = process.memoryUsage().rss;
	let peak = before;
	const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
	const started = performance.now();
	try {
		const result = await run();
		return { result, before, peak: Math.max(peak, process.memoryUsage().rss), ms: performance.now() - started };
	} finally {
		clearInterval(timer);
	}
}

async function startSandboxProcess(): Promise<{ info: { coreUrl: string; [key: string]: unknown }; stop: () => void }> {
	const child = spawn(resolve(__dirname, '..', 'node_modules', '.bin', 'tsx'), [resolve(__dirname, '..', 'test', 'sandbox', 'cli.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
	const line = await new Promise<string>((done, fail) => {
		let text = '';
		child.stdout.on('data', (chunk: Buffer) => {
			text += chunk.toString();
			if (text.includes('\n')) done(text.split('\n')[0]);
		});
		child.on('exit', (code) => fail(new Error(`sandbox exited with ${code}`)));
	});
	return { info: JSON.parse(line), stop: () => child.kill('SIGTERM') };
}

async function main(): Promise<void> {
	const { N8nHarness } = await import('../test/harness');
	const { fieldOpsWorkflow, useSandboxCredential } = await import('../test/helpers/workflows');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const core = require('n8n-core') as typeof import('n8n-core');
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { Container } = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] })) as {
		Container: { get<T>(type: new (...args: never[]) => T): T };
	};

	const sandbox = await startSandboxProcess();
	try {
		const harness = await N8nHarness.load();
		useSandboxCredential(harness, sandbox.info as never);
		const projectId = await firstProjectId(sandbox.info.coreUrl, sandbox.info as never);

		// The file as a trigger would leave it: written to disk in chunks, then put into n8n's binary store.
		const path = join(work, 'drawing.pdf');
		await new Promise<void>((done, fail) => {
			const out = createWriteStream(path);
			const chunk = Buffer.alloc(1024 * 1024, 'x');
			let written = 0;
			const write = () => {
				while (written < bytes) {
					written += chunk.length;
					if (!out.write(chunk)) return void out.once('drain', write);
				}
				out.end(done);
			};
			out.on('error', fail);
			write();
		});
		const binary: IBinaryData = await Container.get(core.BinaryDataService).store(
			{ type: 'execution', workflowId: 'bench', executionId: 'seed' },
			mode === 'filesystem' ? createReadStream(path) : await (await import('node:fs/promises')).readFile(path),
			{ data: '', mimeType: 'application/pdf', fileName: 'drawing.pdf' },
		);
		const project = { __rl: true, mode: 'id', value: projectId };

		const upload = await peakDuring(async () =>
			harness.run(fieldOpsWorkflow({ resource: 'document', operation: 'upload', project, binarySource: 'all' }), { triggerItems: [{ json: {}, binary: { data: binary } }] }),
		);
		if (upload.result.error) throw upload.result.error;
		const file = (upload.result.items['Field Ops'][0].json.files as { size: number; fileReference: { id: string } }[])[0];
		if (file.size !== bytes) throw new Error(`uploaded ${file.size} bytes, expected ${bytes}`);

		const download = await peakDuring(async () =>
			harness.run(fieldOpsWorkflow({ resource: 'document', operation: 'download', project, fileReferenceId: file.fileReference.id })),
		);
		if (download.result.error) throw download.result.error;
		const got = download.result.items['Field Ops'][0];
		if (JSON.stringify(got.json).length > 1000) throw new Error('download put file data into json');

		console.log(`documents benchmark — ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, binary mode ${mode}, file ${mib(bytes)}`);
		for (const [name, r] of [['upload', upload], ['download', download]] as const) {
			console.log(`${name}: RSS before ${mib(r.before)}, peak ${mib(r.peak)} (+${mib(r.peak - r.before)}), ${Math.round(r.ms)} ms`);
		}
	} finally {
		sandbox.stop();
		rmSync(work, { recursive: true, force: true });
	}
}

/** A project of the admin client's company, straight from the sandbox API. */
async function firstProjectId(coreUrl: string, info: { identityUrl: string; clients: { clientId: string; clientSecret: string }[] }): Promise<string> {
	const client = info.clients.find((c) => c.clientId === 'fieldops-admin');
	if (!client) throw new Error('no admin client');
	const token = await fetch(`${info.identityUrl}/connect/token`, {
		method: 'POST',
		headers: { 'content-type': 'application/x-www-form-urlencoded' },
		body: new URLSearchParams({ grant_type: 'client_credentials', client_id: client.clientId, client_secret: client.clientSecret, scope: 'serviceapiv3' }),
	}).then(async (r) => ((await r.json()) as { access_token: string }).access_token);
	const projects = (await fetch(`${coreUrl}/api/v4/integration/projects`, { headers: { authorization: `Bearer ${token}` } }).then(async (r) => r.json())) as { id: string }[];
	return projects[0].id;
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
