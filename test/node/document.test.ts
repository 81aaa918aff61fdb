import type { IBinaryData, INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { N8nHarness, type WorkflowJson } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { fileBytes, fileStore } from '../sandbox/files';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
/** A binary as n8n's IMAP trigger puts attachments on an item (in-memory mode: base64 data). */
const attachment = (content: string, fileName?: string, mimeType = 'application/pdf'): IBinaryData => ({
	data: Buffer.from(content).toString('base64'),
	mimeType,
	...(fileName ? { fileName, fileExtension: fileName.split('.').pop() } : {}),
});
const UPLOADS = 'POST /api/v4/integration/projects/{id}/documents';

interface FileResult {
	fileName: string;
	binaryPropertyName: string;
	originalFileName?: string;
	successful: boolean;
	files: { name: string; size: number; fileReference: { id: string } }[];
	error?: string;
	/** A failed file: which one, and what to do. */
	details?: { fileName: string; binaryPropertyName: string; description?: string; httpCode?: string };
}

describe('Field Ops → Document', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const project = () =>
		[...sb().sandbox.world.projects.values()].find((p) => p.companyId === sb().clients[0].companyId)!;
	const task = () => [...sb().sandbox.world.tasks.values()].find((t) => t.projectId === project().id)!;
	const uploadsSent = async () =>
		((await call(sb().coreUrl, '/__sandbox/stats')).body.requests[UPLOADS] ?? 0) as number;
	const resetStats = async () => await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	const refuse = async (body: unknown) =>
		await call(sb().coreUrl, '/__sandbox/documents/refusals', { method: 'POST', json: body });
	/** What the sandbox stored under a document id: its name, type and bytes. */
	const stored = (id: string) => {
		const file = fileStore(sb().sandbox.world).get(id)!;
		return { name: file.fileName, type: file.contentType, text: fileBytes(file).toString() };
	};
	const documentNames = () => [...fileStore(sb().sandbox.world).values()].map((file) => file.fileName).sort();
	const upload = (parameters: INodeParameters = {}): INodeParameters => ({
		resource: 'document',
		operation: 'upload',
		project: rl('projectNumber', project().projectNumber),
		...parameters,
	});
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
	const email = (binary: Record<string, IBinaryData>, subject = `[${project().projectNumber}] Tegninger`) => [
		{ json: { subject }, binary },
	];
	const results = (items: INodeExecutionData[]) => items.map((item) => item.json as unknown as FileResult);
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

	afterEach(async () => {
		await call(sb().coreUrl, '/__sandbox/documents/refusals', { method: 'DELETE' });
	});

	it('uploads every file of an e-mail item, each in its own request, one result per file with its own name and type', async () => {
		await resetStats();
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({
				attachment_0: attachment('%PDF-1 bærevegg', 'Tegning_bærevegg_ø.pdf'),
				attachment_1: attachment('PNG bytes', 'Bilde fra tomta.png', 'image/png'),
				attachment_2: attachment('a;b\n1;2', 'mengder.csv', 'text/csv'),
			}),
		);
		expect(result.error).toBeUndefined();
		expect(await uploadsSent()).toBe(3);
		const output = result.items['Field Ops'];
		expect(output.map((item) => item.pairedItem)).toEqual([{ item: 0 }, { item: 0 }, { item: 0 }]);
		const files = results(output);
		expect(files.map((f) => [f.fileName, f.binaryPropertyName, f.successful])).toEqual([
			['Tegning_bærevegg_ø.pdf', 'attachment_0', true],
			['Bilde fra tomta.png', 'attachment_1', true],
			['mengder.csv', 'attachment_2', true],
		]);
		// Each result is the service's answer for that file alone.
		expect(files.map((f) => f.files.map((d) => d.name))).toEqual([
			['Tegning_bærevegg_ø.pdf'],
			['Bilde fra tomta.png'],
			['mengder.csv'],
		]);
		expect(files.map((f) => stored(f.files[0].fileReference.id))).toEqual([
			{ name: 'Tegning_bærevegg_ø.pdf', type: 'application/pdf', text: '%PDF-1 bærevegg' },
			{ name: 'Bilde fra tomta.png', type: 'image/png', text: 'PNG bytes' },
			{ name: 'mengder.csv', type: 'text/csv', text: 'a;b\n1;2' },
		]);
	});

	it('Named Fields uploads only the files named, in that order; node version 1.1 takes every file by default', async () => {
		const binary = {
			attachment_0: attachment('a', 'a.pdf'),
			attachment_1: attachment('b', 'b.pdf'),
			attachment_2: attachment('c', 'c.pdf'),
		};
		const named = await run(
			{ operation: 'upload', binarySource: 'single', binaryPropertyName: 'attachment_2, attachment_0' },
			email(binary),
		);
		expect(results(named.items['Field Ops']).map((f) => f.fileName)).toEqual(['c.pdf', 'a.pdf']);

		const workflow = fieldOpsWorkflow(upload());
		const latest = {
			...workflow,
			nodes: workflow.nodes.map((node) => (node.name === 'Field Ops' ? { ...node, typeVersion: 1.1 } : node)),
		};
		const all = await harness.run(latest, { triggerItems: email(binary) });
		expect(results(all.items['Field Ops']).map((f) => f.fileName)).toEqual(['a.pdf', 'b.pdf', 'c.pdf']);
	});

	it('passes an item without any file as "no attachment": the run stays green and nothing is sent', async () => {
		await resetStats();
		const result = await run({ operation: 'upload', binarySource: 'all' }, [
			{ json: { subject: 'Møte i morgen' } },
			{ json: { subject: 'Tegning' }, binary: { attachment_0: attachment('a', 'a.pdf') } },
			{ json: { subject: 'Tom' }, binary: {} },
		]);
		expect(result.error).toBeUndefined();
		expect(result.status).toBe('success');
		const output = result.items['Field Ops'];
		expect(output.map((item) => [item.pairedItem, item.json.noAttachment ?? item.json.fileName])).toEqual([
			[{ item: 0 }, true],
			[{ item: 1 }, 'a.pdf'],
			[{ item: 2 }, true],
		]);
		expect(output[0].json.message).toMatch(/^No attachment/);
		expect(await uploadsSent()).toBe(1);
		// Named Fields too: an item that carries no file at all has nothing to upload.
		const named = await run({ operation: 'upload', binaryPropertyName: 'attachment_0' }, [{ json: {} }]);
		expect(named.items['Field Ops'][0].json).toMatchObject({ noAttachment: true });
	});

	it('sends only the last segment of a path-like name, and a name made from the property for a file without a usable one', async () => {
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({
				climb: attachment('x', '../../x.pdf'),
				windows: attachment('w', 'C:\\Users\\ola\\plan.pdf'),
				dots: attachment('d', '..'),
				control: attachment('c', 'note\r\n.txt', 'text/plain'),
				nameless: attachment('n', undefined, 'image/png'),
				empty: attachment('', 'empty.txt', 'text/plain'),
			}),
		);
		expect(result.error).toBeUndefined();
		const files = results(result.items['Field Ops']);
		expect(files.map((f) => [f.fileName, f.originalFileName])).toEqual([
			['x.pdf', '../../x.pdf'],
			['plan.pdf', 'C:\\Users\\ola\\plan.pdf'],
			['dots.pdf', '..'],
			['note.txt', 'note\r\n.txt'],
			['nameless.png', undefined],
			['empty.txt', undefined],
		]);
		expect(files.map((f) => f.files[0].size)).toEqual([1, 1, 1, 1, 1, 0]);
		expect(documentNames().filter((name) => /[\\/]|^\.\.?$/.test(name))).toEqual([]);
	});

	it('takes "successful: false" as a failure in the service’s words, saying what of the item was uploaded and what not', async () => {
		await refuse({ nameEndsWith: 'virus.zip', message: 'The file was rejected by the virus scan' });
		await resetStats();
		const before = documentNames();
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({
				attachment_0: attachment('a', 'a.pdf'),
				attachment_1: attachment('PK', 'Tegninger virus.zip', 'application/zip'),
				attachment_2: attachment('c', 'c.pdf'),
			}),
		);
		const error = result.error as Error & { description?: string };
		expect(result.status).toBe('error');
		expect(error.message).toBe(
			'"Tegninger virus.zip" was not uploaded: Field Ops did not accept the file: The file was rejected by the virus scan',
		);
		expect(error.description).toContain('Uploaded before it from this item: "a.pdf".');
		expect(error.description).toContain('Not sent: "c.pdf".');
		expect(await uploadsSent()).toBe(2);
		expect(documentNames()).toEqual([...before, 'a.pdf'].sort());
	});

	it('with Continue On Fail, a refused file becomes an item naming the file and why, and the item’s other files still go', async () => {
		await refuse([
			{ nameEndsWith: '.exe', status: 415, message: 'File type not allowed' },
			{ nameEndsWith: 'modell.ifc', status: 413, message: 'The file is larger than the 100 MB allowed' },
		]);
		const result = await run(
			{ operation: 'upload', binarySource: 'all' },
			email({
				attachment_0: attachment('a', 'a.pdf'),
				attachment_1: attachment('MZ', 'oppsett.exe', 'application/x-msdownload'),
				attachment_2: attachment('IFC', 'Modell.ifc', 'application/octet-stream'),
				attachment_3: attachment('b', 'b.pdf'),
			}),
			true,
		);
		expect(result.status).toBe('success');
		const files = results(result.items['Field Ops']);
		const named = (f: FileResult) => f.details ?? f;
		expect(
			files.map((f) => [named(f).fileName, named(f).binaryPropertyName, f.successful ?? 'failed']),
		).toEqual([
			['a.pdf', 'attachment_0', true],
			['oppsett.exe', 'attachment_1', 'failed'],
			['Modell.ifc', 'attachment_2', 'failed'],
			['b.pdf', 'attachment_3', true],
		]);
		expect(files[1].error).toMatch(/^"oppsett\.exe" was not uploaded: .*File type not allowed/);
		expect(files[2].error).toMatch(/^"Modell\.ifc" was not uploaded: .*larger than the 100 MB allowed/);
		expect(files[1].details).toMatchObject({ httpCode: '415' });
		expect(files[2].details).toMatchObject({
			httpCode: '413',
			description: expect.stringMatching(/smaller file/),
		});
	});

	it('routes a refused file to the error output with the mail’s fields, the uploaded files and "no attachment" to the success output', async () => {
		await refuse({ nameEndsWith: '.exe', status: 415, message: 'File type not allowed' });
		const base = fieldOpsWorkflow(upload({ binarySource: 'all' }));
		const workflow: WorkflowJson = {
			...base,
			nodes: base.nodes.map((node) =>
				node.name === 'Field Ops' ? { ...node, onError: 'continueErrorOutput' as const } : node,
			),
		};
		const result = await harness.run(workflow, {
			triggerItems: [
				...email({
					attachment_0: attachment('a', 'a.pdf'),
					attachment_1: attachment('MZ', 'oppsett.exe', 'application/x-msdownload'),
				}),
				{ json: { subject: 'Takk for møtet', from: 'ola@example.com' } },
			],
		});
		expect(result.status).toBe('success');
		const [success, failure] = result.run.data.resultData.runData['Field Ops'][0].data!.main;
		expect(success!.map((item) => item.json.fileName ?? item.json.message)).toEqual([
			'a.pdf',
			expect.stringMatching(/^No attachment/),
		]);
		expect(failure!).toHaveLength(1);
		expect(failure![0].json).toMatchObject({
			subject: `[${project().projectNumber}] Tegninger`,
			error: expect.stringMatching(/^"oppsett\.exe" was not uploaded: .*File type not allowed/),
			details: { fileName: 'oppsett.exe', binaryPropertyName: 'attachment_1' },
		});
	});

	it('fails every file of an item whose project does not exist, naming each (and stops without Continue On Fail)', async () => {
		await resetStats();
		const binary = { attachment_0: attachment('a', 'a.pdf'), attachment_1: attachment('b', 'b.pdf') };
		const parameters = {
			operation: 'upload',
			binarySource: 'all',
			project: rl('projectNumber', '={{ $json.subject.slice(1, 9) }}'),
		};
		const continued = await run(parameters, email(binary, '[NOPE-404] Tegninger'), true);
		const files = results(continued.items['Field Ops']);
		expect(files.map((f) => f.error)).toEqual([
			expect.stringMatching(/^"a\.pdf" was not uploaded: The project was not found/),
			expect.stringMatching(/^"b\.pdf" was not uploaded: The project was not found/),
		]);
		const stopped = await run(parameters, email(binary, '[NOPE-404] Tegninger'));
		const error = stopped.error as Error & { description?: string };
		expect(error.message).toMatch(/^"a\.pdf" was not uploaded: The project was not found/);
		expect(error.description).toContain('Not sent: "b.pdf".');
		expect(await uploadsSent()).toBe(0);
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

	it('stops at an item without the named file, saying the item before it was uploaded (numbers from 1)', async () => {
		const result = await run(
			{ operation: 'upload', binarySource: 'single', binaryPropertyName: 'attachment_0' },
			[
				{ json: {}, binary: { attachment_0: attachment('rapport', 'rapport.pdf') } },
				{ json: {}, binary: { data: attachment('x', 'x.pdf') } },
			],
		);
		const error = result.error as Error & { description?: string };
		expect(error.message).toBe('The item has no file in "attachment_0" [item 2 (n8n: item 1)]');
		expect(error.description).toMatch(/Its files are in: data\./);
		expect(error.description).toMatch(
			/Item 1 was uploaded before this failure; item 2 and the items after it were not sent\./,
		);
	});

	it('explains a missing attachment field before any request', async () => {
		await resetStats();
		const result = await run(
			{ operation: 'upload', binaryPropertyName: 'attachment_9' },
			email({ attachment_0: attachment('a', 'a.pdf') }),
			true,
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(/no file in "attachment_9"/);
		expect(await uploadsSent()).toBe(0);
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
