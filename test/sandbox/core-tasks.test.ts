import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { INHERITED_SETTINGS } from './core/tasks';
import { COMPANY_IDS } from './seed';

const TASKS = '/api/v4/integration/tasks';
const PROJECTS = '/api/v4/integration/projects';

/** Rule 3: a non-default template value per inherited setting, and another value a request sends instead. */
const TEMPLATE_VALUES: Record<(typeof INHERITED_SETTINGS)[number], [unknown, unknown]> = {
	textRequired: [true, false],
	safeJobAnalysisApprovalRequired: [true, false],
	safeJobAnalysisUserPromptText: ['Husk sikker jobbanalyse', 'Annen tekst'],
	unitId: ['m3', 'tonn'],
	measureUnitQty: [true, false],
	summationType: [2, 3],
	fixedResourcePrice: [150, 10],
	costPrice: [420.5, 20],
	price: [990, 30],
	doubleRegistration: [true, false],
	massHaulDefaults: [{ fromLocation: 'Massetak A', massType: 'Sprengstein' }, { fromLocation: 'Massetak B' }],
	unitQtyReportLevel: [1, 2],
	taskType: ['Produksjon', 'Regi'],
	externalDim02: ['K-77', 'K-88'],
};

/** Rule 4: fields a template may carry that a create never takes from it. */
const REQUEST_ONLY = {
	name: 'Malnavn',
	chapterId: 'KAP-1',
	startDate: '2026-01-01',
	finishedDatePlanned: '2026-02-01',
	finishedDate: '2026-03-01',
	estimatedHourQty: 99,
	workDescription: 'Mal',
};

