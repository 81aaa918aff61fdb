/**
 * Issue #24, "sent wrongly or missing": one test per line, each through n8n's engine and the sandbox over HTTP.
 * What the sandbox received (its state and its request counts) is the evidence, not what the node says it did.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { FIELD_OPS_NODE, fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const DAY = 86_400_000;

describe('Issue #24: every write true to the spec', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const world = () => sb().sandbox.world;
	const companyId = () => sb().clients[0].companyId;
	const project = () => [...world().projects.values()].find((p) => p.companyId === companyId() && p.active)!;
	const tasks = () => [...world().tasks.values()];
	const run = async (parameters: INodeParameters, continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow(parameters, { continueOnFail }));
	/** Requests the sandbox received since the test began, token requests left out. */
	const received = async () =>
		Object.keys(
			(await call(sb().coreUrl, '/__sandbox/stats')).body.requests as Record<string, number>,
		).filter((request) => request !== 'POST /connect/token');
	const day = (offset: number) =>
		`${new Date(world().clock.nowMs() + offset * DAY).toISOString().slice(0, 10)}T00:00:00`;
	/** The error a run stopped with (message and description), for refusals before sending. */
	const stoppedWith = (result: Awaited<ReturnType<typeof run>>) => {
		const error = result.nodeErrors['Field Ops'] as (Error & { description?: string }) | undefined;
		return { name: error?.name, text: `${error?.message ?? ''}\n${error?.description ?? ''}` };
	};
	const description = () =>
		(harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType).description;
	/** The parameters n8n itself marks as missing or wrong (what stops a run from the editor). */
	const issuesOf = (parameters: Record<string, unknown>) => {
		const node = {
			id: 'n',
			name: 'Field Ops',
			type: FIELD_OPS_NODE,
			typeVersion: 1,
			position: [0, 0],
			parameters,
		} as unknown as INode;
		node.parameters =
			NodeHelpers.getNodeParameters(
				description().properties,
				node.parameters,
				true,
				false,
				node,
				description(),
			) ?? {};
		return (
			NodeHelpers.getNodeParametersIssues(description().properties, node, description())?.parameters ?? {}
		);
	};
	/** The texts of the parameters shown for an operation (labels, hints, descriptions, notices). */
	const textsOf = (resource: string, operation: string, name: string) =>
		description()
			.properties.filter(
				(p: INodeProperties) =>
					p.name === name &&
					p.displayOptions?.show?.resource?.includes(resource) &&
					p.displayOptions?.show?.operation?.includes(operation),
			)
			.map((p: INodeProperties) => [p.displayName, p.hint, p.description].filter(Boolean).join(' '))
			.join('\n');
	const workOrder = async (extra: Record<string, unknown> = {}) => {
		const result = await run({
			resource: 'workOrder',
			operation: 'create',
			project: rl('id', project().id),
			externalId: 'W24-1',
			name: 'Grøft',
			...extra,
		});
		if (result.error) throw result.error;
		return tasks().find((t) => t.externalId === 'W24-1')!;
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('work order Create, Update and Replace send External Dimension 2 (externalDim02)', async () => {
		const created = await workOrder({ additionalFields: { externalDim02: 'K-100' } });
		expect(created.externalDim02).toBe('K-100');
		await run({
			resource: 'workOrder',
			operation: 'update',
			workOrder: rl('id', created.id),
			updateFields: { externalDim02: 'K-200' },
		});
		expect(world().tasks.get(created.id)?.externalDim02).toBe('K-200');
		await run({
			resource: 'workOrder',
			operation: 'replace',
			project: rl('id', project().id),
			workOrder: rl('id', created.id),
			externalId: 'W24-1',
			name: 'Grøft',
			additionalFields: { externalDim02: 'K-300' },
		});
		expect(world().tasks.get(created.id)?.externalDim02).toBe('K-300');
	});

	it('employee Set Tags with an empty list sends [] and removes every tag', async () => {
		const person = [...world().people.values()].find((p) => p.companyId === companyId())!;
		const employee = rl('employeeNumber', person.employeeNumber);
		const first = await run({
			resource: 'employee',
			operation: 'setTags',
			employee,
			tags: { assignment: [{ tagName: 'Førstehjelp' }] },
		});
		if (first.error) throw first.error;
		const tags = () => [...world().people.values()].find((p) => p.identityId === person.identityId)?.tags;
		expect(tags()?.length).toBeGreaterThan(0);

		const emptied = await run({ resource: 'employee', operation: 'setTags', employee, tags: {} });
		expect(emptied.error).toBeUndefined();
		expect(tags()).toEqual([]);
	});

	it('Search Projects with no text is refused before sending, naming Search Text', async () => {
		// n8n itself stops an empty field; an expression that gives nothing reaches the node.
		const result = await run({
			resource: 'lookup',
			operation: 'searchProjects',
			searchString: '={{ $json.text ?? "" }}',
		});
		expect(stoppedWith(result)).toEqual({
			name: 'NodeOperationError',
			text: expect.stringMatching(/Search Text is empty[\s\S]*e\.g\./),
		});
		expect(await received()).toEqual([]);
	});

	/** One existing record per resource, as its operation's locator gives it. */
	const targets = (): Record<string, Record<string, unknown>> => {
		const machine = [...world().machines.values()].find((m) => m.companyId === companyId())!;
		const task = tasks().find((t) => t.companyId === companyId() && !t.isTemplate)!;
		const person = [...world().people.values()].find((p) => p.companyId === companyId())!;
		return {
			project: { project: rl('id', project().id) },
			machine: { machine: rl('id', machine.id) },
			workOrder: { project: rl('id', task.projectId), workOrder: rl('id', task.id) },
			user: { user: rl('profileId', person.companyProfileId) },
			employee: { employee: rl('employeeNumber', person.employeeNumber) },
		};
	};

	it.each([
		['project', 'update', /Update Fields/],
		['machine', 'update', /Update Fields/],
		['workOrder', 'update', /Update Fields/],
		['user', 'update', /Update Fields/],
		['employee', 'updateEmployment', /Employment Fields/],
	])(
		'%s → %s with nothing set is refused before sending, naming what to set',
		async (resource, operation, what) => {
			const result = await run({ resource, operation, ...targets()[resource] });
			expect(stoppedWith(result)).toEqual({
				name: 'NodeOperationError',
				text: expect.stringMatching(/^Nothing to update/),
			});
			expect(stoppedWith(result).text).toMatch(what);
			expect(await received()).toEqual([]);
		},
	);

	it('work order Get, Update and Delete by ID need no project', async () => {
		const created = await workOrder();
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		// n8n itself asks for nothing more (a required Project would stop a run from the editor).
		for (const operation of ['get', 'update', 'delete'])
			expect(issuesOf({ resource: 'workOrder', operation, workOrder: rl('id', created.id) })).toEqual({});
		const got = await run({ resource: 'workOrder', operation: 'get', workOrder: rl('id', created.id) });
		expect(got.error).toBeUndefined();
		expect(got.items['Field Ops'][0].json.externalId).toBe('W24-1');
		const updated = await run({
			resource: 'workOrder',
			operation: 'update',
			workOrder: rl('id', created.id),
			updateFields: { workDescriptionShort: 'Kort' },
		});
		expect(updated.error).toBeUndefined();
		expect(world().tasks.get(created.id)?.workDescriptionShort).toBe('Kort');
		const deleted = await run({
			resource: 'workOrder',
			operation: 'delete',
			workOrder: rl('id', created.id),
		});
		expect(deleted.error).toBeUndefined();
		expect(world().tasks.has(created.id)).toBe(false);
		// Only the routes by ID: no project was looked up.
		expect((await received()).filter((r) => !r.includes('/tasks'))).toEqual([]);
	});

	it('work order Replace does not carry Create’s defaults: an inactive work order stays inactive', async () => {
		const created = await workOrder({ active: false });
		expect(created.active).toBe(false);
		const replaced = await run({
			resource: 'workOrder',
			operation: 'replace',
			project: rl('id', project().id),
			workOrder: rl('id', created.id),
			externalId: 'W24-1',
			name: 'Grøft, ny',
		});
		expect(replaced.error).toBeUndefined();
		expect(world().tasks.get(created.id)).toMatchObject({ name: 'Grøft, ny', active: false });
		// Create keeps its two defaults, and says so at the field; Replace says what a PUT resets, to what.
		expect(textsOf('workOrder', 'create', 'active')).toMatch(/Field Ops’ own default is inactive/);
		expect(textsOf('workOrder', 'create', 'name')).toMatch(/Field Ops itself does not require/);
		expect(textsOf('workOrder', 'replace', 'replaceNotice')).toMatch(
			/Active becomes off.*Cost Price becomes 0.*SJA Approval Required becomes off/s,
		);
	});

	it.each([
		['a decimal break length', { workBreakLunchLength: 12.5 }, /Lunch Break Length \(Minutes\)[\s\S]*30/],
		['a build year with decimals', { buildYear: 2019.5 }, /Build Year[\s\S]*2019/],
		[
			'25:00 as a time of day',
			{ workBreakDinnerStartTime: '={{ "25:00" }}' },
			/Dinner Break Start[\s\S]*17:00/,
		],
	])('refuses %s before sending, naming the field and an accepted value', async (_, fields, message) => {
		const isMachine = 'buildYear' in fields;
		const result = await run(
			isMachine
				? { resource: 'machine', operation: 'create', machineNumber: 'M24-1', additionalFields: fields }
				: { resource: 'project', operation: 'create', projectNumber: 'P24-1', additionalFields: fields },
		);
		expect(stoppedWith(result).name).toBe('NodeOperationError');
		expect(stoppedWith(result).text).toMatch(message);
		expect((await received()).filter((r) => r.startsWith('POST'))).toEqual([]);
	});

	it.each([
		['workOrder', 'External ID', 'W24-AGAIN', 'Work Order → Update'],
		['project', 'Project Number', 'P24-AGAIN', 'Project → Update'],
		['machine', 'Machine Number', 'M24-AGAIN', 'Machine → Update'],
	])(
		'a %s created again with the same number says to use Update, or which value to change',
		async (resource, label, value, update) => {
			const fields: Record<string, INodeParameters> = {
				workOrder: { project: rl('id', project().id), externalId: value, name: 'Igjen' },
				project: { projectNumber: value },
				machine: { machineNumber: value },
			};
			const parameters = { resource, operation: 'create', ...fields[resource] };
			expect((await run(parameters)).error).toBeUndefined();
			const again = stoppedWith(await run(parameters));
			expect(again.text).toContain(`${label} "${value}" already exists`);
			expect(again.text).toContain(`use ${update} with`);
			expect(again.text).toContain(`give a new ${label}`);
		},
	);

	it('user (v4) Card Expiration Date is sent as an ISO 8601 date-time, its time kept, whatever the Date Format', async () => {
		const result = await run({
			resource: 'user',
			operation: 'create',
			companyId: companyId(),
			employeeNumber: 'U24-1',
			firstName: 'Kari',
			lastName: 'Nordmann',
			mobileWork: '+4799924001',
			birthDate: '1980-02-01T00:00:00',
			employmentStartDate: day(-30),
			dateFormat: 'dd.MM.yyyy',
			additionalFields: { cardExpirationDate: '2027-03-31T15:30:00' },
		});
		expect(result.error).toBeUndefined();
		const person = [...world().people.values()].find((p) => p.employeeNumber === 'U24-1')!;
		expect(String(person.cardExpirationDate)).toMatch(/^2027-03-31T15:30/);
		// The v4 dates the spec gives formats keep the chosen Date Format.
		expect(person.birthDate).toMatch(/^1980-02-01/);
	});

	it('a project given by number on a lookup route is found through the lookup routes, not the v4 ones', async () => {
		const target = project();
		const result = await run({
			resource: 'lookup',
			operation: 'getProject',
			project: rl('projectNumber', target.projectNumber),
		});
		expect(result.error).toBeUndefined();
		const requests = await received();
		expect(requests.some((r) => r.startsWith('GET /api/projects/search'))).toBe(true);
		expect(requests.filter((r) => r.includes('/api/v4/'))).toEqual([]);
	});
});
