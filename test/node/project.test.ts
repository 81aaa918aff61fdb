import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { inListScope } from '../sandbox/core/projects';

const byNumber = (value: string) => ({ __rl: true, mode: 'projectNumber', value });
const byId = (value: string) => ({ __rl: true, mode: 'id', value });

describe('Field Ops → Project', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const projects = () => [...sb().sandbox.world.projects.values()];
	const run = async (parameters: Record<string, unknown>, continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow({ resource: 'project', ...parameters }, { continueOnFail }));
	/** The project the first test creates, for the tests that change it: each test starts from the seed. */
	const createBryggenKai = async () => {
		const result = await run({
			operation: 'create',
			companyId: companyId(),
			projectNumber: 'N8N-1',
			additionalFields: { name: 'Bryggen kai', active: true, estimatedHourQty: 1200, description: 'Kai' },
		});
		if (result.error) throw result.error;
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});

	it('creates a project with its additional fields', async () => {
		const result = await run({
			operation: 'create',
			companyId: companyId(),
			projectNumber: 'N8N-1',
			additionalFields: {
				name: 'Bryggen kai',
				active: true,
				estimatedHourQty: 1200,
				workBreakLunchStartTime: '11:30',
			},
		});

		expect(result.error).toBeUndefined();
		const created = projects().find((p) => p.projectNumber === 'N8N-1');
		expect(created).toMatchObject({
			name: 'Bryggen kai',
			active: true,
			estimatedHourQty: 1200,
			workBreakLunchStartTime: '11:30',
		});
		expect(result.items['Field Ops'][0].json).toMatchObject({ id: created?.id, projectNumber: 'N8N-1' });
	});

	it('creates a project in the credential’s own company when Company is left empty', async () => {
		// The own company is read from the project list, which may show the subsidiaries' projects too (C5), in
		// any order: here the own company's come last.
		const { projects: all } = sb().sandbox.world;
		for (const own of [...all.values()].filter((p) => p.companyId === companyId())) {
			all.delete(own.id);
			all.set(own.id, own);
		}
		const result = await run({ operation: 'create', projectNumber: 'N8N-OWN' });
		expect(result.error).toBeUndefined();
		expect(projects().find((p) => p.projectNumber === 'N8N-OWN')?.companyId).toBe(companyId());
	});

	it('gets a project by project number and by ID', async () => {
		const project = projects().find((p) => p.companyId === companyId()) as {
			id: string;
			projectNumber: string;
		};
		const viaNumber = await run({ operation: 'get', project: byNumber(project.projectNumber) });
		const viaId = await run({ operation: 'get', project: byId(project.id) });
		expect(viaNumber.items['Field Ops'][0].json.id).toBe(project.id);
		expect(viaId.items['Field Ops'][0].json.projectNumber).toBe(project.projectNumber);
	});

	it('lists the projects of the company, honouring Limit', async () => {
		const all = await run({ operation: 'getAll', returnAll: true });
		// [C5] "of the company": the caller's own company, or its whole structure (the alt variant).
		const own = projects().filter((p) => inListScope(sb().sandbox.world, companyId(), p.companyId));
		expect(all.items['Field Ops'].map((i) => i.json.id).sort()).toEqual(own.map((p) => p.id).sort());
		const limited = await run({ operation: 'getAll', returnAll: false, limit: 2 });
		expect(limited.items['Field Ops']).toHaveLength(2);
	});

	it('updates only the fields given', async () => {
		await createBryggenKai();
		const project = projects().find((p) => p.projectNumber === 'N8N-1');
		await run({ operation: 'update', project: byNumber('N8N-1'), updateFields: { description: 'Ny kai' } });
		expect(sb().sandbox.world.projects.get(project!.id)).toMatchObject({
			description: 'Ny kai',
			name: 'Bryggen kai',
			estimatedHourQty: 1200,
		});
	});

	it('updates the required fields too: Project Number and Company ID', async () => {
		await createBryggenKai();
		const project = projects().find((p) => p.projectNumber === 'N8N-1')!;
		const subsidiary = projects().find(
			(p) => p.companyId !== companyId() && sb().sandbox.world.canAccessCompany(companyId(), p.companyId),
		)!.companyId;
		const result = await run({
			operation: 'update',
			project: byId(project.id),
			updateFields: { projectNumber: 'N8N-2', companyId: subsidiary },
		});
		expect(result.error).toBeUndefined();
		expect(sb().sandbox.world.projects.get(project.id)).toMatchObject({
			projectNumber: 'N8N-2',
			companyId: subsidiary,
			name: 'Bryggen kai',
		});
	});

	it('replaces a project: fields not sent are reset', async () => {
		await createBryggenKai();
		const project = projects().find((p) => p.projectNumber === 'N8N-1');
		await run({
			operation: 'replace',
			project: byId(project!.id),
			companyId: companyId(),
			projectNumber: 'N8N-1',
			additionalFields: { name: 'Bryggen' },
		});
		const replaced = sb().sandbox.world.projects.get(project!.id);
		expect(replaced?.name).toBe('Bryggen');
		expect(replaced?.description ?? null).toBeNull();
		expect(replaced?.active).toBe(false);
	});

	it('explains a missing project in plain words, naming what was looked for', async () => {
		const result = await run({ operation: 'get', project: byNumber('NO/SUCH|%..') }, true);
		const error = result.items['Field Ops'][0].json.error as string;
		expect(error).toMatch(/project was not found/i);
		expect(error).toContain('NO/SUCH|%..');
	});

	it('deletes a project', async () => {
		await createBryggenKai();
		const project = projects().find((p) => p.projectNumber === 'N8N-1');
		const result = await run({ operation: 'delete', project: byId(project!.id) });
		expect(result.error).toBeUndefined();
		expect(sb().sandbox.world.projects.has(project!.id)).toBe(false);
	});
});

describe('Field Ops → Project: bad input', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('refuses an invalid date before any request, naming the field', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await harness.run(
			fieldOpsWorkflow(
				{
					resource: 'project',
					operation: 'create',
					companyId: sb().clients[0].companyId,
					projectNumber: 'D-1',
					additionalFields: { startDate: 'next Tuesday' },
				},
				{ continueOnFail: true },
			),
		);
		expect(result.items['Field Ops'][0].json.error).toMatch(/Start Date is not a valid date: "next Tuesday"/);
		expect((await stats()).requests['POST /api/v4/integration/projects']).toBeUndefined();
	});

	it('explains a missing required value and a duplicate number, naming the field', async () => {
		const companyId = sb().clients[0].companyId;
		// n8n itself refuses to run a node whose required parameter is empty: nothing is sent.
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		await expect(
			harness.run(
				fieldOpsWorkflow({ resource: 'project', operation: 'create', companyId, projectNumber: '' }),
			),
		).rejects.toThrow(/Parameter "Project Number" is required/);
		expect((await stats()).requests['POST /api/v4/integration/projects']).toBeUndefined();
		const taken = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === companyId,
		)!.projectNumber;
		const duplicate = await harness.run(
			fieldOpsWorkflow(
				{ resource: 'project', operation: 'create', companyId, projectNumber: taken },
				{ continueOnFail: true },
			),
		);
		expect(duplicate.items['Field Ops'][0].json.error).toMatch(/Project Number P\d+ is already used/);
	});
});
