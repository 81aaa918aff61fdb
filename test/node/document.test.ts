import type { IBinaryData, INodeExecutionData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
/** A binary as n8n's IMAP trigger puts attachments on an item (in-memory mode: base64 data). */
const attachment = (content: string, fileName?: string, mimeType = 'application/pdf'): IBinaryData => ({
	data: Buffer.from(content).toString('base64'),
	mimeType,
	...(fileName ? { fileName, fileExtension: fileName.split('.').pop() } : {}),
});

describe('Field Ops → Document', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const project = () =>
		[...sb().sandbox.world.projects.values()].find((p) => p.companyId === sb().clients[0].companyId)!;
	const task = () => [...sb().sandbox.world.tasks.values()].find((t) => t.projectId === project().id)!;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	const run = async (
		parameters: Record<string, unknown>,
		items?: INodeExecutionData[],
		continueOnFail = false,
	) =>
		await harness.run(
			fieldOpsWorkflow(
				{ resource: 'document', project: rl('projectNumber', project().projectNumber), ...parameters },
				{ continueOnFail },
			),
			{ triggerItems: items },
		);
	const email = (binary: Record<string, IBinaryData>) => [
		{ json: { subject: `[${project().projectNumber}] Tegninger` }, binary },
	];
	/** A file a test needs on the project's page, uploaded by the test itself. */
	const given = async (content: string, fileName: string) => {
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({ attachment_0: attachment(content, fileName) }),
		);
		if (result.error) throw result.error;
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('uploads every attachment of an e-mail item in one request, names kept (also non-ASCII)', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({
				attachment_0: attachment('%PDF-1 bærevegg', 'Tegning_bærevegg_ø.pdf'),
				attachment_1: attachment('plan', 'plan.pdf'),
			}),
		);
		expect(result.error).toBeUndefined();
		expect((await stats()).requests['POST /api/v4/integration/projects/{id}/documents']).toBe(1);
		const out = result.items['Field Ops'][0].json as { section: string; files: { name: string }[] };
		expect(out.section).toBe('Documents');
		expect(out.files.map((f) => f.name)).toEqual(['Tegning_bærevegg_ø.pdf', 'plan.pdf']);
	});

	it('re-uploads with Replace Existing Files With Same Name without a duplicate on the page', async () => {
		await given('plan', 'plan.pdf');
		const result = await run(
			{
				operation: 'upload',
				binarySource: 'single',
				binaryPropertyName: 'attachment_1',
				options: { replaceExistingFilesWithSameName: true },
			},
			email({ attachment_1: attachment('plan v2', 'plan.pdf') }),
		);
		const names = (result.items['Field Ops'][0].json.infoPageFiles as { name: string }[]).map((f) => f.name);
		expect(names.filter((n) => n === 'plan.pdf')).toHaveLength(1);
	});

	it('stops at an item without its file, saying the item before it was uploaded (numbers from 1, also for n8n’s own check)', async () => {
		const result = await run(
			{ operation: 'upload', binarySource: 'single', binaryPropertyName: 'attachment_0' },
			[
				{ json: {}, binary: { attachment_0: attachment('rapport', 'rapport.pdf') } },
				{ json: {}, binary: {} },
			],
		);
		const error = result.error as Error & { description?: string };
		expect(error.message).toMatch(/ \[item 2 \(n8n: item 1\)\]$/);
		expect(error.message).not.toMatch(/\[item [01]\]/);
		expect(error.description).toMatch(
			/Item 1 was uploaded before this failure; item 2 and the items after it were not sent\./,
		);
	});

	it('sends a name for a file without one, and accepts a zero-byte file', async () => {
		const result = await run({ operation: 'upload', binaryPropertyName: 'data,empty' }, [
			{
				json: {},
				binary: {
					data: attachment('x', undefined, 'application/pdf'),
					empty: attachment('', 'empty.txt', 'text/plain'),
				},
			},
		]);
		const files = result.items['Field Ops'][0].json.files as { name: string; size: number }[];
		expect(files).toEqual([
			expect.objectContaining({ name: 'data.pdf', size: 1 }),
			expect.objectContaining({ name: 'empty.txt', size: 0 }),
		]);
	});

	it('lists the pages, or one item per file, and downloads a file with its name and bytes', async () => {
		await given('%PDF-1 bærevegg', 'Tegning_bærevegg_ø.pdf');
		const pages = await run({ operation: 'list' });
		expect(pages.items['Field Ops'].map((i) => i.json.section)).toContain('Documents');
		const files = await run({ operation: 'list', splitIntoFiles: true });
		const drawing = files.items['Field Ops'].find((i) => i.json.name === 'Tegning_bærevegg_ø.pdf')!;
		const downloaded = await run({
			operation: 'download',
			fileReferenceId: drawing.json.fileReferenceId,
			binaryPropertyName: 'file',
		});
		const item = downloaded.items['Field Ops'][0];
		expect(item.binary?.file.fileName).toBe('Tegning_bærevegg_ø.pdf');
		expect(item.binary?.file.mimeType).toBe('application/pdf');
		expect((await harness.binaryBuffer(item.binary!.file)).toString()).toBe('%PDF-1 bærevegg');
		expect(JSON.stringify(item.json)).not.toContain('JVBER');
	});

	it('uploads to a work order: the file lands in the project folder in the work order’s section', async () => {
		const result = await run(
			{ operation: 'upload', documentTarget: 'workOrder', workOrder: rl('id', task().id) },
			[{ json: {}, binary: { data: attachment('sja', 'sja.pdf') } }],
		);
		// [D5] The default section: the work order's number first, or its short description first (the alt variant).
		const { externalId, workDescriptionShort } = task();
		const section =
			sb().sandbox.world.variant.taskSection === 'numberFirst'
				? externalId || workDescriptionShort
				: workDescriptionShort || externalId;
		expect(result.items['Field Ops'][0].json.section).toBe(section);
		const pages = await run({ operation: 'list' });
		expect(pages.items['Field Ops'].map((i) => i.json.section)).toContain(section);
	});

	it('explains a missing attachment field before any request', async () => {
		const result = await run(
			{ operation: 'upload', binaryPropertyName: 'attachment_9' },
			email({ attachment_0: attachment('a', 'a.pdf') }),
			true,
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(/no file in "attachment_9"/);
	});

	it('explains a non-administrator client and a document of another project', async () => {
		await given('plan', 'plan.pdf');
		useSandboxCredential(harness, sb(), 'fieldops-user', 'user-credential');
		const refused = await harness.run(
			fieldOpsWorkflow(
				{ resource: 'document', operation: 'list', project: rl('id', project().id) },
				{ credentialId: 'user-credential', continueOnFail: true },
			),
		);
		expect(refused.items['Field Ops'][0].json.error).toMatch(/No access.*Administrator-level/);
		const other = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === project().companyId && p.id !== project().id,
		)!;
		const files = await run({ operation: 'list', splitIntoFiles: true });
		const missing = await run(
			{
				operation: 'download',
				project: rl('id', other.id),
				fileReferenceId: files.items['Field Ops'][0].json.fileReferenceId,
			},
			undefined,
			true,
		);
		expect(missing.items['Field Ops'][0].json.error).toMatch(/document was not found/);
	});

	it('deletes a document', async () => {
		await given('plan', 'plan.pdf');
		const files = await run({ operation: 'list', splitIntoFiles: true });
		const target = files.items['Field Ops'].find((i) => i.json.name === 'plan.pdf')!;
		await run({ operation: 'delete', fileReferenceId: target.json.fileReferenceId });
		const after = await run({ operation: 'list', splitIntoFiles: true });
		expect(after.items['Field Ops'].some((i) => i.json.fileReferenceId === target.json.fileReferenceId)).toBe(
			false,
		);
	});
});

