/**
 * Issue #32: Project → Create or Update by project number, through n8n's engine against the sandbox (both
 * variants).
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { results, rows, upsertRunner } from '../helpers/upsert';
import type { Project } from '../sandbox/state';

const PROJECTS = '/api/v4/integration/projects';
const BY_NUMBER = `${PROJECTS}/by-project-number/{projectNumber}`;
const ONE = `${PROJECTS}/{id}`;

/** The ERP's columns mapped onto the operation. */
const MAPPING = {
	projectNumber: '={{ $json.number }}',
	additionalFields: {
		name: '={{ $json.name }}',
		active: '={{ $json.active }}',
		startDate: '={{ $json.start }}',
		estimatedHourQty: '={{ $json.hours }}',
	},
};

describe('Project → Create or Update (issue #32)', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'project');
	const own = () => sb().clients[0].companyId;
	const projects = () => [...sb().sandbox.world.projects.values()];
	const ownProjects = () => projects().filter((p) => p.companyId === own());
	const byNumber = (number: string) => projects().filter((p) => p.projectNumber === number);
	const rowOf = (p: Project): IDataObject => ({
		number: p.projectNumber,
		name: p.name,
		active: p.active,
		start: p.startDate as string,
		hours: '',
	});

	it('creates the new, updates only what changed, leaves the rest: one list read for the batch', async () => {
		const existing = ownProjects();
		// A new project's company (your own, Company left empty) is looked up once per ten minutes, as Create does.
		await node.run(MAPPING, rows({ number: 'E-0', name: 'Before' }));
		await node.clear();
		const items = rows(
			...existing.map((p, i) => (i === 2 ? { ...rowOf(p), name: 'Nytt navn', hours: '1250.5' } : rowOf(p))),
			...['E-1', 'E-2', 'E-3', 'E-4'].map((number) => ({ number, name: `ERP ${number}`, active: true })),
		);
		expect(items.length).toBeGreaterThan(10);
		const run = await node.run(MAPPING, items, true);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual([
			...existing.map((_, i) => (i === 2 ? 'updated' : 'unchanged')),
			...Array(4).fill('created'),
		]);
		expect(run.items['Field Ops'][2].json).toMatchObject({
			result: 'updated',
			id: existing[2].id,
			projectNumber: existing[2].projectNumber,
			changedFields: ['estimatedHourQty', 'name'],
		});
		const created = run.items['Field Ops'][existing.length].json;
		expect(created).toMatchObject({ result: 'created', projectNumber: 'E-1', id: byNumber('E-1')[0].id });
		expect(byNumber('E-1')[0]).toMatchObject({ companyId: own(), name: 'ERP E-1', active: true });
		expect(projects().find((p) => p.id === existing[2].id)).toMatchObject({
			name: 'Nytt navn',
			estimatedHourQty: 1250.5,
		});
		const requests = await node.requests();
		expect(requests).toMatchObject({ [`GET ${PROJECTS}`]: 1, [`POST ${PROJECTS}`]: 4, [`PATCH ${ONE}`]: 1 });
		expect(requests[`GET ${BY_NUMBER}`]).toBeUndefined();
	});

	it('compares dates and numbers as Field Ops means them, never calling a real difference unchanged', async () => {
		const [a, b, c] = ownProjects();
		Object.assign(a, { startDate: '2026-03-01T00:00:00.000Z', estimatedHourQty: 12.5 });
		Object.assign(b, { startDate: '2026-03-01T08:00:00.000Z' });
		Object.assign(c, { startDate: '2026-03-01T08:00:00+01:00' });
		const run = await node.run(
			MAPPING,
			rows(
				// A day equals midnight of that day; 12.50 is 12.5.
				{ ...rowOf(a), start: '2026-03-01', hours: '12.50' },
				// 08:00 without a zone cannot be told from 08:00 UTC: written.
				{ ...rowOf(b), start: '2026-03-01T08:00:00' },
				// The same instant written in another zone.
				{ ...rowOf(c), start: '2026-03-01T07:00:00Z' },
			),
		);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(['unchanged', 'updated', 'unchanged']);
		expect(run.items['Field Ops'][1].json.changedFields).toEqual(['startDate']);
		// A few items: each read by its number.
		expect(await node.requests()).toEqual({ [`GET ${BY_NUMBER}`]: 3, [`PATCH ${ONE}`]: 1 });
	});

	it('fails a repeated and a missing project number alone', async () => {
		const [a] = ownProjects();
		const run = await node.run(
			MAPPING,
			rows({ number: 'E-1', name: 'Ny' }, { number: ' ', name: 'Uten' }, { ...rowOf(a) }, { number: 'E-1' }),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'unchanged', 'failed']);
		expect(run.items['Field Ops'][1].json.error).toMatch(/^Project Number to Match On is empty/);
		expect(run.items['Field Ops'][3].json.error).toMatch(/^Project E-1: the same project is in item 1 too/);
		expect(byNumber('E-1')).toHaveLength(1);
	});

	it('a refusal in the middle of a batch fails that item in the service’s words', async () => {
		const [a, b] = ownProjects();
		// A description longer than Field Ops takes: refused by the service, not by the node.
		const run = await node.run(
			{ ...MAPPING, additionalFields: { ...MAPPING.additionalFields, description: '={{ $json.text }}' } },
			rows(
				{ number: 'E-1', name: 'Ny' },
				{ ...rowOf(b), text: 'x'.repeat(10_001) },
				{ ...rowOf(a), name: 'Endret' },
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'updated']);
		expect(run.items['Field Ops'][1].json.error).toMatch(
			new RegExp(`^Project ${b.projectNumber}: Field Ops refused the request: Description`),
		);
		expect(projects().find((p) => p.id === a.id)?.name).toBe('Endret');
	});

	it('finds a project of the company chosen, and creates a new one there', async () => {
		const subsidiary = projects().find(
			(p) => p.companyId !== own() && sb().sandbox.world.canAccessCompany(own(), p.companyId),
		)!;
		const company = { __rl: true, mode: 'id', value: subsidiary.companyId };
		const run = await node.run(
			{ ...MAPPING, companyId: company },
			rows({ ...rowOf(subsidiary), name: 'Datter' }, { number: 'D-1', name: 'Ny i datter' }),
		);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual(['updated', 'created']);
		expect(projects().find((p) => p.id === subsidiary.id)?.name).toBe('Datter');
		expect(byNumber('D-1')[0].companyId).toBe(subsidiary.companyId);
	});
});
