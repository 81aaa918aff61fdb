import { PNG } from 'pngjs';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

describe('Field Ops → Lookup', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const projects = () => [...sb().sandbox.world.projects.values()].filter((p) => sb().sandbox.world.canAccessCompany(companyId(), p.companyId));
	const run = async (parameters: Record<string, unknown>) => await harness.run(fieldOpsWorkflow({ resource: 'lookup', ...parameters }));
	const ids = (result: Awaited<ReturnType<typeof run>>) => result.items['Field Ops'].map((i) => i.json.id).sort();

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it.each([
		[0, (active: boolean) => active],
		[1, (active: boolean) => !active],
		[2, () => true],
	])('lists projects by status %s', async (activeInactiveAll, keep) => {
		const result = await run({ operation: 'getProjects', activeInactiveAll, returnAll: true });
		expect(ids(result)).toEqual(projects().filter((p) => keep(p.active)).map((p) => p.id).sort());
	});

	it('searches projects and lists a project’s work orders', async () => {
		const target = projects().find((p) => p.active)!;
		const found = await run({ operation: 'searchProjects', searchString: target.projectNumber, returnAll: true });
		expect(ids(found)).toContain(target.id);
		const workOrders = await run({ operation: 'getProjectWorkOrders', project: { __rl: true, mode: 'projectNumber', value: target.projectNumber }, activeInactiveAll: 2, returnAll: true });
		expect(workOrders.items['Field Ops'].map((i) => i.json.projectId)).toEqual(expect.arrayContaining([target.id]));
	});

	it('reads resource types, a resource and machine types', async () => {
		expect((await run({ operation: 'getResourceTypes' })).items['Field Ops'].map((i) => i.json.resourceType)).toEqual(['machine', 'equipment', 'person']);
		const machine = [...sb().sandbox.world.machines.values()].find((m) => m.companyId === companyId())!;
		expect((await run({ operation: 'getResource', resourceId: machine.id })).items['Field Ops'][0].json).toMatchObject({ resourceNumber: machine.machineNumber });
		expect((await run({ operation: 'getMachineTypes' })).items['Field Ops'].map((i) => i.json.typeId)).toContain('excavator');
	});

	describe('Download File', () => {
		let imageId: string;
		let originalSide: number;
		const side = async (item: { binary?: Record<string, unknown> }) => {
			const png = PNG.sync.read(await harness.binaryBuffer(item.binary!.photo as never));
			return Math.max(png.width, png.height);
		};

		beforeAll(async () => {
			const token = (await call(sb().identityUrl, '/connect/token', {
				method: 'POST',
				body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'fieldops-admin', client_secret: 'sandbox-admin-secret' }).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			})).body.access_token;
			imageId = (await call(sb().reportingUrl, '/v1/images', { token, query: { ChunkLimit: 1 } })).body.data[0].id;
			// The original's size, for the tests of the smaller sizes (the test below checks this download).
			originalSide = await side((await run({ operation: 'downloadFile', fileReferenceId: imageId, maxDimension: '', binaryPropertyName: 'photo' })).items['Field Ops'][0]);
		});

		it('downloads the original image with its name and type into the chosen binary property', async () => {
			const item = (await run({ operation: 'downloadFile', fileReferenceId: imageId, maxDimension: '', binaryPropertyName: 'photo' })).items['Field Ops'][0];
			expect(item.json).toMatchObject({ fileReferenceId: imageId, mimeType: 'image/png', maxDimension: null });
			expect(String(item.json.fileName)).toMatch(/\.png$/i);
			expect((item.binary!.photo as { fileName?: string }).fileName).toBe(item.json.fileName);
			originalSide = await side(item);
			expect(originalSide).toBeGreaterThan(640);
		});

		it.each(['1980', '640', '128'])('downloads the image at MaxDimension %s', async (size) => {
			const item = (await run({ operation: 'downloadFile', fileReferenceId: imageId, maxDimension: size, binaryPropertyName: 'photo' })).items['Field Ops'][0];
			expect(item.json).toMatchObject({ fileReferenceId: imageId, mimeType: 'image/png', maxDimension: size });
			expect(await side(item)).toBe(Math.min(Number(size), originalSide));
		});

		it('names an unknown file ID with path characters in the error (one path segment)', async () => {
			const result = await harness.run(fieldOpsWorkflow({ resource: 'lookup', operation: 'downloadFile', fileReferenceId: 'F/1|%..', binaryPropertyName: 'photo' }, { continueOnFail: true }));
			expect(String(result.items['Field Ops'][0].json.error)).toContain('F/1|%..');
		});
	});
});