describe('sandbox core: work orders', () => {
	const sb = useSandbox();
	let admin: string;
	let projectId: string;
	let plainProjectId: string;
	let templateId: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });
	const createTask = (fields: Record<string, unknown>, project = projectId) =>
		api(TASKS, { method: 'POST', json: { companyId: COMPANY_IDS.main, projectId: project, ...fields } });
	const setTemplate = (fields: Record<string, unknown>, project = projectId) =>
		call(sb().coreUrl, '/__sandbox/template', { method: 'POST', json: { projectId: project, fields } });

	beforeAll(async () => {
		admin = await tokenFor(sb());
		const project = await api(PROJECTS, {
			method: 'POST',
			json: {
				companyId: COMPANY_IDS.main,
				projectNumber: 'WO-1',
				externalProjectNumber: 'ERP-WO-1',
				active: true,
			},
		});
		projectId = project.body.id;
		plainProjectId = (
			await api(PROJECTS, { method: 'POST', json: { companyId: COMPANY_IDS.main, projectNumber: 'WO-2' } })
		).body.id;
		const template = await setTemplate({
			...Object.fromEntries(Object.entries(TEMPLATE_VALUES).map(([field, [value]]) => [field, value])),
			...REQUEST_ONLY,
		});
		expect(template.status).toBe(200);
		expect(template.body).toMatchObject({
			isTemplate: true,
			projectId,
			companyId: COMPANY_IDS.main,
			costPrice: 420.5,
		});
		templateId = template.body.id;
	});

	describe('template inheritance', () => {
		it.each(INHERITED_SETTINGS.map((field) => [field]))(
			'rule 2/3: an omitted %s is copied from the template',
			async (field) => {
				const res = await createTask({ externalId: `OMIT-${field}` });
				expect(res.status).toBe(200);
				expect(res.body[field]).toEqual(TEMPLATE_VALUES[field][0]);
			},
		);

		it.each(INHERITED_SETTINGS.map((field) => [field]))(
			'rule 2: a %s in the request wins over the template',
			async (field) => {
				const res = await createTask({ externalId: `SENT-${field}`, [field]: TEMPLATE_VALUES[field][1] });
				expect(res.status).toBe(200);
				expect(res.body[field]).toEqual(TEMPLATE_VALUES[field][1]);
				// The other settings are still inherited.
				const other = INHERITED_SETTINGS.find((f) => f !== field)!;
				expect(res.body[other]).toEqual(TEMPLATE_VALUES[other][0]);
			},
		);

		it('rule 2: an explicit null in the request wins too', async () => {
			const res = await createTask({ externalId: 'NULL-1', unitId: null, costPrice: null });
			expect(res.body).toMatchObject({ unitId: null, costPrice: null, price: 990 });
		});

		it.each(Object.entries(REQUEST_ONLY))('rule 4: %s never comes from the template', async (field) => {
			const omitted = await createTask({ externalId: `R4-${field}` });
			expect(omitted.body[field] ?? null).toBeNull();
			const sent = await createTask({
				externalId: `R4S-${field}`,
				[field]: REQUEST_ONLY[field as keyof typeof REQUEST_ONLY],
			});
			expect(sent.body[field]).toEqual(REQUEST_ONLY[field as keyof typeof REQUEST_ONLY]);
		});

		it('rule 4: externalId and parentActivityId come from the request', async () => {
			const parent = await createTask({ externalId: 'R4-PARENT', isParent: true });
			const child = await createTask({ externalId: 'R4-CHILD', parentActivityId: parent.body.id });
			expect(child.body).toMatchObject({ externalId: 'R4-CHILD', parentActivityId: parent.body.id });
			expect((await createTask({ externalId: 'R4-NOPARENT' })).body.parentActivityId ?? null).toBeNull();
		});

		it('rule 5: a work order created through the API is never a template, and the template stays out of the API', async () => {
			const res = await createTask({ externalId: 'R5-1' });
			expect(res.body.isTemplate).toBe(false);
			expect(sb().sandbox.world.tasks.get(res.body.id)?.isTemplate).toBe(false);
			expect(sb().sandbox.world.projects.get(projectId)?.templateTaskId).toBe(templateId);
			const listed = (await api(`${TASKS}/project/${projectId}`)).body as { id: string }[];
			expect(listed.some((t) => t.id === templateId)).toBe(false);
			expect((await api(`${TASKS}/${templateId}`)).status).toBe(404);
			// An isTemplate field is not accepted from the API.
			expect((await createTask({ externalId: 'R5-2', isTemplate: true })).status).toBe(400);
		});

		it('rule 6: PUT resets omitted fields to defaults and does not consult the template', async () => {
			const created = await createTask({ externalId: 'R6-1', name: 'Grøft', estimatedHourQty: 12 });
			expect(created.body).toMatchObject({
				costPrice: 420.5,
				safeJobAnalysisApprovalRequired: true,
				textRequired: true,
			});
			const res = await api(`${TASKS}/${created.body.id}`, {
				method: 'PUT',
				json: { companyId: COMPANY_IDS.main, projectId, externalId: 'R6-1', name: 'Grøft 2' },
			});
			expect(res.status).toBe(200);
			expect(res.body).toMatchObject({
				id: created.body.id,
				name: 'Grøft 2',
				costPrice: 0,
				price: 0,
				fixedResourcePrice: 0,
				safeJobAnalysisApprovalRequired: false,
				textRequired: false,
				measureUnitQty: false,
				active: false,
				isTemplate: false,
			});
			expect(res.body.unitId).toBeUndefined();
			expect(res.body.estimatedHourQty).toBeUndefined();
			expect(res.body.createdDateTime).toBe(created.body.createdDateTime);
			expect((await api(`${TASKS}/${created.body.id}`)).body).toEqual(res.body);
		});

		it('rule 1: the control endpoint replaces the project’s one template', async () => {
			const replaced = await setTemplate({ costPrice: 5 }, projectId);
			expect(replaced.body.id).toBe(templateId);
			const res = await createTask({ externalId: 'R1-1' });
			expect(res.body).toMatchObject({
				costPrice: 5,
				textRequired: false,
				safeJobAnalysisApprovalRequired: false,
			});
			expect(res.body.unitId).toBeUndefined();
			// Restore the full template for the other tests.
			await setTemplate({
				...Object.fromEntries(Object.entries(TEMPLATE_VALUES).map(([field, [value]]) => [field, value])),
				...REQUEST_ONLY,
			});
		});

		it('without a template, settings get their defaults (costPrice 0, SJA false)', async () => {
			const res = await createTask({ externalId: 'PLAIN-1' }, plainProjectId);
			expect(res.body).toMatchObject({
				costPrice: 0,
				price: 0,
				safeJobAnalysisApprovalRequired: false,
				active: false,
				isParent: false,
			});
			expect(res.body.unitId).toBeUndefined();
		});

		it('the control endpoint refuses an unknown project and unknown fields', async () => {
			expect((await setTemplate({ costPrice: 1 }, 'no-such-project')).status).toBe(404);
			expect((await setTemplate({ colour: 'red' })).status).toBe(400);
		});
	});

	it('keeps externalId unique within the project (create, PUT, PATCH), not across projects', async () => {
		const first = await createTask({ externalId: 'UNIQ-1' });
		expect(first.status).toBe(200);
		const dup = await createTask({ externalId: 'UNIQ-1' });
		expect(dup.status).toBe(400);
		expect(dup.body.errors[0]).toMatchObject({ field: 'externalId', code: 'Duplicate' });
		expect((await createTask({ externalId: 'UNIQ-1' }, plainProjectId)).status).toBe(200);
		const second = await createTask({ externalId: 'UNIQ-2' });
		expect(
			(await api(`${TASKS}/${second.body.id}`, { method: 'PATCH', json: { externalId: 'UNIQ-1' } })).status,
		).toBe(400);
		expect(
			(
				await api(`${TASKS}/${second.body.id}`, {
					method: 'PUT',
					json: { companyId: COMPANY_IDS.main, projectId, externalId: 'UNIQ-1' },
				})
			).status,
		).toBe(400);
		expect(sb().sandbox.world.tasks.get(second.body.id)?.externalId).toBe('UNIQ-2');
	});

	it('checks companyId and projectId: required, same company, accessible', async () => {
		const missing = await api(TASKS, { method: 'POST', json: { companyId: COMPANY_IDS.main, projectId } });
		expect(missing.status).toBe(400);
		expect(missing.body.errors[0].field).toBe('externalId');
		const mismatch = await createTask({ externalId: 'CO-1', companyId: COMPANY_IDS.subsidiary });
		expect(mismatch.status).toBe(400);
		expect(mismatch.body.errors[0].field).toBe('projectId');
		const foreignProject = [...sb().sandbox.world.projects.values()].find(
			(p) => p.companyId === COMPANY_IDS.other,
		)!;
		expect(
			(await createTask({ externalId: 'CO-2', companyId: COMPANY_IDS.other, projectId: foreignProject.id }))
				.status,
		).toBe(403);
		expect((await createTask({ externalId: 'CO-3', projectId: 'no-such-project' })).status).toBe(404);
		const foreignTask = [...sb().sandbox.world.tasks.values()].find(
			(t) => t.companyId === COMPANY_IDS.other,
		)!;
		expect((await api(`${TASKS}/${foreignTask.id}`)).status).toBe(403);
		expect((await api(`${TASKS}/${foreignTask.id}`, { method: 'PATCH', json: { name: 'x' } })).status).toBe(
			403,
		);
		expect((await api(`${TASKS}/${foreignTask.id}`, { method: 'DELETE' })).status).toBe(403);
		expect((await api(`${TASKS}/project/${foreignProject.id}`)).status).toBe(403);
		expect((await api(`${TASKS}/no-such-task`)).status).toBe(404);
	});

	it.each([
		['startDate', '2026-02-30T07:00:00'],
		['finishedDate', 'next week'],
		['costPrice', '100'],
		['isParent', 1],
		['taskLocationLongitude', 200],
		['summationType', 1.5],
	])('refuses %s = %j with a 400 naming the field', async (field, value) => {
		const res = await createTask({ externalId: `BAD-${field}`, [field]: value });
		expect(res.status).toBe(400);
		expect(res.body.errors[0].field).toBe(field);
	});

	describe('nesting', () => {
		it('nests a child under a parent marked isParent in the same project', async () => {
			const parent = await createTask({ externalId: 'N-PARENT', isParent: true });
			const child = await createTask({ externalId: 'N-CHILD', parentActivityId: parent.body.id });
			expect(child.status).toBe(200);
			expect(sb().sandbox.world.tasks.get(child.body.id)?.parentActivityId).toBe(parent.body.id);
		});

		it('refuses a parent that is not marked isParent, of another project, or unknown', async () => {
			const notParent = await createTask({ externalId: 'N-FLAT' });
			const res = await createTask({ externalId: 'N-C1', parentActivityId: notParent.body.id });
			expect(res.status).toBe(400);
			expect(res.body.message).toContain('isParent');
			const elsewhere = await createTask({ externalId: 'N-ELSEWHERE', isParent: true }, plainProjectId);
			const cross = await createTask({ externalId: 'N-C2', parentActivityId: elsewhere.body.id });
			expect(cross.status).toBe(400);
			expect(cross.body.errors[0].field).toBe('parentActivityId');
			expect((await createTask({ externalId: 'N-C3', parentActivityId: 'no-such-task' })).status).toBe(400);
		});

		it('refuses cycles, un-marking a parent with sub-orders, and deleting it', async () => {
			const top = await createTask({ externalId: 'N-TOP', isParent: true });
			const middle = await createTask({ externalId: 'N-MID', isParent: true, parentActivityId: top.body.id });
			const leaf = await createTask({ externalId: 'N-LEAF', parentActivityId: middle.body.id });
			expect(
				(await api(`${TASKS}/${top.body.id}`, { method: 'PATCH', json: { parentActivityId: top.body.id } }))
					.status,
			).toBe(400);
			const cycle = await api(`${TASKS}/${top.body.id}`, {
				method: 'PATCH',
				json: { parentActivityId: middle.body.id },
			});
			expect(cycle.status).toBe(400);
			expect(cycle.body.message).toContain('under itself');
			expect(
				(await api(`${TASKS}/${middle.body.id}`, { method: 'PATCH', json: { isParent: false } })).status,
			).toBe(400);
			// PUT without isParent would un-mark it too.
			expect(
				(
					await api(`${TASKS}/${middle.body.id}`, {
						method: 'PUT',
						json: { companyId: COMPANY_IDS.main, projectId, externalId: 'N-MID' },
					})
				).status,
			).toBe(400);
			expect((await api(`${TASKS}/${middle.body.id}`, { method: 'DELETE' })).status).toBe(400);
			expect((await api(`${TASKS}/${leaf.body.id}`, { method: 'DELETE' })).status).toBe(204);
			expect((await api(`${TASKS}/${middle.body.id}`, { method: 'DELETE' })).status).toBe(204);
			expect((await api(`${TASKS}/${middle.body.id}`)).status).toBe(404);
		});
	});

	it('PATCH changes only the fields it sends and stamps modifiedDateTime from the clock', async () => {
		const created = await createTask({ externalId: 'P-1', name: 'Før', workDescription: 'Beholdes' });
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 120 } });
		const res = await api(`${TASKS}/${created.body.id}`, {
			method: 'PATCH',
			json: { name: 'Etter', active: true },
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			name: 'Etter',
			active: true,
			workDescription: 'Beholdes',
			costPrice: 420.5,
			externalId: 'P-1',
		});
		expect(
			Date.parse(res.body.modifiedDateTime) - Date.parse(created.body.modifiedDateTime),
		).toBeGreaterThanOrEqual(120_000);
	});

	describe('lookups', () => {
		const seeded = () => {
			const project = [...sb().sandbox.world.projects.values()].find(
				(p) => p.companyId === COMPANY_IDS.main,
			)!;
			const tasks = [...sb().sandbox.world.tasks.values()].filter((t) => t.projectId === project.id);
			return { project, tasks };
		};
		const ids = (list: { id: string }[]) => list.map((t) => t.id).sort();

		it('by project id, project number and external project number: all of the project', async () => {
			const { project, tasks } = seeded();
			expect(ids((await api(`${TASKS}/project/${project.id}`)).body)).toEqual(ids(tasks));
			expect(ids((await api(`${TASKS}/by-project-number/${project.projectNumber}`)).body)).toEqual(
				ids(tasks),
			);
			expect(
				ids((await api(`${TASKS}/by-external-project-number/${String(project.externalProjectNumber)}`)).body),
			).toEqual(ids(tasks));
			expect((await api(`${TASKS}/by-project-number/NOPE`)).status).toBe(404);
			expect((await api(`${TASKS}/by-external-project-number/NOPE`)).status).toBe(404);
		});

		it('single by id, by project number + task number (externalId), by external project number + external id', async () => {
			const { project, tasks } = seeded();
			const task = tasks[1];
			expect((await api(`${TASKS}/${task.id}`)).body.id).toBe(task.id);
			expect(
				(await api(`${TASKS}/by-project-number/${project.projectNumber}/by-task-number/${task.externalId}`))
					.body.id,
			).toBe(task.id);
			expect(
				(
					await api(
						`${TASKS}/by-external-project-number/${String(project.externalProjectNumber)}/by-external-id/${task.externalId}`,
					)
				).body.id,
			).toBe(task.id);
			const missing = await api(`${TASKS}/by-project-number/${project.projectNumber}/by-task-number/NOPE`);
			expect(missing.status).toBe(404);
			expect(missing.body.message).toContain('NOPE');
			expect(
				(
					await api(
						`${TASKS}/by-external-project-number/${String(project.externalProjectNumber)}/by-external-id/NOPE`,
					)
				).status,
			).toBe(404);
		});

		it('/list returns every match: same-numbered projects of the company structure, the caller’s own first', async () => {
			const own = await api(PROJECTS, {
				method: 'POST',
				json: { companyId: COMPANY_IDS.main, projectNumber: 'SHARED-9' },
			});
			const sub = await api(PROJECTS, {
				method: 'POST',
				json: { companyId: COMPANY_IDS.subsidiary, projectNumber: 'SHARED-9' },
			});
			const mine = await createTask({ externalId: 'T-01' }, own.body.id);
			const theirs = await api(TASKS, {
				method: 'POST',
				json: { companyId: COMPANY_IDS.subsidiary, projectId: sub.body.id, externalId: 'T-01' },
			});
			expect(theirs.status).toBe(200);
			const list = await api(`${TASKS}/by-project-number/SHARED-9/by-task-number/T-01/list`);
			expect(list.body.map((t: { id: string }) => t.id)).toEqual([mine.body.id, theirs.body.id]);
			expect((await api(`${TASKS}/by-project-number/SHARED-9/by-task-number/T-01`)).body.id).toBe(
				mine.body.id,
			);
			expect((await api(`${TASKS}/by-project-number/SHARED-9/by-task-number/T-02/list`)).body).toEqual([]);
			// The subsidiary's client sees only its own.
			const subsidiary = await tokenFor(sb(), 'fieldops-subsidiary');
			const theirList = await call(
				sb().coreUrl,
				`${TASKS}/by-project-number/SHARED-9/by-task-number/T-01/list`,
				{ token: subsidiary },
			);
			expect(theirList.body.map((t: { id: string }) => t.id)).toEqual([theirs.body.id]);
		});

		it('by production code (externalDim01): every accessible work order with it', async () => {
			const created = await createTask({ externalId: 'PK-1', externalDim01: 'PK/42|x' });
			const res = await api(`${TASKS}/by-production-code/${encodeURIComponent('PK/42|x')}`);
			expect(res.body.map((t: { id: string }) => t.id)).toEqual([created.body.id]);
			const seededCode = [...sb().sandbox.world.tasks.values()].filter(
				(t) =>
					t.externalDim01 === 'PK1' &&
					['6c1f0a52-1d4e-4b7a-9c1e-0a1b2c3d4e01', '6c1f0a52-1d4e-4b7a-9c1e-0a1b2c3d4e02'].includes(
						t.companyId,
					),
			);
			expect(ids((await api(`${TASKS}/by-production-code/PK1`)).body)).toEqual(ids(seededCode));
		});
	});
});
