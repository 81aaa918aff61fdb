/**
 * Issue #32: Machine → Create or Update by machine number, the writes in batches through create/array and
 * update/array, through n8n's engine against the sandbox (both variants).
 */
import type { IDataObject } from 'n8n-workflow';

import { useSandbox } from '../helpers/sandbox';
import { results, rows, upsertRunner } from '../helpers/upsert';
import type { Machine } from '../sandbox/state';

const MACHINES = '/api/v4/integration/machines';
const CREATE_ARRAY = `POST ${MACHINES}/create/array`;
const UPDATE_ARRAY = `PUT ${MACHINES}/update/array`;

/** The fleet system's columns mapped onto the operation. */
const MAPPING = {
	machineNumber: '={{ $json.number }}',
	additionalFields: {
		name: '={{ $json.model }}',
		typeId: '={{ $json.type }}',
		hourMeter: '={{ $json.hours }}',
	},
};

describe('Machine → Create or Update (issue #32)', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'machine');
	const own = () => sb().clients[0].companyId;
	const machines = () => [...sb().sandbox.world.machines.values()];
	const ownMachines = () => machines().filter((m) => m.companyId === own());
	const byNumber = (number: string) => machines().filter((m) => m.machineNumber === number);
	const bare = () => sb().sandbox.world.variant.bulkMachineResult === 'bare';
	const rowOf = (m: Machine): IDataObject => ({
		number: m.machineNumber,
		model: m.name,
		type: m.typeId ?? '',
		hours: m.hourMeter ?? '',
	});
	/** A new machine's company (your own) is looked up once per ten minutes, as Create does: before counting. */
	const warm = async () => {
		await node.run(MAPPING, rows({ number: 'W-0', model: 'Warm' }));
		await node.clear();
	};

	it('creates the new and updates the changed in one request each; the unchanged cost nothing', async () => {
		await warm();
		const existing = ownMachines();
		const equipment = existing.find((m) => m.isEquipment && m.parentMachineId)!;
		const items = rows(
			...existing.map((m) =>
				m === equipment ? { ...rowOf(m), model: 'Pusseskuff 2', hours: 12.5 } : rowOf(m),
			),
			{ number: 'F-1', model: 'Volvo EC300E', type: 'excavator', hours: 10 },
			{ number: 'F-2', model: 'Cat 320', type: 'excavator' },
		);
		expect(items.length).toBeGreaterThan(10);
		const run = await node.run(MAPPING, items, true);
		expect(run.error).toBeUndefined();
		expect(results(run)).toEqual([
			...existing.map((m) => (m === equipment ? 'updated' : 'unchanged')),
			'created',
			'created',
		]);
		const out = run.items['Field Ops'];
		expect(out[existing.indexOf(equipment)].json).toMatchObject({
			result: 'updated',
			id: equipment.id,
			machineNumber: equipment.machineNumber,
			changedFields: ['hourMeter', 'name'],
		});
		expect(out[existing.length].json).toMatchObject({ result: 'created', id: byNumber('F-1')[0].id });
		expect(byNumber('F-1')[0]).toMatchObject({ companyId: own(), name: 'Volvo EC300E', hourMeter: 10 });
		// Sent whole with the changes on top: the equipment keeps its link and its other values [M2][M3].
		expect(machines().find((m) => m.id === equipment.id)).toMatchObject({
			name: 'Pusseskuff 2',
			hourMeter: 12.5,
			isEquipment: true,
			parentMachineId: equipment.parentMachineId,
			active: true,
		});
		// One list read, one create/array, one update/array; a bare answer of ids is named by one more list read [M1].
		expect(await node.requests()).toEqual({
			[`GET ${MACHINES}`]: bare() ? 2 : 1,
			[CREATE_ARRAY]: 1,
			[UPDATE_ARRAY]: 1,
		});
	});

	it('sends the writes in batches of the Batch Size', async () => {
		await warm();
		const [a, b, c] = ownMachines();
		const run = await node.run(
			{ ...MAPPING, batchSize: 2 },
			rows(
				{ ...rowOf(a), model: 'A2' },
				{ ...rowOf(b), model: 'B2' },
				{ ...rowOf(c), model: 'C2' },
				{ number: 'F-1', model: 'Ny' },
			),
		);
		expect(results(run)).toEqual(['updated', 'updated', 'updated', 'created']);
		expect(await node.requests()).toMatchObject({
			[`GET ${MACHINES}/by-machine-number/{machineNumber}`]: 4,
			[CREATE_ARRAY]: 1,
			[UPDATE_ARRAY]: 2,
		});
	});

	it('fails a repeated and a missing machine number alone', async () => {
		const [a] = ownMachines();
		const run = await node.run(
			MAPPING,
			rows({ number: 'F-1', model: 'Ny' }, { number: '', model: 'Uten' }, rowOf(a), { number: 'F-1' }),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'unchanged', 'failed']);
		expect(run.items['Field Ops'][1].json.error).toMatch(/^Machine Number to Match On is empty/);
		expect(run.items['Field Ops'][3].json.error).toMatch(/^Machine F-1: the same machine is in item 1 too/);
		expect(byNumber('F-1')).toHaveLength(1);
	});

	it('a machine Field Ops refuses in the middle of a batch fails alone; the others are saved', async () => {
		const [a] = ownMachines();
		const run = await node.run(
			MAPPING,
			rows(
				{ number: 'F-1', model: 'Ny' },
				{ number: 'F-2', model: 'Svevefartøy', type: 'hovercraft' },
				{ number: 'F-3', model: 'Ny' },
				{ ...rowOf(a), model: 'Endret' },
			),
			true,
		);
		expect(results(run)).toEqual(['created', 'failed', 'created', 'updated']);
		// The service's words where its answer itemises results; a bare list names none [M1].
		expect(run.items['Field Ops'][1].json.error).toMatch(
			bare()
				? /^Machine F-2: Field Ops did not save this machine/
				: /^Machine F-2: .*hovercraft.*Machine Type/,
		);
		expect(byNumber('F-2')).toHaveLength(0);
		expect(byNumber('F-3')).toHaveLength(1);
		expect(machines().find((m) => m.id === a.id)?.name).toBe('Endret');

		// Without Continue On Fail the others are still written; the node then stops naming the machine.
		const again = await node.run(MAPPING, rows({ number: 'F-4' }, { number: 'F-5', type: 'hovercraft' }));
		expect(again.error?.message).toMatch(/^Machine F-5: .*\[item 2 \(n8n: item 1\)\]$/);
		expect((again.error as { description?: string }).description).toMatch(/The other items: 1 created/);
		expect(byNumber('F-4')).toHaveLength(1);
	});
});
