/**
 * Issue #24, "no ID typed by hand": every field that names another record by ID is a list (with search, paged for
 * companies with thousands of employees or projects) with By ID as its second mode; what is picked is what is sent.
 */
import type { INodeListSearchResult, INodeParameters, INodeProperties, INodeType } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { listSearch } from '../helpers/editor';
import { call, useSandbox } from '../helpers/sandbox';
import { FIELD_OPS_NODE, fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import type { Person, Project } from '../sandbox/state';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const PAGE = 100;

describe('Pick-lists instead of typed IDs (issue #24)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const world = () => sb().sandbox.world;
	const own = () => sb().clients[0].companyId;
	const project = () => [...world().projects.values()].find((p) => p.companyId === own() && p.active)!;
	const tasksOf = (projectId: string) =>
		[...world().tasks.values()].filter((t) => t.projectId === projectId && !t.isTemplate);
	const requests = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body.requests as Record<string, number>;
	const list = (method: string, parameters: INodeParameters, filter?: string, token?: string) =>
		listSearch(harness, method, parameters, filter, token);
	/** Every page of a list, as the editor fetches them while the user scrolls. */
	const allPages = async (method: string, parameters: INodeParameters, filter?: string) => {
		const pages: INodeListSearchResult[] = [await list(method, parameters, filter)];
		while (pages[pages.length - 1].paginationToken)
			pages.push(await list(method, parameters, filter, String(pages[pages.length - 1].paginationToken)));
		return pages;
	};
	const properties = () =>
		(harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType).description.properties;
	/** A field of a collection (Additional/Update Fields, report Filters) as n8n serves it. */
	const option = (collection: string, resource: string, operation: string, name: string) =>
		(
			properties().find(
				(p) =>
					p.name === collection &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					p.displayOptions?.show?.operation?.includes(operation),
			)?.options as INodeProperties[]
		).find((o) => o.name === name);

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it.each([
		['project', 'create', 'additionalFields', 'mainForemanId', 'searchEmployees'],
		['project', 'update', 'updateFields', 'projectLeaderId', 'searchEmployees'],
		['workOrder', 'create', 'additionalFields', 'mainForemanId', 'searchEmployees'],
		['workOrder', 'update', 'updateFields', 'taskLeaderId', 'searchEmployees'],
		['workOrder', 'create', 'additionalFields', 'unitId', 'searchUnits'],
		['workOrder', 'create', 'additionalFields', 'chapterId', 'searchChapters'],
		['workOrder', 'replace', 'additionalFields', 'parentActivityId', 'searchParentWorkOrders'],
		['machine', 'create', 'additionalFields', 'responsibleId', 'searchEmployees'],
		['report', 'timeRegistrations', 'filters', 'companyId', 'searchCompanies'],
	])(
		'%s → %s: %s.%s is a list (%s) with By ID as the second mode',
		(resource, operation, collection, name, method) => {
			const field = option(collection, resource, operation, name);
			expect(field?.type).toBe('resourceLocator');
			expect(field?.modes?.[0]).toMatchObject({ name: 'list', typeOptions: { searchListMethod: method } });
			expect(field?.modes?.map((m) => m.name)).toContain('id');
			expect(field?.modes?.[1]?.name).not.toBe('list');
		},
	);

	it('lists the project’s units and chapters in use, and its work orders with the parents first', async () => {
		const target = project();
		const parent = tasksOf(target.id)[1];
		parent.isParent = true;
		const parameters = { resource: 'workOrder', operation: 'create', project: rl('list', target.id) };
		const units = (await list('searchUnits', parameters)).results.map((r) => r.value).sort();
		expect(units).toEqual([...new Set(tasksOf(target.id).map((t) => t.unitId))].sort());
		const chapters = (await list('searchChapters', parameters)).results.map((r) => r.value).sort();
		expect(chapters).toEqual([...new Set(tasksOf(target.id).map((t) => t.chapterId))].sort());
		const parents = (await list('searchParentWorkOrders', parameters)).results;
		expect(parents[0]).toMatchObject({ value: parent.id, name: expect.stringMatching(/\(parent\)$/) });
		expect(parents.map((p) => p.value).sort()).toEqual(
			tasksOf(target.id)
				.map((t) => t.id)
				.sort(),
		);
	});

	it('finds the project of a work order given by ID for its lists (no Project asked for there)', async () => {
		const task = tasksOf(project().id)[0];
		const parameters = { resource: 'workOrder', operation: 'update', workOrder: rl('id', task.id) };
		const units = (await list('searchUnits', parameters)).results.map((r) => r.value);
		expect(units).toContain(task.unitId);
	});

	it('pages 5,000 employees and 5,000 projects 100 at a time, reading each list once; a search asks Field Ops', async () => {
		const template = [...world().people.values()].find((p) => p.companyId === own())!;
		for (let i = 0; i < 5_000; i++) {
			const person: Person = {
				...template,
				identityId: `id-bulk-${i}`,
				companyProfileId: `profile-bulk-${i}`,
				employeeNumber: `B${String(i).padStart(5, '0')}`,
				firstName: 'Bulk',
				lastName: `Person ${i}`,
				phone: `+47${String(40_000_000 + i)}`,
				employments: template.employments.map((e) => ({ ...e })),
				tags: [],
			};
			world().people.set(person.companyProfileId, person);
		}
		const projectTemplate = project();
		for (let i = 0; i < 5_000; i++) {
			const bulk: Project = {
				...projectTemplate,
				id: `project-bulk-${i}`,
				projectNumber: `B${i}`,
				name: `Bulk ${i}`,
			};
			world().projects.set(bulk.id, bulk);
		}
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const parameters = { resource: 'workOrder', operation: 'create', project: rl('list', '') };

		const people = await allPages('searchEmployees', parameters);
		expect(people[0].results).toHaveLength(PAGE);
		const shown = people.flatMap((p) => p.results.map((r) => r.value));
		expect(new Set(shown).size).toBe(shown.length);
		expect(shown.filter((n) => String(n).startsWith('B0')).length).toBe(5_000);
		const projects = await allPages('searchProjects', parameters);
		expect(projects[0].results).toHaveLength(PAGE);
		expect(
			projects.flatMap((p) => p.results).filter((r) => String(r.value).startsWith('project-bulk-')),
		).toHaveLength(5_000);
		expect(await requests()).toMatchObject({
			'GET /api/v5/integration/employees': 1,
			'GET /api/projects': 1,
		});

		const found = await list('searchEmployees', parameters, 'Person 4711');
		expect(found.results.map((r) => r.value)).toEqual(['B04711']);
		expect((await requests())['GET /api/v5/integration/employees/search']).toBe(1);
	});

	it('sends what was picked: a foreman by employee number on a project, a user ID on a work order', async () => {
		const person = [...world().people.values()].find((p) => p.companyId === own())!;
		const projectResult = await harness.run(
			fieldOpsWorkflow({
				resource: 'project',
				operation: 'create',
				projectNumber: 'P24-PL',
				additionalFields: { mainForemanId: rl('list', person.employeeNumber) },
			}),
		);
		expect(projectResult.error).toBeUndefined();
		const created = [...world().projects.values()].find((p) => p.projectNumber === 'P24-PL')!;
		expect(created.mainForemanId).toBe(person.employeeNumber);

		const target = project();
		const [unit, parent] = [tasksOf(target.id)[0].unitId, tasksOf(target.id)[0]];
		parent.isParent = true;
		const workOrderResult = await harness.run(
			fieldOpsWorkflow({
				resource: 'workOrder',
				operation: 'create',
				project: rl('list', target.id),
				externalId: 'W24-PICK',
				name: 'Plukket',
				additionalFields: {
					mainForemanId: rl('list', person.employeeNumber),
					taskLeaderId: rl('id', person.identityId),
					unitId: rl('list', String(unit)),
					parentActivityId: rl('list', parent.id),
				},
			}),
		);
		expect(workOrderResult.error).toBeUndefined();
		expect([...world().tasks.values()].find((t) => t.externalId === 'W24-PICK')).toMatchObject({
			mainForemanId: person.identityId,
			taskLeaderId: person.identityId,
			unitId: unit,
			parentActivityId: parent.id,
		});
	});

	it('sends a machine state for the own company (left empty), a project and a machine picked from lists', async () => {
		const target = project();
		const machine = [...world().machines.values()].find((m) => m.companyId === own())!;
		const result = await harness.run(
			fieldOpsWorkflow({
				resource: 'machineState',
				operation: 'create',
				companyId: rl('list', ''),
				projectId: rl('list', target.id),
				machineId: rl('machineNumber', machine.machineNumber),
				state: 'working',
				startTime: '2026-11-20T07:00:00Z',
				endTime: '2026-11-20T09:30:00Z',
			}),
		);
		expect(result.error).toBeUndefined();
		expect(world().state('machine-states', () => [] as unknown[])).toEqual([
			expect.objectContaining({ companyId: own(), projectId: target.id, machineId: machine.id }),
		]);
	});

	it('filters a report by a company picked from the list', async () => {
		const companies = (await list('searchCompanies', { resource: 'report', operation: 'timeRegistrations' }))
			.results;
		const other = companies.map((c) => String(c.value)).find((c) => c !== own())!;
		expect(companies.map((c) => c.value)).toContain(own());
		const companiesOf = async (filters: INodeParameters) => {
			const result = await harness.run(
				fieldOpsWorkflow({
					resource: 'report',
					operation: 'timeRegistrations',
					syncMode: 'modifiedSince',
					modifiedSince: '2000-01-01T00:00:00',
					returnAll: true,
					filters,
				}),
			);
			if (result.error) throw result.error;
			return new Set(result.items['Field Ops'].map((i) => i.json.companyId));
		};
		expect((await companiesOf({})).size).toBeGreaterThan(1);
		expect([...(await companiesOf({ companyId: rl('list', other) }))]).toEqual([other]);
	});
});
