import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';
import type { Project, Task } from './state';

type Upload = { name: string; content: string | Buffer; type?: string };

/** A form with one `file` part per upload, encoded by Node's own FormData (as n8n and browsers do). */
function form(...files: Upload[]): FormData {
	const body = new FormData();
	for (const { name, content, type } of files)
		body.append('file', new Blob([content], { type: type ?? 'application/pdf' }), name);
	return body;
}

/** A multipart body written by hand, for parts FormData cannot produce (no filename, RFC 5987 names, broken bodies). */
function rawMultipart(
	boundary: string,
	parts: { disposition: string; content: string | Buffer; type?: string }[],
	close = true,
): Buffer {
	const chunks: Buffer[] = [];
	for (const part of parts) {
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: ${part.disposition}\r\n${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
			),
		);
		chunks.push(Buffer.from(part.content));
		chunks.push(Buffer.from('\r\n'));
	}
	if (close) chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return Buffer.concat(chunks);
}

describe('sandbox core: documents', () => {
	const sb = useSandbox();
	let admin: string;
	let project: Project;
	let otherProject: Project;
	let task: Task;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });
	const projectDocs = (id = project.id) => `/api/v4/integration/projects/${encodeURIComponent(id)}/documents`;
	const taskDocs = (id = task.id) => `/api/v4/integration/tasks/${encodeURIComponent(id)}/documents`;
	const upload = (
		path: string,
		body: FormData | Buffer,
		query: Record<string, string | boolean> = {},
		headers: Record<string, string> = {},
	) => api(path, { method: 'POST', body, query, headers });
	const pages = async (path: string) =>
		(await api(path)).body as {
			section: string;
			pageExternalId: string;
			files: { fileReferenceId: string; name: string }[];
		}[];
	/** A page (the default Documents page, or a section's) with a file on it, for a test that needs one. */
	const given = async (section?: string) => {
		const res = await upload(
			projectDocs(),
			form({ name: 'given.pdf', content: 'G' }),
			section ? { section } : {},
		);
		if (res.status !== 200) throw new Error(`Upload for the test failed: ${res.status}`);
	};

	beforeAll(async () => {
		admin = await tokenFor(sb());
		const own = [...sb().sandbox.world.projects.values()].filter((p) => p.companyId === COMPANY_IDS.main);
		[project, otherProject] = own;
		task = [...sb().sandbox.world.tasks.values()].find((t) => t.projectId === project.id)!;
	});

	it('uploads two files in one request to the default Documents page and answers the upload result', async () => {
		const res = await upload(
			projectDocs(),
			form({ name: 'Tegning_bærevegg_ø.pdf', content: 'AB' }, { name: 'plan.PDF', content: 'CDE' }),
		);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			successful: true,
			message: expect.any(String),
			section: 'Documents',
			pageExternalId: expect.any(String),
			files: [
				{
					name: 'Tegning_bærevegg_ø.pdf',
					size: 2,
					url: `/api/file/${res.body.files[0].fileReference.id}`,
					fileReference: {
						id: expect.any(String),
						collectionRef: 'InfoPage',
						fileNameOrig: 'Tegning_bærevegg_ø.pdf',
						fileType: 'pdf',
						fileSize: 2,
						createdDateTime: expect.any(String),
					},
				},
				{
					name: 'plan.PDF',
					size: 3,
					url: expect.any(String),
					fileReference: expect.objectContaining({ fileNameOrig: 'plan.PDF', fileType: 'pdf', fileSize: 3 }),
				},
			],
			infoPageFiles: [
				{ fileReferenceId: res.body.files[0].fileReference.id, name: 'Tegning_bærevegg_ø.pdf' },
				{ fileReferenceId: res.body.files[1].fileReference.id, name: 'plan.PDF' },
			],
		});
		expect(Number.isNaN(Date.parse(res.body.files[0].fileReference.createdDateTime))).toBe(false);
	});

	it('reuses the page of a (project, section) pair; another section gets its own page', async () => {
		await given();
		const first = await upload(projectDocs(), form({ name: 'a.txt', content: 'a' }), {
			section: 'Tegninger',
		});
		const second = await upload(projectDocs(), form({ name: 'b.txt', content: 'b' }), {
			section: 'Tegninger',
		});
		expect(second.body.section).toBe('Tegninger');
		expect(second.body.pageExternalId).toBe(first.body.pageExternalId);
		expect(second.body.infoPageFiles.map((f: { name: string }) => f.name)).toEqual(['a.txt', 'b.txt']);
		const defaultPage = (await pages(projectDocs())).find((p) => p.section === 'Documents')!;
		expect(defaultPage.pageExternalId).not.toBe(first.body.pageExternalId);
		const again = await upload(projectDocs(), form({ name: 'c.txt', content: 'c' }));
		expect(again.body.pageExternalId).toBe(defaultPage.pageExternalId);
		const listed = await pages(projectDocs());
		expect(listed.map((p) => p.section)).toEqual(['Documents', 'Tegninger']);
		expect(listed[1]).toEqual({
			section: 'Tegninger',
			pageExternalId: first.body.pageExternalId,
			files: second.body.infoPageFiles,
		});
	});

	it('replaceExistingFilesWithSameName replaces same-named documents (the old file is gone); without it both stay', async () => {
		const old = await upload(projectDocs(), form({ name: 'rev.pdf', content: 'v1' }), {
			section: 'Revisjoner',
		});
		const kept = await upload(projectDocs(), form({ name: 'rev.pdf', content: 'v2' }), {
			section: 'Revisjoner',
		});
		expect(kept.body.infoPageFiles.map((f: { name: string }) => f.name)).toEqual(['rev.pdf', 'rev.pdf']);
		const replaced = await upload(
			projectDocs(),
			form({ name: 'rev.pdf', content: 'v3' }, { name: 'other.pdf', content: 'o' }),
			{ section: 'Revisjoner', replaceExistingFilesWithSameName: true },
		);
		expect(replaced.body.infoPageFiles).toEqual([
			{ fileReferenceId: replaced.body.files[0].fileReference.id, name: 'rev.pdf' },
			{ fileReferenceId: replaced.body.files[1].fileReference.id, name: 'other.pdf' },
		]);
		for (const gone of [old.body.files[0], kept.body.files[0]]) {
			expect((await api(`${projectDocs()}/${gone.fileReference.id}`)).status).toBe(404);
			expect((await api(gone.url)).status).toBe(404);
		}
		expect((await api(`${projectDocs()}/${replaced.body.files[0].fileReference.id}`)).raw.toString()).toBe(
			'v3',
		);
		expect(
			(
				await upload(projectDocs(), form({ name: 'x.pdf', content: 'x' }), {
					replaceExistingFilesWithSameName: 'perhaps',
				})
			).status,
		).toBe(400);
	});

	it('downloads the raw bytes with octet-stream and the original (non-ASCII) name; the file endpoint serves them too', async () => {
		const bytes = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
		const name = 'Tegning_bærevegg_ø "v2".bin';
		const res = await upload(projectDocs(), form({ name, content: bytes, type: 'application/x-custom' }));
		expect(res.body.files[0].name).toBe(name);
		const id = res.body.files[0].fileReference.id;
		const download = await api(`${projectDocs()}/${id}`);
		expect(download.status).toBe(200);
		expect(download.raw.equals(bytes)).toBe(true);
		expect(download.headers['content-type']).toBe('application/octet-stream');
		expect(download.headers['content-disposition']).toBe(
			`attachment; filename="Tegning_b_revegg__ _v2_.bin"; filename*=UTF-8''Tegning_b%C3%A6revegg_%C3%B8%20%22v2%22.bin`,
		);
		const file = await api(`/api/file/${id}`);
		expect(file.raw.equals(bytes)).toBe(true);
		expect(file.headers['content-type']).toBe('application/x-custom');
	});

	it('accepts a zero-byte file', async () => {
		const res = await upload(projectDocs(), form({ name: 'empty.txt', content: '' }));
		expect(res.status).toBe(200);
		expect(res.body.files[0]).toMatchObject({ name: 'empty.txt', size: 0, fileReference: { fileSize: 0 } });
		const download = await api(`${projectDocs()}/${res.body.files[0].fileReference.id}`);
		expect(download.status).toBe(200);
		expect(download.raw.length).toBe(0);
	});

	it('stores a part without a filename as unnamed-N, bytes intact; decodes RFC 5987 filename*; ignores other parts', async () => {
		const boundary = 'sandbox-boundary-42';
		const binary = Buffer.from([0xff, 0x00, 0xfe, 0x0d, 0x0a, 0x2d, 0x2d]);
		const body = rawMultipart(boundary, [
			{ disposition: 'form-data; name="comment"', content: 'not a file' },
			{ disposition: 'form-data; name="file"', content: binary },
			{
				disposition: `form-data; name="file"; filename="fallback.txt"; filename*=UTF-8''Bj%C3%B8rn%20%C3%85s.txt`,
				content: 'named',
				type: 'text/plain',
			},
			{ disposition: 'form-data; name="file"; filename=""', content: 'empty name' },
		]);
		const res = await upload(
			projectDocs(),
			body,
			{ section: 'Rå' },
			{ 'content-type': `multipart/form-data; boundary="${boundary}"` },
		);
		expect(res.status).toBe(200);
		expect(res.body.files.map((f: { name: string }) => f.name)).toEqual([
			'unnamed-1',
			'Bjørn Ås.txt',
			'unnamed-3',
		]);
		expect((await api(`${projectDocs()}/${res.body.files[0].fileReference.id}`)).raw.equals(binary)).toBe(
			true,
		);
		expect(res.body.files[0].fileReference.fileType).toBe('');
	});

	it('puts a work-order upload in the project folder under the work order’s number by default', async () => {
		await given('Tegninger');
		await given('Revisjoner');
		const res = await upload(taskDocs(), form({ name: 'sja.pdf', content: 'S' }));
		expect(res.status).toBe(200);
		expect(res.body.section).toBe(task.externalId);
		const projectPages = await pages(projectDocs());
		expect(projectPages.find((p) => p.section === task.externalId)?.pageExternalId).toBe(
			res.body.pageExternalId,
		);
		// The work order lists only the pages it uploaded to.
		expect((await pages(taskDocs())).map((p) => p.section)).toEqual([task.externalId]);
		// An explicit section of the work order reuses the project's page of that section.
		const shared = await upload(taskDocs(), form({ name: 'felles.pdf', content: 'F' }), {
			section: 'Tegninger',
		});
		const projectDrawings = projectPages.find((p) => p.section === 'Tegninger')!;
		expect(shared.body.pageExternalId).toBe(projectDrawings.pageExternalId);
		expect((await pages(taskDocs())).map((p) => p.section)).toEqual(['Tegninger', task.externalId]);
		const id = res.body.files[0].fileReference.id;
		expect((await api(`${taskDocs()}/${id}`)).raw.toString()).toBe('S');
		expect((await api(`${projectDocs()}/${id}`)).raw.toString()).toBe('S');
		// A document of a page the work order never used is not on the work order.
		const projectOnly = (await pages(projectDocs())).find((p) => p.section === 'Revisjoner')!.files[0];
		expect((await api(`${taskDocs()}/${projectOnly.fileReferenceId}`)).status).toBe(404);
		// Another work order of the same project does not see it either.
		const sibling = [...sb().sandbox.world.tasks.values()].find(
			(t) => t.projectId === project.id && t.id !== task.id,
		)!;
		expect((await api(`${taskDocs(sibling.id)}/${id}`)).status).toBe(404);
		expect(await pages(taskDocs(sibling.id))).toEqual([]);
	});

	it('answers 404 for a document of another project, an unknown file and an unknown project', async () => {
		await given();
		const file = (await pages(projectDocs()))[0].files[0];
		const other = await api(`${projectDocs(otherProject.id)}/${file.fileReferenceId}`);
		expect(other.status).toBe(404);
		expect(other.body.message).toContain(file.fileReferenceId);
		expect(
			(await api(`${projectDocs(otherProject.id)}/${file.fileReferenceId}`, { method: 'DELETE' })).status,
		).toBe(404);
		expect((await api(`${projectDocs()}/no-such-file`)).status).toBe(404);
		expect((await api(projectDocs('no-such-project'))).status).toBe(404);
		expect((await upload(taskDocs('no-such-task'), form({ name: 'x', content: 'x' }))).status).toBe(404);
		// Still there for its own project.
		expect((await api(`${projectDocs()}/${file.fileReferenceId}`)).status).toBe(200);
	});

	it('deletes a document with 204: gone from the page, the download and the file endpoint', async () => {
		const res = await upload(projectDocs(), form({ name: 'slett.pdf', content: 'D' }), { section: 'Slett' });
		const id = res.body.files[0].fileReference.id;
		expect((await api(`${projectDocs()}/${id}`, { method: 'DELETE' })).status).toBe(204);
		expect((await pages(projectDocs())).find((p) => p.section === 'Slett')?.files).toEqual([]);
		expect((await api(`${projectDocs()}/${id}`)).status).toBe(404);
		expect((await api(`/api/file/${id}`)).status).toBe(404);
		expect((await api(`${projectDocs()}/${id}`, { method: 'DELETE' })).status).toBe(404);
		const viaTask = await upload(taskDocs(), form({ name: 't.pdf', content: 'T' }));
		expect(
			(await api(`${taskDocs()}/${viaTask.body.files[0].fileReference.id}`, { method: 'DELETE' })).status,
		).toBe(204);
	});

	it('refuses a non-administrator client (403) on every document route', async () => {
		await given();
		const user = await tokenFor(sb(), 'fieldops-user');
		const file = (await pages(projectDocs()))[0].files[0];
		const asUser = (path: string, options: Parameters<typeof call>[2] = {}) =>
			call(sb().coreUrl, path, { token: user, ...options });
		const refused = await asUser(projectDocs(), {
			method: 'POST',
			body: form({ name: 'x.pdf', content: 'x' }),
		});
		expect(refused.status).toBe(403);
		expect(refused.body.message).toContain('Administrator');
		expect((await asUser(projectDocs())).status).toBe(403);
		expect((await asUser(taskDocs())).status).toBe(403);
		expect((await asUser(`${projectDocs()}/${file.fileReferenceId}`)).status).toBe(403);
		expect((await asUser(`${projectDocs()}/${file.fileReferenceId}`, { method: 'DELETE' })).status).toBe(403);
		expect((await api(`${projectDocs()}/${file.fileReferenceId}`)).status).toBe(200);
	});

	it('refuses another company’s project and work order (403); a subsidiary’s is the parent’s to use', async () => {
		const foreignProject = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.other,
		)!;
		const foreignTask = [...sb().sandbox.world.tasks.values()].find(
			(t) => t.companyId === COMPANY_IDS.other,
		)!;
		expect((await upload(projectDocs(foreignProject.id), form({ name: 'x.pdf', content: 'x' }))).status).toBe(
			403,
		);
		expect((await api(taskDocs(foreignTask.id))).status).toBe(403);
		const subsidiaryProject = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.subsidiary,
		)!;
		expect(
			(await upload(projectDocs(subsidiaryProject.id), form({ name: 'x.pdf', content: 'x' }))).status,
		).toBe(200);
		// The other company's administrator cannot read this company's documents either.
		const other = await tokenFor(sb(), 'fieldops-other');
		expect((await call(sb().coreUrl, projectDocs(), { token: other })).status).toBe(403);
	});

	it('refuses bodies that are not a well-formed multipart upload with 400, storing nothing', async () => {
		const before = (await pages(projectDocs())).flatMap((p) => p.files).length;
		const cases: [string, string | Buffer, string][] = [
			['JSON', JSON.stringify({ file: 'x' }), 'application/json'],
			[
				'no boundary',
				rawMultipart('b', [{ disposition: 'form-data; name="file"; filename="a.pdf"', content: 'x' }]),
				'multipart/form-data',
			],
			[
				'unterminated',
				'--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nunterminated',
				'multipart/form-data; boundary=xyz',
			],
			[
				'no close delimiter',
				rawMultipart(
					'xyz',
					[{ disposition: 'form-data; name="file"; filename="a.pdf"', content: 'x' }],
					false,
				),
				'multipart/form-data; boundary=xyz',
			],
			[
				'wrong boundary',
				rawMultipart('abc', [{ disposition: 'form-data; name="file"; filename="a.pdf"', content: 'x' }]),
				'multipart/form-data; boundary=xyz',
			],
			[
				'no headers end',
				'--xyz\r\nContent-Disposition: form-data; name="file"',
				'multipart/form-data; boundary=xyz',
			],
			[
				'no Content-Disposition',
				'--xyz\r\nContent-Type: text/plain\r\n\r\nx\r\n--xyz--\r\n',
				'multipart/form-data; boundary=xyz',
			],
			[
				'no file part',
				rawMultipart('xyz', [
					{ disposition: 'form-data; name="attachment"; filename="a.pdf"', content: 'x' },
				]),
				'multipart/form-data; boundary=xyz',
			],
			['empty body', '', 'multipart/form-data; boundary=xyz'],
		];
		for (const [what, body, contentType] of cases) {
			const res = await api(projectDocs(), {
				method: 'POST',
				body,
				headers: { 'content-type': contentType },
			});
			expect([what, res.status]).toEqual([what, 400]);
			expect(res.body.errors[0].field).toBe('file');
		}
		expect((await pages(projectDocs())).flatMap((p) => p.files)).toHaveLength(before);
		expect(
			(await upload(projectDocs(), form({ name: 'x', content: 'x' }), { section: 'S'.repeat(300) })).status,
		).toBe(400);
	});
	it('refuses files by name only when a test asks (fault injection): an error status, or successful: false; stores nothing', async () => {
		const refuse = (body: unknown) =>
			call(sb().coreUrl, '/__sandbox/documents/refusals', { method: 'POST', json: body });
		expect(
			(await refuse({ nameEndsWith: '.EXE', status: 415, message: 'File type not allowed' })).status,
		).toBe(200);
		expect(
			(await refuse([{ nameEndsWith: 'virus.zip', message: 'The file was rejected by the virus scan' }]))
				.status,
		).toBe(200);
		expect((await refuse({ nameEndsWith: '', message: 'x' })).status).toBe(400);
		const before = (await pages(projectDocs())).flatMap((p) => p.files).length;

		const typed = await upload(
			projectDocs(),
			form({ name: 'ok.pdf', content: 'x' }, { name: 'setup.exe', content: 'MZ' }),
		);
		expect(typed.status).toBe(415);
		expect(JSON.stringify(typed.body)).toContain('File type not allowed');
		const scanned = await upload(projectDocs(), form({ name: 'Tegninger virus.zip', content: 'PK' }));
		expect(scanned.status).toBe(200);
		expect(scanned.body).toMatchObject({
			successful: false,
			message: 'The file was rejected by the virus scan',
			files: [],
		});
		expect((await pages(projectDocs())).flatMap((p) => p.files)).toHaveLength(before);

		expect((await upload(projectDocs(), form({ name: 'setup.exe.pdf', content: 'x' }))).status).toBe(200);
		await call(sb().coreUrl, '/__sandbox/documents/refusals', { method: 'DELETE' });
		expect((await upload(projectDocs(), form({ name: 'setup.exe', content: 'MZ' }))).status).toBe(200);
	});
});
