import type { INodeExecutionData, INodeParameters } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
const pairs = (items: INodeExecutionData[]) =>
	items.map((item) => (item.pairedItem as { item: number }).item);

/** Every kind of operation pairs each output item with the input item it came from, with several inputs. */
describe('paired items', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const ownProjects = () =>
		[...sb().sandbox.world.projects.values()].filter((p) => p.companyId === companyId());
	const run = async (parameters: INodeParameters, items: INodeExecutionData[]) =>
		(await harness.run(fieldOpsWorkflow(parameters), { triggerItems: items })).items['Field Ops'];

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('one request per item (declarative): the answer of each item is paired with it', async () => {
		const [a, b, c] = ownProjects();
		const output = await run(
			{ resource: 'project', operation: 'get', project: rl('id', '={{ $json.id }}') },
			[a, b, c].map((p) => ({ json: { id: p.id } })),
		);
		expect(output.map((item) => item.json.id)).toEqual([a.id, b.id, c.id]);
		expect(pairs(output)).toEqual([0, 1, 2]);
	});

	it('a list per item: every record of an item’s list is paired with that item', async () => {
		const [a, b] = ownProjects();
		const output = await run(
			{
				resource: 'lookup',
				operation: 'getProjectWorkOrders',
				project: rl('id', '={{ $json.id }}'),
				activeInactiveAll: 2,
				returnAll: true,
			},
			[a, b].map((p) => ({ json: { id: p.id } })),
		);
		const tasksOf = (id: string) =>
			[...sb().sandbox.world.tasks.values()].filter((t) => t.projectId === id).length;
		expect(pairs(output)).toEqual([...Array(tasksOf(a.id)).fill(0), ...Array(tasksOf(b.id)).fill(1)]);
	});

	it('batches: each item gets its own result, also across batches and with a refused item', async () => {
		const numbers = ['PI-1', 'PI-2', '', 'PI-4', 'PI-5'];
		const workflow = fieldOpsWorkflow(
			{
				resource: 'machine',
				operation: 'createMany',
				companyId: companyId(),
				machineNumber: '={{ $json.number }}',
				batchSize: 2,
			},
			{ continueOnFail: true },
		);
		const output = (
			await harness.run(workflow, { triggerItems: numbers.map((number) => ({ json: { number } })) })
		).items['Field Ops'];
		expect(output.map((item) => item.json.machineNumber ?? 'refused')).toEqual([
			'PI-1',
			'PI-2',
			'refused',
			'PI-4',
			'PI-5',
		]);
		expect(pairs(output)).toEqual([0, 1, 2, 3, 4]);
	});

	it('pages: every record read for an item is paired with that item', async () => {
		const parameters = {
			resource: 'report',
			operation: 'timeRegistrations',
			syncMode: 'window',
			returnAll: false,
			limit: '={{ $json.limit }}',
			options: { pageSize: 2 },
		};
		const output = await run(parameters, [{ json: { limit: 3 } }, { json: { limit: 5 } }]);
		expect(pairs(output)).toEqual([0, 0, 0, 1, 1, 1, 1, 1]);
	});

	it('files: each downloaded file is paired with the item that asked for it', async () => {
		const project = ownProjects()[0];
		const pdf = (text: string, fileName: string) => ({
			data: Buffer.from(text).toString('base64'),
			mimeType: 'application/pdf',
			fileName,
		});
		const uploaded = await run({ resource: 'document', operation: 'upload', project: rl('id', project.id) }, [
			{ json: {}, binary: { data: pdf('one', 'one.pdf') } },
			{ json: {}, binary: { data: pdf('two', 'two.pdf') } },
		]);
		const ids = uploaded.map(
			(item) => (item.json.files as Array<{ fileReference: { id: string } }>)[0].fileReference.id,
		);
		const output = await run(
			{
				resource: 'document',
				operation: 'download',
				project: rl('id', project.id),
				fileReferenceId: '={{ $json.id }}',
			},
			[...ids].reverse().map((id) => ({ json: { id } })),
		);
		expect(output.map((item) => item.binary?.data.fileName)).toEqual(['two.pdf', 'one.pdf']);
		expect(pairs(output)).toEqual([0, 1]);
	});
});