describe('example: e-mail attachments → project documents', () => {
	const sb = useSandbox();
	let harness: N8nHarness;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('attaches the mail’s attachments to the project named in the subject', async () => {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const workflow = require('../../examples/email-attachments-to-project-documents.json');
		const project = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === sb().clients[0].companyId,
		)!;
		// Shaped like the IMAP trigger's output with "Download Attachments" on.
		const mail = {
			json: {
				subject: `[${project.projectNumber}] Reviderte tegninger`,
				from: 'arkitekt@example.com',
				textPlain: 'Se vedlegg',
			},
			binary: {
				attachment_0: attachment('%PDF-1 A', 'Tegning A.pdf'),
				attachment_1: attachment('%PDF-1 B', 'Tegning_bærevegg_ø.pdf'),
			},
		};
		const unlabelled = {
			json: { subject: 'Ingen prosjektnummer' },
			binary: { attachment_0: attachment('x', 'x.pdf') },
		};

		const result = await harness.run(workflow, { triggerItems: [mail, unlabelled] });

		const [uploaded, failed] = result.items['Attach to the project'];
		expect(uploaded.json).toMatchObject({ successful: true, section: 'E-post' });
		expect((uploaded.json.files as { name: string }[]).map((f) => f.name)).toEqual([
			'Tegning A.pdf',
			'Tegning_bærevegg_ø.pdf',
		]);
		expect(String(failed.json.error)).toMatch(/empty/);
	});
});
