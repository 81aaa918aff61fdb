import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { COMPANY_IDS } from './seed';

describe('sandbox core: read-only lookups', () => {
	const sb = useSandbox();
	let admin: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });
	const structure: string[] = [COMPANY_IDS.main, COMPANY_IDS.subsidiary];
	const visibleProjects = () =>
		[...sb().sandbox.world.projects.values()].filter((p) => structure.includes(p.companyId));
	const ids = (list: { id: string }[]) => list.map((p) => p.id).sort();

	beforeAll(async () => {
		admin = await tokenFor(sb());
	});

	it('GET /api/projects: active projects of the company structure by default; activeInactiveAll 1 = inactive, 2 = all', async () => {
		const all = visibleProjects();
		expect(all.some((p) => !p.active)).toBe(true);
		const active = await api('/api/projects');
		expect(active.status).toBe(200);
		expect(ids(active.body)).toEqual(ids(all.filter((p) => p.active)));
		expect(ids((await api('/api/projects', { query: { activeInactiveAll: 1 } })).body)).toEqual(
			ids(all.filter((p) => !p.active)),
		);
		expect(ids((await api('/api/projects', { query: { activeInactiveAll: 2 } })).body)).toEqual(ids(all));
		expect(active.body[0]).toEqual({
			id: expect.any(String),
			projectNumber: expect.any(String),
			externalProjectNumber: expect.any(String),
			name: expect.any(String),
			active: true,
			companyId: expect.any(String),
		});
		expect(active.body.some((p: { companyId: string }) => p.companyId === COMPANY_IDS.other)).toBe(false);
	});

	it.each(['3', '-1', 'all', '1.5'])('refuses activeInactiveAll=%s with a 400 naming it', async (value) => {
		for (const path of ['/api/projects', `/api/projects/${visibleProjects()[0].id}/tasks`]) {
			const res = await api(path, { query: { activeInactiveAll: value } });
			expect(res.status).toBe(400);
			expect(res.body.errors[0].field).toBe('activeInactiveAll');
		}
	});

	it('GET /api/projects/search matches number, name or external number, case-insensitive; activeOnly filters', async () => {
		const inactive = visibleProjects().find((p) => !p.active)!;
		const byName = await api('/api/projects/search', {
			query: { searchString: inactive.name.toUpperCase() },
		});
		expect(ids(byName.body)).toContain(inactive.id);
		expect(
			ids(
				(await api('/api/projects/search', { query: { searchString: inactive.name, activeOnly: true } }))
					.body,
			),
		).not.toContain(inactive.id);
		const byNumber = await api('/api/projects/search', { query: { searchString: inactive.projectNumber } });
		expect(byNumber.body.map((p: { projectNumber: string }) => p.projectNumber)).toContain(
			inactive.projectNumber,
		);
		expect(
			ids(
				(
					await api('/api/projects/search', {
						query: { searchString: String(inactive.externalProjectNumber) },
					})
				).body,
			),
		).toEqual([inactive.id]);
		expect(
			(await api('/api/projects/search', { query: { searchString: 'no project is called this' } })).body,
		).toEqual([]);
		expect((await api('/api/projects/search', { query: { activeOnly: 'sometimes' } })).status).toBe(400);
		const foreign = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === COMPANY_IDS.other)!;
		expect(
			(await api('/api/projects/search', { query: { searchString: foreign.projectNumber } })).body,
		).toEqual([]);
	});

	it('GET /api/projects/{projId}: the project; 403 for another company’s, 404 for unknown', async () => {
		const project = visibleProjects()[0];
		expect((await api(`/api/projects/${project.id}`)).body).toMatchObject({
			id: project.id,
			projectNumber: project.projectNumber,
			name: project.name,
		});
		const foreign = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === COMPANY_IDS.other)!;
		expect((await api(`/api/projects/${foreign.id}`)).status).toBe(403);
		expect((await api('/api/projects/no-such-project')).status).toBe(404);
	});

	it('GET /api/projects/{projId}/tasks: active work orders by default, the same activeInactiveAll', async () => {
		const project = visibleProjects()[0];
		const created = await api('/api/v4/integration/tasks', {
			method: 'POST',
			json: { companyId: project.companyId, projectId: project.id, externalId: 'LOOKUP-INACTIVE' },
		});
		expect(created.body.active).toBe(false);
		const tasks = [...sb().sandbox.world.tasks.values()].filter((t) => t.projectId === project.id);
		expect(ids((await api(`/api/projects/${project.id}/tasks`)).body)).toEqual(
			ids(tasks.filter((t) => t.active)),
		);
		expect(
			ids((await api(`/api/projects/${project.id}/tasks`, { query: { activeInactiveAll: 1 } })).body),
		).toEqual([created.body.id]);
		expect(
			ids((await api(`/api/projects/${project.id}/tasks`, { query: { activeInactiveAll: 2 } })).body),
		).toEqual(ids(tasks));
		const foreign = [...sb().sandbox.world.projects.values()].find((p) => p.companyId === COMPANY_IDS.other)!;
		expect((await api(`/api/projects/${foreign.id}/tasks`)).status).toBe(403);
	});

	it('GET /api/resources/details/{resourceId}: a machine, a piece of equipment or a person', async () => {
		const machine = [...sb().sandbox.world.machines.values()].find(
			(m) => m.companyId === COMPANY_IDS.main && !m.isEquipment,
		)!;
		const equipment = [...sb().sandbox.world.machines.values()].find(
			(m) => m.companyId === COMPANY_IDS.subsidiary && m.isEquipment,
		)!;
		const person = sb().sandbox.world.peopleOf(COMPANY_IDS.main)[0];
		expect((await api(`/api/resources/details/${machine.id}`)).body).toEqual({
			resourceId: machine.id,
			resourceNumber: machine.machineNumber,
			name: machine.name,
			resourceType: 'machine',
			active: machine.active,
			companyId: COMPANY_IDS.main,
		});
		expect((await api(`/api/resources/details/${equipment.id}`)).body).toMatchObject({
			resourceType: 'equipment',
			resourceNumber: equipment.machineNumber,
		});
		expect((await api(`/api/resources/details/${person.companyProfileId}`)).body).toMatchObject({
			resourceType: 'person',
			resourceNumber: person.employeeNumber,
			name: `${person.firstName} ${person.lastName}`,
		});
		const foreign = [...sb().sandbox.world.machines.values()].find((m) => m.companyId === COMPANY_IDS.other)!;
		expect((await api(`/api/resources/details/${foreign.id}`)).status).toBe(403);
		expect((await api('/api/resources/details/no-such-resource')).status).toBe(404);
	});

	it('GET /api/resources/types: the kinds a resource can be', async () => {
		const res = await api('/api/resources/types');
		expect(res.body.map((t: { resourceType: string }) => t.resourceType)).toEqual([
			'machine',
			'equipment',
			'person',
		]);
	});

	it('every lookup needs serviceapiv3', async () => {
		const reportingOnly = await tokenFor(sb(), 'fieldops-reporting');
		for (const path of [
			'/api/projects',
			'/api/projects/search',
			'/api/resources/types',
			'/api/MachineType',
		]) {
			expect((await call(sb().coreUrl, path, { token: reportingOnly })).status).toBe(403);
		}
	});
});
