import type { INodeExecutionData } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

describe('Field Ops → Machine', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const machines = () => [...sb().sandbox.world.machines.values()];
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	const run = async (
		parameters: Record<string, unknown>,
		items?: INodeExecutionData[],
		continueOnFail = false,
	) =>
		await harness.run(fieldOpsWorkflow({ resource: 'machine', ...parameters }, { continueOnFail }), {
			triggerItems: items,
		});
	/** The machines a test needs, created by the test itself (each test starts from the seed); counted requests start after. */
	const given = async (...machineNumbers: string[]) => {
		for (const machineNumber of machineNumbers) {
			// M-900 as the first test creates it; the others as Create Many names them.
			const additionalFields =
				machineNumber === 'M-900' ? { name: 'Volvo EC300E', typeId: 'excavator' } : { name: 'Bulk' };
			const result = await run({
				operation: 'create',
				companyId: companyId(),
				machineNumber,
				additionalFields,
			});
			if (result.error) throw result.error;
		}
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('creates a machine whose type is checked, and explains an unknown type', async () => {
		const ok = await run({
			operation: 'create',
			companyId: companyId(),
			machineNumber: 'M-900',
			additionalFields: { name: 'Volvo EC300E', typeId: 'excavator' },
		});
		expect(ok.error).toBeUndefined();
		expect(machines().find((m) => m.machineNumber === 'M-900')).toMatchObject({
			name: 'Volvo EC300E',
			typeId: 'excavator',
		});

		const bad = await run(
			{
				operation: 'create',
				companyId: companyId(),
				machineNumber: 'M-901',
				additionalFields: { typeId: 'hovercraft' },
			},
			undefined,
			true,
		);
		const message = String(bad.items['Field Ops'][0].json.error);
		expect(message).toMatch(/hovercraft/);
		const error = bad.items['Field Ops'][0].error as { description?: string } | undefined;
		expect(`${message} ${error?.description ?? ''}`).toMatch(/Machine Type/);

		const duplicate = await run(
			{ operation: 'create', companyId: companyId(), machineNumber: 'M-900' },
			undefined,
			true,
		);
		expect(String(duplicate.items['Field Ops'][0].json.error)).toMatch(/machineNumber|Machine Number/);
		expect(machines().filter((m) => m.machineNumber === 'M-900')).toHaveLength(1);
	});

	it('creates many machines in one request; a failing item in the middle fails alone', async () => {
		await given('M-900');
		const items = ['B-1', 'B-2', 'M-900', 'B-4', 'B-5'].map((machineNumber) => ({ json: { machineNumber } }));
		const result = await run(
			{
				operation: 'createMany',
				companyId: companyId(),
				machineNumber: '={{ $json.machineNumber }}',
				additionalFields: { name: 'Bulk' },
			},
			items,
			true,
		);

		expect((await stats()).requests['POST /api/v4/integration/machines/create/array']).toBe(1);
		const output = result.items['Field Ops'];
		expect(output).toHaveLength(5);
		expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2, 3, 4]);
		expect(output[2].json.error).toMatch(/item 3.*Machine Number M-900 is already used/);
		expect((output[2].error as { description?: string }).description).toMatch(
			/^Give another Machine Number, or use Update/,
		);
		expect(output.filter((item) => item.json.success === true)).toHaveLength(4);
		expect(
			machines()
				.filter((m) => m.name === 'Bulk')
				.map((m) => m.machineNumber)
				.sort(),
		).toEqual(['B-1', 'B-2', 'B-4', 'B-5']);
	});

	it('without Continue On Fail, stops naming the failed item and how many others were saved', async () => {
		await given('M-900');
		const items = ['C-1', 'M-900'].map((machineNumber) => ({ json: { machineNumber } }));
		const result = await run(
			{ operation: 'createMany', companyId: companyId(), machineNumber: '={{ $json.machineNumber }}' },
			items,
		);
		expect(result.error?.message).toMatch(/item 2/);
		expect((result.error as { description?: string }).description).toMatch(/other 1 item/);
		expect(machines().some((m) => m.machineNumber === 'C-1')).toBe(true);
	});

	it('updates many machines in batches of the chosen size', async () => {
		await given('B-1', 'B-2', 'B-4', 'B-5');
		const targets = machines().filter((m) => m.name === 'Bulk');
		// [M3] Equipment linked to a machine (the link field the node cannot name): it stays linked.
		Object.assign(targets[0], { isEquipment: true, parentMachineId: targets[1].id });
		const items = targets.map((m) => ({ json: { id: m.id } }));
		const result = await run(
			{ operation: 'updateMany', updateFields: { note: 'Service done' }, batchSize: 3 },
			items,
		);
		expect(result.error).toBeUndefined();
		expect((await stats()).requests['PUT /api/v4/integration/machines/update/array']).toBe(
			Math.ceil(targets.length / 3),
		);
		expect(targets.every((m) => sb().sandbox.world.machines.get(m.id)?.note === 'Service done')).toBe(true);
		// [M2] Fields the items do not set keep their values, also where an element is a complete machine.
		expect(targets.map((m) => sb().sandbox.world.machines.get(m.id)?.name)).toEqual(
			targets.map(() => 'Bulk'),
		);
		expect(sb().sandbox.world.machines.get(targets[0].id)).toMatchObject({
			isEquipment: true,
			parentMachineId: targets[1].id,
		});
	});

	it('Update Many: an item without a machine ID fails alone and is never sent', async () => {
		await given('B-1', 'B-2', 'B-4', 'B-5');
		const [first, second] = machines().filter((m) => m.name === 'Bulk');
		const items = [{ json: { id: first.id } }, { json: { note: 'no id' } }, { json: { id: second.id } }];
		const result = await run({ operation: 'updateMany', updateFields: { hourMeter: 1234 } }, items, true);
		const output = result.items['Field Ops'];
		expect(output.map((item) => (item.pairedItem as { item: number }).item)).toEqual([0, 1, 2]);
		expect(output[1].json.error).toMatch(/item 2.*Machine is empty/);
		expect(output[0].json).toMatchObject({ id: first.id, success: true });
		expect((await stats()).requests['PUT /api/v4/integration/machines/update/array']).toBe(1);
		expect([first, second].map((m) => sb().sandbox.world.machines.get(m.id)?.hourMeter)).toEqual([
			1234, 1234,
		]);
	});

	it('gets a machine by a number with characters that must be encoded, as one path segment', async () => {
		const result = await run({ operation: 'get', machine: rl('machineNumber', 'M/1|%..') }, undefined, true);
		expect(String(result.items['Field Ops'][0].json.error)).toContain('M/1|%..');
		expect(
			(await stats()).requests['GET /api/v4/integration/machines/by-machine-number/{machineNumber}'],
		).toBe(1);
	});

	it('refuses an ESG update with no field before any request, and sets fuel data', async () => {
		await given('M-900');
		const machine = machines().find((m) => m.machineNumber === 'M-900')!;
		const empty = await run(
			{ operation: 'updateEsg', machine: rl('id', machine.id), esgFields: {} },
			undefined,
			true,
		);
		expect(empty.items['Field Ops'][0].json.error).toMatch(/at least one ESG field/);
		expect((await stats()).requests['PATCH /api/v4/integration/machines/{id}/esg']).toBeUndefined();

		await run({
			operation: 'updateEsg',
			machine: rl('id', machine.id),
			esgFields: { fuelType: 4, fuelConsumptionUnit: 2, fuelConsumptionRate: 12.5 },
		});
		expect(sb().sandbox.world.machines.get(machine.id)).toMatchObject({
			fuelType: 4,
			fuelConsumptionUnit: 2,
			fuelConsumptionRate: 12.5,
		});
	});

	it('lists machines, updates only the given fields, and Replace resets what it does not send', async () => {
		await given('M-900');
		const all = await run({ operation: 'getAll', returnAll: true, includeEquipmentDetails: true });
		expect(all.error).toBeUndefined();
		expect(all.items['Field Ops'].map((i) => i.json.id)).toContain(
			machines().find((m) => m.machineNumber === 'M-900')!.id,
		);
		expect((await stats()).requests['GET /api/v4/integration/machines']).toBe(1);

		const machine = machines().find((m) => m.machineNumber === 'M-900')!;
		await run({
			operation: 'update',
			machine: rl('id', machine.id),
			updateFields: { serialNumber: 'SN-77' },
		});
		expect(sb().sandbox.world.machines.get(machine.id)).toMatchObject({
			serialNumber: 'SN-77',
			name: 'Volvo EC300E',
		});

		await run({
			operation: 'replace',
			machine: rl('machineNumber', 'M-900'),
			companyId: companyId(),
			machineNumber: 'M-900',
			additionalFields: { name: 'Volvo EC300E', typeId: 'excavator' },
		});
		expect(sb().sandbox.world.machines.get(machine.id)?.serialNumber ?? null).toBeNull();

		const one = await run({
			operation: 'get',
			machine: rl('machineNumber', 'M-900'),
			includeEquipmentDetails: true,
		});
		expect(one.items['Field Ops'][0].json).toMatchObject({ id: machine.id, machineNumber: 'M-900' });
	});

	it('checks deletability and deletes', async () => {
		await given('M-900');
		const machine = machines().find((m) => m.machineNumber === 'M-900')!;
		const check = await run({ operation: 'checkDeletable', machine: rl('machineNumber', 'M-900') });
		expect(check.items['Field Ops'][0].json).toEqual({ machine: 'M-900', deletable: true });
		await run({ operation: 'delete', machine: rl('id', machine.id) });
		expect(sb().sandbox.world.machines.has(machine.id)).toBe(false);
	});
});
