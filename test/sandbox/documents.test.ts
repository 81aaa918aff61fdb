import { call, tokenFor, useSandbox } from '../helpers/sandbox';

describe('sandbox: documents', () => {
	const sb = useSandbox();
	let admin: string;
	const project = () => [...sb().sandbox.world.projects.values()].find((p) => p.companyId === sb().clients[0].companyId)!;
	const task = () => [...sb().sandbox.world.tasks.values()].find((t) => t.projectId === project().id)!;
	const form = (...files: [string, string][]) => {
		const body = new FormData();
		for (const [name, content] of files) body.append('file', new Blob([content], { type: 'application/pdf' }), name);
		return body;
	};

	beforeAll(async () => {
		admin = await tokenFor(sb());
	});

	it('uploads two files in one request to the default page, reuses the page, replaces by name', async () => {
		const first = await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { method: 'POST', token: admin, body: form(['Tegning_bærevegg_ø.pdf', 'A'], ['plan.pdf', 'B']) });
		expect(first.status).toBe(200);
		expect(first.body).toMatchObject({ successful: true, section: 'Documents', files: [{ name: 'Tegning_bærevegg_ø.pdf', size: 1 }, { name: 'plan.pdf' }] });
		const again = await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, {
			method: 'POST',
			token: admin,
			body: form(['plan.pdf', 'B2']),
			query: { replaceExistingFilesWithSameName: true },
		});
		expect(again.body.pageExternalId).toBe(first.body.pageExternalId);
		expect(again.body.infoPageFiles.map((f: { name: string }) => f.name)).toEqual(['Tegning_bærevegg_ø.pdf', 'plan.pdf']);
	});

	it('downloads the raw bytes with the original name; another project answers 404', async () => {
		const pages = (await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { token: admin })).body;
		const file = pages[0].files.find((f: { name: string }) => f.name.startsWith('Tegning'));
		const download = await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents/${file.fileReferenceId}`, { token: admin });
		expect(download.raw.toString()).toBe('A');
		expect(download.headers['content-type']).toBe('application/octet-stream');
		expect(String(download.headers['content-disposition'])).toContain("filename*=UTF-8''Tegning_b%C3%A6revegg_%C3%B8.pdf");
		const other = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === project().companyId && p.id !== project().id)!;
		expect((await call(sb().coreUrl, `/api/v4/integration/projects/${other.id}/documents/${file.fileReferenceId}`, { token: admin })).status).toBe(404);
	});

	it('puts a work-order upload in the project folder under the work order’s section', async () => {
		const res = await call(sb().coreUrl, `/api/v4/integration/tasks/${task().id}/documents`, { method: 'POST', token: admin, body: form(['sja.pdf', 'S']) });
		expect(res.body.section).toBe(task().externalId);
		const projectPages = (await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { token: admin })).body;
		expect(projectPages.map((p: { section: string }) => p.section)).toContain(task().externalId);
	});

	it('refuses a non-administrator client, a body that is not multipart and a broken one', async () => {
		const user = await tokenFor(sb(), 'fieldops-user');
		expect((await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { method: 'POST', token: user, body: form(['x.pdf', 'x']) })).status).toBe(403);
		expect((await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { method: 'POST', token: admin, json: { file: 'x' } })).status).toBe(400);
		const broken = await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, {
			method: 'POST',
			token: admin,
			body: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\nunterminated',
			headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
		});
		expect(broken.status).toBe(400);
	});

	it('deletes a document (204) and it is gone', async () => {
		const pages = (await call(sb().coreUrl, `/api/v4/integration/projects/${project().id}/documents`, { token: admin })).body;
		const file = pages[0].files[0];
		const path = `/api/v4/integration/projects/${project().id}/documents/${file.fileReferenceId}`;
		expect((await call(sb().coreUrl, path, { method: 'DELETE', token: admin })).status).toBe(204);
		expect((await call(sb().coreUrl, path, { token: admin })).status).toBe(404);
	});
});
