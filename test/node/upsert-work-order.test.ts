/**
 * Issue #32: Work Order → Create or Update by project number + work order number, or by external project number +
 * external ID, through n8n's engine against the sandbox (both variants).
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { results, rows, upsertRunner } from '../helpers/upsert';
import type { Project, Task } from '../sandbox/state';

const TASKS = '/api/v4/integration/tasks';
const BY_NUMBER = `GET ${TASKS}/by-project-number/{projectNumber}/by-task-number/{taskNumber}/list`;
const BY_EXTERNAL = `GET ${TASKS}/by-external-project-number/{externalProjectNumber}`;
const PROJECT_BY_NUMBER = 'GET /api/v4/integration/projects/by-project-number/{projectNumber}';

const FIELDS = {
	externalId: '={{ $json.externalId }}',
	name: '={{ $json.name }}',
	additionalFields: {
		estimatedHourQty: '={{ $json.hours }}',
		startDate: '={{ $json.start }}',
		active: '={{ $json.active }}',
	},
};
const BY_NUMBERS = {
	matchOn: 'number',
	projectNumber: '={{ $json.project }}',
	workOrderNumber: '={{ $json.number }}',
	...FIELDS,
};
const BY_EXTERNAL_IDS = { matchOn: 'external', externalProjectNumber: '={{ $json.erpProject }}', ...FIELDS };

describe('Work Order → Create or Update (issue #32)', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'workOrder');
	const own = () => sb().clients[0].companyId;
	const world = () => sb().sandbox.world;
	const project = (): Project => [...world().projects.values()].find((p) => p.companyId === own())!;
	const tasksOf = (p: Project) =>
		[...world().tasks.values()].filter((t) => t.projectId === p.id && !t.isTemplate);
	const byExternalId = (p: Project, externalId: string) =>
		tasksOf(p).filter((t) => t.externalId === externalId);
	/** [W1] The work order's number as Field Ops numbers it: its External ID, or a number the service gives. */
	const numberOf = (t: Task) =>
		world().variant.taskNumber === 'externalId' ? t.externalId : String(t.taskNumber);
	const rowOf = (p: Project, t: Task): IDataObject => ({
		project: p.projectNumber,
		erpProject: p.externalProjectNumber as string,
		number: numberOf(t),
		externalId: t.externalId,
		name: t.name,
	});

	it('by project and work order number: creates, updates what changed, leaves the rest', async () => {
		const p = project();
		const [a, b, c] = tasksOf(p);
		const run = await node.run(
			BY_NUMBERS,
			rows(
				rowOf(p, a),
				{ ...rowOf(p, b), name: 'Grøft langs fylkesveien', hours: 120 },
				{ ...rowOf(p, c), start: '' },
				{ project: p.projectNumber, number: 'NY-1', externalId: 'NY-1', name: 'Ny arbeidsordre', hours: 8 },
			),
		);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(['unchanged', 'updated', 'unchanged', 'created']);
		expect(run.items['Field Ops'][1].json).toMatchObject({
			result: 'updated',
			id: b.id,
			projectNumber: p.projectNumber,
			workOrderNumber: numberOf(b),
			changedFields: ['estimatedHourQty', 'name'],
		});
		const [created] = byExternalId(p, 'NY-1');
		expect(run.items['Field Ops'][3].json).toMatchObject({ result: 'created', id: created.id });
		// Created in the project, its company's, active as Create makes it.
		expect(created).toMatchObject({ companyId: p.companyId, active: true, estimatedHourQty: 8 });
		expect(world().tasks.get(b.id)).toMatchObject({ name: 'Grøft langs fylkesveien', estimatedHourQty: 120 });
		// One read per item (the spec does not show which field holds the number), the project once for the new one.
		expect(await node.requests()).toEqual({
			[BY_NUMBER]: 4,
			[PROJECT_BY_NUMBER]: 1,
			[`POST ${TASKS}`]: 1,
			[`PATCH ${TASKS}/{id}`]: 1,
		});
	});

	it('by number, run again: a work order created without an External ID is found by its number the next time', async () => {
		const p = project();
		const row = { project: p.projectNumber, number: 'NY-7', name: 'Ny grøft' };
		const first = await node.run(BY_NUMBERS, rows(row), true);
		expect(results(first)).toEqual(['created']);
		// The number is sent as its External ID: where Field Ops numbers work orders by it (W1), the next run finds it.
		expect(byExternalId(p, 'NY-7')).toHaveLength(1);
		const again = await node.run(BY_NUMBERS, rows(row), true);
		if (world().variant.taskNumber === 'externalId') expect(results(again)).toEqual(['unchanged']);
		// Where Field Ops gives numbers of its own, NY-7 is not one of them: the create is refused, never doubled.
		else {
			expect(results(again)).toEqual(['failed']);
			expect(byExternalId(p, 'NY-7')).toHaveLength(1);
		}
	});

	it('by external project number and external ID: one read per project for the whole batch', async () => {
		const p = project();
		const existing = tasksOf(p);
		const items = rows(
			...existing.map((t, i) => (i === 0 ? { ...rowOf(p, t), active: false } : rowOf(p, t))),
			...Array.from({ length: 10 }, (_, i) => ({
				erpProject: p.externalProjectNumber as string,
				externalId: `ERP-${i}`,
				name: `Fra ERP ${i}`,
			})),
		);
		const run = await node.run(BY_EXTERNAL_IDS, items);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(
			existing.map((_, i) => (i === 0 ? 'updated' : 'unchanged')).concat(Array(10).fill('created')),
		);
		expect(run.items['Field Ops'][0].json).toMatchObject({
			externalProjectNumber: p.externalProjectNumber,
			externalId: existing[0].externalId,
			changedFields: ['active'],
		});
		expect(world().tasks.get(existing[0].id)?.active).toBe(false);
		expect(byExternalId(p, 'ERP-9')[0]).toMatchObject({ projectId: p.id, active: true });
		expect(await node.requests()).toEqual({
			[BY_EXTERNAL]: 1,
			[`POST ${TASKS}`]: 10,
			[`PATCH ${TASKS}/{id}`]: 1,
		});
	});

	it('fails a repeated key, a missing key and an unknown project alone', async () => {
		const p = project();
		const run = await node.run(
			BY_EXTERNAL_IDS,
			rows(
				{ erpProject: p.externalProjectNumber as string, externalId: 'ERP-1', name: 'Ny' },
				{ erpProject: p.externalProjectNumber as string, externalId: '', name: 'Uten' },
				{ erpProject: 'ERP-FINNES-IKKE', externalId: 'X-1', name: 'Ingen prosjekt' },
				{ erpProject: p.externalProjectNumber as string, externalId: 'ERP-1', name: 'Igjen' },
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'failed', 'failed']);
		const errors = run.items['Field Ops'].map((item) => String(item.json.error ?? ''));
		expect(errors[1]).toMatch(/^External ID is empty/);
		expect(errors[2]).toMatch(
			/^Work order X-1 of project ERP-FINNES-IKKE: No project has the External Project Number/,
		);
		expect(errors[3]).toMatch(/the same work order is in item 1 too/);
		expect(byExternalId(p, 'ERP-1')).toHaveLength(1);
	});

	it('a refusal in the middle of a batch fails that work order in the service’s words; Name is checked before sending', async () => {
		const p = project();
		const [a] = tasksOf(p);
		const run = await node.run(
			BY_NUMBERS,
			rows(
				{ project: p.projectNumber, number: 'NY-1', externalId: 'NY-1', name: 'Ny' },
				{ ...rowOf(p, a), name: 'x'.repeat(501) },
				{ project: p.projectNumber, number: 'NY-2', externalId: 'NY-2', name: '' },
				{ project: p.projectNumber, number: 'NY-3', externalId: 'NY-3', name: 'Ny 3' },
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'failed', 'created']);
		expect(run.items['Field Ops'][1].json.error).toMatch(
			new RegExp(
				`^Work order ${numberOf(a)} of project ${p.projectNumber}: Field Ops refused the request: Name`,
			),
		);
		expect(run.items['Field Ops'][2].json.error).toMatch(/^Work order NY-2 of project .*: Name is empty/);
		expect(byExternalId(p, 'NY-3')).toHaveLength(1);
	});
});
