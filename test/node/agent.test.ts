/**
 * Issue #24, Field Ops as an AI agent's tool: each tool says what it needs and returns, and a project (or machine)
 * the model names by number or name is found, although n8n holds a model's value in the locator's By ID mode.
 */
import {
	NodeHelpers,
	type INode,
	type INodeParameters,
	type INodeProperties,
	type INodeType,
} from 'n8n-workflow';

import { RESOURCES } from '../../nodes/FieldOps/resources';
import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { FIELD_OPS_NODE, fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

/**
 * What n8n's editor writes when the user lets the model define a locator: the mode stays or becomes By ID, the value
 * a `$fromAI` expression. Here the expression gives the model's answer without an agent (the `||` never calls
 * `$fromAI`), so the node sees the raw parameter exactly as in tool mode.
 */
const fromModel = (answer: string, key = 'Project') => ({
	__rl: true,
	mode: 'id',
	value: `={{ ${JSON.stringify(answer)} || $fromAI('${key}', '', 'string') }}`,
});

describe('Field Ops as an AI agent’s tool (issue #24)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const world = () => sb().sandbox.world;
	const own = () => sb().clients[0].companyId;
	const project = () => [...world().projects.values()].find((p) => p.companyId === own() && p.active)!;
	const workOrdersOf = (projectId: string) =>
		[...world().tasks.values()]
			.filter((t) => t.projectId === projectId && !t.isTemplate)
			.map((t) => t.id)
			.sort();
	const run = async (parameters: INodeParameters) => await harness.run(fieldOpsWorkflow(parameters));
	const listed = (result: Awaited<ReturnType<typeof run>>) =>
		result.items['Field Ops'].map((i) => i.json.id as string).sort();

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});

	it('describes each operation to the agent, on the tool only: what it does, needs and returns', () => {
		const { properties } = (harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType)
			.description;
		const descriptions = properties.filter((p: INodeProperties) => p.name === 'toolDescription');
		const operations = RESOURCES.flatMap((r) => r.operations.map((o) => `${r.value}.${o.value}`));
		expect(
			descriptions
				.map((p) => `${p.displayOptions?.show?.resource}.${p.displayOptions?.show?.operation}`)
				.sort(),
		).toEqual(operations.sort());
		for (const p of descriptions) {
			expect(p.displayOptions?.show?.['@tool']).toEqual([true]);
			expect(String(p.default)).toMatch(/ in Field Ops: .+\. Needs: .+\. Returns: .+\.$/);
		}
		const workOrderList = descriptions.find(
			(p) =>
				p.displayOptions?.show?.resource?.[0] === 'workOrder' &&
				p.displayOptions?.show?.operation?.[0] === 'getAll',
		);
		expect(workOrderList?.default).toMatch(
			/Needs: Project \(its project number such as P1001, its exact name, or its ID\)/,
		);
		expect(workOrderList?.default).toMatch(/Returns: one item per work order\./);
	});

	it('keeps Return All off for a tool from node version 1.3, and tells the model on the first item whether more exist', async () => {
		const type = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1.3);
		const defaults = (name: string, typeVersion: number) =>
			NodeHelpers.getNodeParameters(
				type.description.properties,
				{ resource: 'report', operation: 'timeRegistrations' },
				true,
				false,
				{ typeVersion } as INode,
				{ ...type.description, name },
			);
		expect(defaults(FIELD_OPS_NODE, 1.3)?.returnAll).toBe(true);
		expect(defaults(`${FIELD_OPS_NODE}Tool`, 1.3)?.returnAll).toBe(false);
		expect(defaults(`${FIELD_OPS_NODE}Tool`, 1.2)?.returnAll).toBe(false);

		const report = {
			resource: 'report',
			operation: 'timeRegistrations',
			syncMode: 'window',
			period: 'custom',
		};
		const window = {
			fromDateTime: new Date(Date.now() - 90 * 86_400_000).toISOString(),
			toDateTime: new Date(Date.now() + 86_400_000).toISOString(),
			returnAll: false,
			limit: 3,
		};
		const workflow = fieldOpsWorkflow({ ...report, ...window });
		const asTool = {
			...workflow,
			nodes: workflow.nodes.map((node) =>
				node.type === FIELD_OPS_NODE ? { ...node, type: `${FIELD_OPS_NODE}Tool`, typeVersion: 1.3 } : node,
			),
		};
		const result = await harness.run(asTool);
		expect(result.error).toBeUndefined();
		const rows = result.items['Field Ops'].map((item) => item.json);
		expect(rows).toHaveLength(3);
		expect(rows[0]._report).toMatchObject({ returned: 3, moreExist: true });
		expect(rows.slice(1).map((row) => row._report)).toEqual([undefined, undefined]);
	});

	it.each([
		['its project number', () => project().projectNumber],
		['its name', () => project().name],
		['its name in other letters', () => project().name.toUpperCase()],
		['its ID', () => project().id],
	])('lists a project’s work orders for a model that names the project by %s', async (_, answer) => {
		const result = await run({
			resource: 'workOrder',
			operation: 'getAll',
			project: fromModel(answer()),
			returnAll: true,
		});
		expect(result.error).toBeUndefined();
		expect(listed(result)).toEqual(workOrdersOf(project().id));
	});

	it('says which projects a model’s words match when they match several, and which to give', async () => {
		const [first, second] = [...world().projects.values()].filter((p) => p.companyId === own());
		second.name = first.name;
		const result = await run({
			resource: 'workOrder',
			operation: 'getAll',
			project: fromModel(first.name),
			returnAll: true,
		});
		const error = result.error as Error & { description?: string };
		expect(error.message).toContain(`"${first.name}" matches 2 projects`);
		expect(error.message).toContain(first.projectNumber);
		expect(error.description).toMatch(/Give the project number/);
	});

	it('gets a machine a model names by its machine number', async () => {
		const machine = [...world().machines.values()].find((m) => m.companyId === own())!;
		const result = await run({
			resource: 'machine',
			operation: 'get',
			machine: fromModel(machine.machineNumber, 'Machine'),
		});
		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'][0].json.id).toBe(machine.id);
	});

	it('keeps a typed By ID strict: a project number there is not looked up', async () => {
		const result = await run({
			resource: 'workOrder',
			operation: 'getAll',
			project: { __rl: true, mode: 'id', value: project().projectNumber },
			returnAll: true,
		});
		expect(result.error?.message).toMatch(/not found/);
	});
});
