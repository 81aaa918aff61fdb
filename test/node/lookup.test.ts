import { PNG } from 'pngjs';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

describe('Field Ops → Lookup', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const projects = () =>
		[...sb().sandbox.world.projects.values()].filter((p) =>
			sb().sandbox.world.canAccessCompany(companyId(), p.companyId),
		);
	const run = async (parameters: Record<string, unknown>) =>
		await harness.run(fieldOpsWorkflow({ resource: 'lookup', ...parameters }));
	/** The lookup answers pass through: their ID field is `id`, or under another plausible name (assumptions L1). */
	const ids = (result: Awaited<ReturnType<typeof run>>) =>
		result.items['Field Ops'].map((i) => i.json.id ?? i.json.projectId).sort();
	/** What the sandbox itself answers, for the pass-through answers whose field names the spec does not show. */
	const served = async (path: string) => (await call(sb().coreUrl, path, { token: await token() })).body;
	const token = async (scope = 'serviceapiv3') =>
		(
			await call(sb().identityUrl, '/connect/token', {
				method: 'POST',
				body: new URLSearchParams({
					grant_type: 'client_credentials',
					client_id: 'fieldops-admin',
					client_secret: 'sandbox-admin-secret',
					scope,
				}).toString(),
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			})
		).body.access_token as string;

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
		expect(ids(result)).toEqual(
			projects()
				.filter((p) => keep(p.active))
				.map((p) => p.id)
				.sort(),
		);
	});

	it('searches projects and lists a project’s work orders', async () => {
		const target = projects().find((p) => p.active)!;
		const found = await run({
			operation: 'searchProjects',
			searchString: target.projectNumber,
			returnAll: true,
		});
		expect(ids(found)).toContain(target.id);
		const workOrders = await run({
			operation: 'getProjectWorkOrders',
			project: { __rl: true, mode: 'projectNumber', value: target.projectNumber },
			activeInactiveAll: 2,
			returnAll: true,
		});
		const ofTarget = [...sb().sandbox.world.tasks.values()].filter(
			(t) => t.projectId === target.id && !t.isTemplate,
		);
		expect(workOrders.items['Field Ops'].map((i) => i.json.projectId)).toEqual(ofTarget.map(() => target.id));
		expect(workOrders.items['Field Ops'].map((i) => i.json.id ?? i.json.taskId).sort()).toEqual(
			ofTarget.map((t) => t.id).sort(),
		);
	});

	it('reads resource types, a resource and machine types', async () => {
		// Types are objects, or bare names (assumptions L1): a bare name becomes an item {result}.
		const types = (await served('/api/resources/types')) as unknown[];
		expect(types).toHaveLength(3);
		expect((await run({ operation: 'getResourceTypes' })).items['Field Ops'].map((i) => i.json)).toEqual(
			types.map((t) => (typeof t === 'object' ? t : { result: t })),
		);
		const machine = [...sb().sandbox.world.machines.values()].find((m) => m.companyId === companyId())!;
		const resource = (await run({ operation: 'getResource', resourceId: machine.id })).items['Field Ops'][0]
			.json;
		expect(resource).toEqual(await served(`/api/resources/details/${machine.id}`));
		expect(resource.resourceNumber ?? resource.number).toBe(machine.machineNumber);
		expect(
			(await run({ operation: 'getMachineTypes' })).items['Field Ops'].map((i) => i.json.typeId),
		).toContain('excavator');
	});

	describe('Download File', () => {
		let imageId: string;
		let originalSide: number;
		const side = async (item: { binary?: Record<string, unknown> }) => {
			const png = PNG.sync.read(await harness.binaryBuffer(item.binary!.photo as never));
			return Math.max(png.width, png.height);
		};

		beforeAll(async () => {
			const image = (
				await call(sb().reportingUrl, '/v1/images', {
					token: await token('reportingapiv1'),
					query: { ChunkLimit: 1 },
				})
			).body.data[0];
			// The file's reference ID as the image's URL names it: the row's own id may differ (assumptions R16).
			imageId = decodeURIComponent(/\/api\/file\/([^/?]+)/.exec(image.downloadUrl)![1]);
			// The original's size, for the tests of the smaller sizes (the test below checks this download).
			originalSide = await side(
				(
					await run({
						operation: 'downloadFile',
						fileReferenceId: imageId,
						maxDimension: '',
						binaryPropertyName: 'photo',
					})
				).items['Field Ops'][0],
			);
		});

		it('downloads the original image with its name and type into the chosen binary property', async () => {
			const item = (
				await run({
					operation: 'downloadFile',
					fileReferenceId: imageId,
					maxDimension: '',
					binaryPropertyName: 'photo',
				})
			).items['Field Ops'][0];
			expect(item.json).toMatchObject({
				fileReferenceId: imageId,
				mimeType: 'image/png',
				maxDimension: null,
			});
			expect(String(item.json.fileName)).toMatch(/\.png$/i);
			expect((item.binary!.photo as { fileName?: string }).fileName).toBe(item.json.fileName);
			originalSide = await side(item);
			expect(originalSide).toBeGreaterThan(640);
		});

		it.each(['1980', '640', '128'])('downloads the image at MaxDimension %s', async (size) => {
			const item = (
				await run({
					operation: 'downloadFile',
					fileReferenceId: imageId,
					maxDimension: size,
					binaryPropertyName: 'photo',
				})
			).items['Field Ops'][0];
			expect(item.json).toMatchObject({
				fileReferenceId: imageId,
				mimeType: 'image/png',
				maxDimension: size,
			});
			expect(await side(item)).toBe(Math.min(Number(size), originalSide));
		});

		it('names an unknown file ID with path characters in the error (one path segment)', async () => {
			const result = await harness.run(
				fieldOpsWorkflow(
					{
						resource: 'lookup',
						operation: 'downloadFile',
						fileReferenceId: 'F/1|%..',
						binaryPropertyName: 'photo',
					},
					{ continueOnFail: true },
				),
			);
			expect(String(result.items['Field Ops'][0].json.error)).toContain('F/1|%..');
		});
	});
});
