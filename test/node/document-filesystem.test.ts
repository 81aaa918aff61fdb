/**
 * Document upload in n8n's filesystem binary mode (N8N_DEFAULT_BINARY_DATA_MODE=filesystem): the file is read
 * from the binary store as a stream while the request is sent; the bytes, name and type must arrive intact.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import type { IBinaryData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'filesystem';
process.env.N8N_BINARY_DATA_STORAGE_PATH = mkdtempSync(join(tmpdir(), 'fieldops-binary-'));

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] })) as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

describe('Field Ops → Document upload, filesystem binary mode', () => {
	const sb = useSandbox();
	let harness: N8nHarness;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	/** Stores bytes the way a trigger does in filesystem mode: the item carries only an id. */
	const stored = async (
		bytes: Buffer,
		fileName: string | undefined,
		mimeType: string,
	): Promise<IBinaryData> =>
		await Container.get(core.BinaryDataService).store(
			{ type: 'execution', workflowId: 'harness', executionId: 'seed' },
			bytes,
			{
				data: '',
				mimeType,
				...(fileName ? { fileName } : {}),
			},
		);

	it('streams stored files (large, non-ASCII name, no name, zero bytes), one request each, with their bytes intact', async () => {
		const large = Buffer.alloc(5 * 1024 * 1024 + 7);
		for (let i = 0; i < large.length; i++) large[i] = (i * 31) % 251;
		const binary = {
			attachment_0: await stored(large, 'Tegning_bærevegg_ø.pdf', 'application/pdf'),
			attachment_1: await stored(Buffer.from('no name'), undefined, 'application/octet-stream'),
			attachment_2: await stored(Buffer.alloc(0), 'empty.txt', 'text/plain'),
		};
		expect(binary.attachment_0.id).toMatch(/^filesystem/);
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const project = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === sb().clients[0].companyId,
		)!;
		const result = await harness.run(
			fieldOpsWorkflow({
				resource: 'document',
				operation: 'upload',
				project: { __rl: true, mode: 'id', value: project.id },
				binarySource: 'all',
			}),
			{ triggerItems: [{ json: {}, binary }] },
		);
		expect(result.error).toBeUndefined();
		expect(
			(await call(sb().coreUrl, '/__sandbox/stats')).body.requests[
				'POST /api/v4/integration/projects/{id}/documents'
			],
		).toBe(3);
		const files = result.items['Field Ops'].map(
			(item) => (item.json.files as { name: string; size: number; fileReference: { id: string } }[])[0],
		);
		expect(files.map((f) => [f.name, f.size])).toEqual([
			['Tegning_bærevegg_ø.pdf', large.length],
			['attachment_1.bin', 7],
			['empty.txt', 0],
		]);
		const download = await harness.run(
			fieldOpsWorkflow({
				resource: 'document',
				operation: 'download',
				project: { __rl: true, mode: 'id', value: project.id },
				fileReferenceId: files[0].fileReference.id,
			}),
		);
		const downloaded = download.items['Field Ops'][0].binary!.data;
		expect(downloaded.fileName).toBe('Tegning_bærevegg_ø.pdf');
		expect((await harness.binaryBuffer(downloaded)).equals(large)).toBe(true);
	});

	it('explains an upload refused to a non-administrator client', async () => {
		useSandboxCredential(harness, sb(), 'fieldops-user', 'user-credential');
		const project = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === sb().clients[0].companyId,
		)!;
		const result = await harness.run(
			fieldOpsWorkflow(
				{
					resource: 'document',
					operation: 'upload',
					project: { __rl: true, mode: 'id', value: project.id },
					binarySource: 'all',
				},
				{ credentialId: 'user-credential', continueOnFail: true },
			),
			{
				triggerItems: [
					{ json: {}, binary: { data: await stored(Buffer.from('x'), 'x.pdf', 'application/pdf') } },
				],
			},
		);
		const error = result.items['Field Ops'][0].json.error as string;
		expect(error).toMatch(/^"x\.pdf" was not uploaded: No access to this document.*Administrator-level/);
	});
});
