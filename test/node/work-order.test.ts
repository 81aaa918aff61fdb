import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

describe('Field Ops → Work Order', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const project = () =>
		[...sb().sandbox.world.projects.values()].find((p) => p.companyId === companyId() && p.active)!;
	const tasks = () => [...sb().sandbox.world.tasks.values()];
	const run = async (parameters: Record<string, unknown>, continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow({ resource: 'workOrder', ...parameters }, { continueOnFail }));
	/** EXT-1 as the first test creates it, for the tests that read or change it. */
	const givenExt1 = async () => {
		const result = await run({
			operation: 'create',
			project: rl('projectNumber', project().projectNumber),
			externalId: 'EXT-1',
			name: 'Grøftegraving',
			additionalFields: { price: 1500 },
		});
		if (result.error) throw result.error;
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	// Each test starts from the seed and the same template.
	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/template', {
			method: 'POST',
			json: {
				projectId: project().id,
				fields: {
					costPrice: 950,
					price: 1400,
					safeJobAnalysisApprovalRequired: true,
					unitId: 'm3',
					name: 'Mal',
				},
			},
		});
	});

	it('creates a work order in a project given by number, inheriting the template’s settings but not its name', async () => {
		const result = await run({
			operation: 'create',
			project: rl('projectNumber', project().projectNumber),
			externalId: 'EXT-1',
			name: 'Grøftegraving',
			additionalFields: { price: 1500 },
		});

		expect(result.error).toBeUndefined();
		const created = tasks().find((t) => t.externalId === 'EXT-1');
		expect(created).toMatchObject({
			projectId: project().id,
			name: 'Grøftegraving',
			price: 1500,
			costPrice: 950,
			safeJobAnalysisApprovalRequired: true,
			unitId: 'm3',
			isTemplate: false,
		});
	});

	it('gets it by external ID within the project, and lists the project’s work orders without the template', async () => {
		await givenExt1();
		const one = await run({
			operation: 'get',
			project: rl('id', project().id),
			workOrder: rl('externalId', 'EXT-1'),
		});
		expect(one.items['Field Ops'][0].json.externalId).toBe('EXT-1');

		const many = await run({ operation: 'getAll', project: rl('id', project().id), returnAll: true });
		const expected = tasks()
			.filter((t) => t.projectId === project().id && !t.isTemplate)
			.map((t) => t.id)
			.sort();
		expect(many.items['Field Ops'].map((i) => i.json.id).sort()).toEqual(expected);
	});

	it('updates only the given fields, and Replace resets what it does not send (no template)', async () => {
		await givenExt1();
		const id = tasks().find((t) => t.externalId === 'EXT-1')!.id;
		await run({
			operation: 'update',
			project: rl('id', project().id),
			workOrder: rl('id', id),
			updateFields: { workDescriptionShort: 'Grøft langs veien' },
		});
		expect(sb().sandbox.world.tasks.get(id)).toMatchObject({
			workDescriptionShort: 'Grøft langs veien',
			costPrice: 950,
		});

		await run({
			operation: 'replace',
			project: rl('id', project().id),
			workOrder: rl('id', id),
			externalId: 'EXT-1',
			name: 'Grøft',
		});
		expect(sb().sandbox.world.tasks.get(id)).toMatchObject({
			name: 'Grøft',
			costPrice: 0,
			safeJobAnalysisApprovalRequired: false,
		});
		expect(sb().sandbox.world.tasks.get(id)?.unitId).toBeUndefined();
	});

	it('Update changes the fields a PATCH may change, the required ones too: External ID, and the project', async () => {
		await givenExt1();
		const id = tasks().find((t) => t.externalId === 'EXT-1')!.id;
		const other = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === companyId() && p.id !== project().id,
		)!;
		const result = await run({
			operation: 'update',
			project: rl('id', project().id),
			workOrder: rl('id', id),
			updateFields: { externalId: 'EXT-1B', projectId: other.id, companyId: other.companyId },
		});
		expect(result.error).toBeUndefined();
		expect(sb().sandbox.world.tasks.get(id)).toMatchObject({
			externalId: 'EXT-1B',
			projectId: other.id,
			companyId: other.companyId,
		});
	});

	it('nests a work order under a parent work order of the same project, with dates sent as ISO 8601', async () => {
		const base = { operation: 'create', project: rl('id', project().id) };
		const parent = await run({
			...base,
			externalId: 'PARENT-1',
			name: 'Etappe 1',
			additionalFields: { isParent: true },
		});
		const parentId = parent.items['Field Ops'][0].json.id as string;
		expect(sb().sandbox.world.tasks.get(parentId)).toMatchObject({ isParent: true });

		await run({
			...base,
			externalId: 'CHILD-1',
			name: 'Grøft 1',
			additionalFields: {
				parentActivityId: parentId,
				startDate: '2026-12-01T07:00:00',
				estimatedHourQty: 37.5,
			},
		});
		const child = tasks().find((t) => t.externalId === 'CHILD-1')!;
		expect(child).toMatchObject({ parentActivityId: parentId, estimatedHourQty: 37.5 });
		expect(String(child.startDate)).toMatch(/^2026-12-01T07:00/);
	});

	it('refuses a duplicate external ID with a message naming the field', async () => {
		await givenExt1();
		const result = await run(
			{ operation: 'create', project: rl('id', project().id), externalId: 'EXT-1', name: 'Igjen' },
			true,
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(/External ID EXT-1 is already used/);
	});

	it('finds work orders by production code', async () => {
		const code = tasks().find((t) => t.companyId === companyId() && t.externalDim01)!.externalDim01 as string;
		const result = await run({ operation: 'getByProductionCode', productionCode: code, returnAll: true });
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		expect(result.items['Field Ops'].every((i) => i.json.externalDim01 === code)).toBe(true);
	});

	it('finds work orders by project number + work order number, and by the external project number', async () => {
		await givenExt1();
		const { projectNumber, externalProjectNumber } = project();
		// [W1] The work order's number: its external ID, or a number the service assigned (the alt variant).
		const ext1 = tasks().find((t) => t.externalId === 'EXT-1')!;
		const workOrderNumber =
			sb().sandbox.world.variant.taskNumber === 'externalId' ? ext1.externalId : String(ext1.taskNumber);
		const one = await run({ operation: 'getByNumber', projectNumber, workOrderNumber });
		expect(one.items['Field Ops'].map((i) => i.json.externalId)).toEqual(['EXT-1']);
		const list = await run({ operation: 'getAllByNumber', projectNumber, workOrderNumber, returnAll: true });
		expect(list.items['Field Ops'].map((i) => i.json.externalId)).toEqual(['EXT-1']);
		const missing = await run({ operation: 'getByNumber', projectNumber, workOrderNumber: 'W/1|%..' }, true);
		expect(String(missing.items['Field Ops'][0].json.error)).toContain('W/1|%..');

		const all = await run({
			operation: 'getAllByExternalProjectNumber',
			externalProjectNumber,
			returnAll: true,
		});
		expect(all.items['Field Ops'].map((i) => i.json.id)).toContain(
			tasks().find((t) => t.externalId === 'EXT-1')!.id,
		);
		expect(all.items['Field Ops'].every((i) => i.json.projectId === project().id)).toBe(true);
		const byExternal = await run({
			operation: 'getByExternalProjectNumber',
			externalProjectNumber,
			workOrderExternalId: 'EXT-1',
		});
		expect(byExternal.items['Field Ops'][0].json).toMatchObject({
			externalId: 'EXT-1',
			projectId: project().id,
		});
	});

	it('deletes a work order', async () => {
		await givenExt1();
		const id = tasks().find((t) => t.externalId === 'EXT-1')!.id;
		await run({ operation: 'delete', project: rl('id', project().id), workOrder: rl('id', id) });
		expect(sb().sandbox.world.tasks.has(id)).toBe(false);
	});
});
