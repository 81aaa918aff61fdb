import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { MACHINE_TYPE_INVALID } from './core/machines';
import { COMPANY_IDS } from './seed';

const MACHINES = '/api/v4/integration/machines';

describe('sandbox core: machines and equipment', () => {
	const sb = useSandbox();
	let admin: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token: admin, ...options });
	const create = (fields: Record<string, unknown>) =>
		api(MACHINES, { method: 'POST', json: { companyId: COMPANY_IDS.main, ...fields } });
	const stored = (id: string) => sb().sandbox.world.machines.get(id);

	beforeAll(async () => {
		admin = await tokenFor(sb());
	});

	it('creates a machine of one of the company’s types; active and isEquipment default to false', async () => {
		const res = await create({
			machineNumber: 'MX-1',
			name: 'Volvo EC250',
			typeId: 'excavator',
			buildYear: 2020,
			serviceDate: '2026-04-01',
		});
		expect(res.status).toBe(200);
		expect(res.body).toMatchObject({
			machineNumber: 'MX-1',
			typeId: 'excavator',
			active: false,
			isEquipment: false,
			buildYear: 2020,
		});
		expect(stored(res.body.id)?.modifiedDateTime).toBe(res.body.modifiedDateTime);
	});

	it('refuses an unknown typeId on a machine with MachineService.machineTypeInvalid naming the type; equipment is not checked', async () => {
		const res = await create({ machineNumber: 'MX-2', typeId: 'hovercraft' });
		expect(res.status).toBe(400);
		expect(res.body.errors[0]).toMatchObject({ code: MACHINE_TYPE_INVALID, field: 'typeId' });
		expect(res.body.message).toContain('hovercraft');
		expect(MACHINE_TYPE_INVALID).toBe('MachineService.machineTypeInvalid');
		// Another company's type id is not a type of this company either.
		sb().sandbox.world.machineTypes.push({
			typeId: 'snowcat',
			name: 'Tråkkemaskin',
			companyId: COMPANY_IDS.other,
		});
		expect((await create({ machineNumber: 'MX-3', typeId: 'snowcat' })).body.errors[0].code).toBe(
			MACHINE_TYPE_INVALID,
		);
		const equipment = await create({ machineNumber: 'EX-1', typeId: 'anything-goes', isEquipment: true });
		expect(equipment.status).toBe(200);
		expect(equipment.body.typeId).toBe('anything-goes');
		// PATCH and PUT check too.
		const machine = await create({ machineNumber: 'MX-4' });
		expect(
			(await api(`${MACHINES}/${machine.body.id}`, { method: 'PATCH', json: { typeId: 'hovercraft' } })).body
				.errors[0].code,
		).toBe(MACHINE_TYPE_INVALID);
		expect(
			(
				await api(`${MACHINES}/${machine.body.id}`, {
					method: 'PUT',
					json: { companyId: COMPANY_IDS.main, machineNumber: 'MX-4', typeId: 'hovercraft' },
				})
			).body.errors[0].code,
		).toBe(MACHINE_TYPE_INVALID);
	});

	it('keeps machineNumber unique within the company, not across companies', async () => {
		expect((await create({ machineNumber: 'DUP-M' })).status).toBe(200);
		const dup = await create({ machineNumber: 'DUP-M', isEquipment: true });
		expect(dup.status).toBe(400);
		expect(dup.body.errors[0]).toMatchObject({ field: 'machineNumber', code: 'Duplicate' });
		expect((await create({ companyId: COMPANY_IDS.subsidiary, machineNumber: 'DUP-M' })).status).toBe(200);
	});

	it.each([
		['buildYear', 2020.5],
		['weight', 'heavy'],
		['purchasedDate', '2026-02-30'],
		['active', 'true'],
		['note', 'x'.repeat(20_000)],
	])('refuses %s = … with a 400 naming the field', async (field, value) => {
		const res = await create({ machineNumber: `BAD-${field}`, [field]: value });
		expect(res.status).toBe(400);
		expect(res.body.errors[0].field).toBe(field);
	});

	it('links equipment to a parent machine of the same company; includeEquipmentDetails lists it', async () => {
		const parent = await create({ machineNumber: 'PAR-1', typeId: 'excavator' });
		const bucket = await create({
			machineNumber: 'EQ-1',
			isEquipment: true,
			parentMachineId: parent.body.id,
			name: 'Pusseskuff',
		});
		const hammer = await create({
			machineNumber: 'EQ-2',
			isEquipment: true,
			parentMachineId: parent.body.id,
			name: 'Hammer',
		});
		expect(bucket.status).toBe(200);
		const withDetails = await api(`${MACHINES}/${parent.body.id}`, {
			query: { includeEquipmentDetails: true },
		});
		expect(withDetails.body.equipment.map((e: { id: string }) => e.id)).toEqual([
			bucket.body.id,
			hammer.body.id,
		]);
		expect((await api(`${MACHINES}/${parent.body.id}`)).body.equipment).toBeUndefined();
		const byNumber = await api(`${MACHINES}/by-machine-number/PAR-1`, {
			query: { includeEquipmentDetails: 'true' },
		});
		expect(byNumber.body.equipment).toHaveLength(2);
		const list = await api(MACHINES, { query: { includeEquipmentDetails: true } });
		expect(list.body.find((m: { id: string }) => m.id === parent.body.id).equipment).toHaveLength(2);
		expect((await api(MACHINES, { query: { includeEquipmentDetails: 'maybe' } })).status).toBe(400);
		// Only equipment has a parent, and the parent is a machine of the same company.
		expect((await create({ machineNumber: 'EQ-3', parentMachineId: parent.body.id })).status).toBe(400);
		expect(
			(await create({ machineNumber: 'EQ-4', isEquipment: true, parentMachineId: bucket.body.id })).status,
		).toBe(400);
		const foreign = [...sb().sandbox.world.machines.values()].find(
			(m) => m.companyId === COMPANY_IDS.other && !m.isEquipment,
		)!;
		expect(
			(await create({ machineNumber: 'EQ-5', isEquipment: true, parentMachineId: foreign.id })).body.errors[0]
				.field,
		).toBe('parentMachineId');
		// A machine with equipment cannot turn into equipment.
		expect(
			(await api(`${MACHINES}/${parent.body.id}`, { method: 'PATCH', json: { isEquipment: true } })).status,
		).toBe(400);
	});

	it('lists the caller’s company’s machines; finds one by id and by number; 403 for another company’s, 404 for unknown', async () => {
		const list = await api(MACHINES);
		const own = [...sb().sandbox.world.machines.values()].filter((m) => m.companyId === COMPANY_IDS.main);
		expect(list.body.map((m: { id: string }) => m.id).sort()).toEqual(own.map((m) => m.id).sort());
		expect((await api(`${MACHINES}/by-machine-number/${own[0].machineNumber}`)).body.id).toBe(own[0].id);
		const foreign = [...sb().sandbox.world.machines.values()].find((m) => m.companyId === COMPANY_IDS.other)!;
		expect((await api(`${MACHINES}/${foreign.id}`)).status).toBe(403);
		expect(
			(await api(`${MACHINES}/${foreign.id}/esg`, { method: 'PATCH', json: { fuelType: 1 } })).status,
		).toBe(403);
		expect((await api(`${MACHINES}/is-machine-deletable/${foreign.id}`)).status).toBe(403);
		const missing = await api(`${MACHINES}/by-machine-number/${encodeURIComponent('M/1|%..')}`);
		expect(missing.status).toBe(404);
		expect(missing.body.message).toContain('M/1|%..');
	});

	it('PUT replaces (omitted fields back to defaults, ESG kept); PATCH changes only what it sends', async () => {
		await create({ machineNumber: 'PUT-TAKEN' });
		const created = await create({
			machineNumber: 'PUT-M',
			name: 'Før',
			typeId: 'dumper',
			active: true,
			hourMeter: 1234,
			note: 'Notat',
		});
		await api(`${MACHINES}/${created.body.id}/esg`, { method: 'PATCH', json: { fuelType: 1 } });
		const put = await api(`${MACHINES}/${created.body.id}`, {
			method: 'PUT',
			json: { companyId: COMPANY_IDS.main, machineNumber: 'PUT-M', name: 'Etter' },
		});
		expect(put.status).toBe(200);
		expect(put.body).toMatchObject({
			name: 'Etter',
			typeId: null,
			active: false,
			isEquipment: false,
			fuelType: 1,
		});
		expect(put.body.hourMeter).toBeUndefined();
		expect(put.body.createdDateTime).toBe(created.body.createdDateTime);
		const patch = await api(`${MACHINES}/${created.body.id}`, {
			method: 'PATCH',
			json: { hourMeter: 2000, typeId: 'roller' },
		});
		expect(patch.body).toMatchObject({ name: 'Etter', hourMeter: 2000, typeId: 'roller', fuelType: 1 });
		expect(
			(await api(`${MACHINES}/${created.body.id}`, { method: 'PATCH', json: { machineNumber: 'PUT-TAKEN' } }))
				.status,
		).toBe(400);
		expect(stored(created.body.id)?.machineNumber).toBe('PUT-M');
	});

	it('PATCH /esg needs at least one valid ESG field', async () => {
		const machine = await create({ machineNumber: 'ESG-1' });
		const path = `${MACHINES}/${machine.body.id}/esg`;
		const ok = await api(path, {
			method: 'PATCH',
			json: { fuelConsumptionRate: 12.5, fuelConsumptionUnit: 0, fuelType: 7 },
		});
		expect(ok.status).toBe(200);
		expect(stored(machine.body.id)).toMatchObject({
			fuelConsumptionRate: 12.5,
			fuelConsumptionUnit: 0,
			fuelType: 7,
		});
		expect((await api(path, { method: 'PATCH', json: { fuelConsumptionUnit: 5 } })).status).toBe(200);
		for (const [body, field] of [
			[{}, 'body'],
			[{ fuelConsumptionUnit: 6 }, 'fuelConsumptionUnit'],
			[{ fuelConsumptionUnit: -1 }, 'fuelConsumptionUnit'],
			[{ fuelType: 8 }, 'fuelType'],
			[{ fuelType: 1.5 }, 'fuelType'],
			[{ fuelConsumptionRate: 'lots' }, 'fuelConsumptionRate'],
			[{ fuelType: 1, colour: 'red' }, 'body'],
		] as const) {
			const res = await api(path, { method: 'PATCH', json: body });
			expect(res.status).toBe(400);
			expect(res.body.errors[0].field).toBe(field);
		}
		expect(stored(machine.body.id)).toMatchObject({
			fuelConsumptionRate: 12.5,
			fuelConsumptionUnit: 5,
			fuelType: 7,
		});
	});

	it('create/array processes each item alone: a failing item in the middle does not stop the others', async () => {
		const res = await api(`${MACHINES}/create/array`, {
			method: 'POST',
			json: [
				{ companyId: COMPANY_IDS.main, machineNumber: 'BULK-1', typeId: 'crane' },
				{ companyId: COMPANY_IDS.main, machineNumber: 'BULK-2', typeId: 'hovercraft' },
				'not an object',
				{ companyId: COMPANY_IDS.main, machineNumber: 'BULK-1' },
				{ companyId: COMPANY_IDS.other, machineNumber: 'BULK-5' },
				{ companyId: COMPANY_IDS.main, machineNumber: 'BULK-6', isEquipment: true },
			],
		});
		expect(res.status).toBe(200);
		expect(res.body.map((r: { index: number; success: boolean }) => [r.index, r.success])).toEqual([
			[0, true],
			[1, false],
			[2, false],
			[3, false],
			[4, false],
			[5, true],
		]);
		expect(res.body[0]).toMatchObject({ machineNumber: 'BULK-1', errors: [] });
		expect(stored(res.body[0].id)?.typeId).toBe('crane');
		expect(res.body[1]).toMatchObject({
			id: null,
			machineNumber: 'BULK-2',
			errors: [{ code: MACHINE_TYPE_INVALID, field: 'typeId' }],
		});
		expect(res.body[1].message).toContain('hovercraft');
		expect(res.body[3].errors[0]).toMatchObject({ field: 'machineNumber', code: 'Duplicate' });
		expect(res.body[4].message).toContain(COMPANY_IDS.other);
		expect(stored(res.body[5].id)?.isEquipment).toBe(true);
		const numbers = [...sb().sandbox.world.machines.values()].map((m) => m.machineNumber);
		expect(numbers.filter((n) => n.startsWith('BULK-')).sort()).toEqual(['BULK-1', 'BULK-6']);
	});

	it('update/array patches each item by its id; a failing item in the middle fails alone', async () => {
		const a = await create({ machineNumber: 'UPD-1' });
		const b = await create({ machineNumber: 'UPD-2' });
		const res = await api(`${MACHINES}/update/array`, {
			method: 'PUT',
			json: [
				{ id: a.body.id, companyId: COMPANY_IDS.main, machineNumber: 'UPD-1', name: 'Første' },
				{ companyId: COMPANY_IDS.main, machineNumber: 'UPD-X', name: 'Uten id' },
				{ id: 'no-such-machine', name: 'Ukjent' },
				{ id: b.body.id, typeId: 'hovercraft' },
				{ id: b.body.id, hourMeter: 77 },
			],
		});
		expect(res.body.map((r: { success: boolean }) => r.success)).toEqual([true, false, false, false, true]);
		expect(res.body[1].errors[0].field).toBe('id');
		expect(res.body[2]).toMatchObject({ id: 'no-such-machine' });
		expect(res.body[2].message).toContain('no-such-machine');
		expect(res.body[3].errors[0].code).toBe(MACHINE_TYPE_INVALID);
		expect(stored(a.body.id)?.name).toBe('Første');
		expect(stored(b.body.id)).toMatchObject({ hourMeter: 77, typeId: null });
		expect((await api(`${MACHINES}/update/array`, { method: 'PUT', json: { id: a.body.id } })).status).toBe(
			400,
		);
	});

	it('is-machine-deletable answers a bare boolean: false while equipment is linked; DELETE follows it', async () => {
		const machine = await create({ machineNumber: 'DEL-M' });
		const equipment = await create({
			machineNumber: 'DEL-E',
			isEquipment: true,
			parentMachineId: machine.body.id,
		});
		const check = await api(`${MACHINES}/is-machine-deletable/${machine.body.id}`);
		expect(check.status).toBe(200);
		expect(check.raw.toString()).toBe('false');
		expect((await api(`${MACHINES}/${machine.body.id}`, { method: 'DELETE' })).status).toBe(400);
		expect((await api(`${MACHINES}/is-machine-deletable/${equipment.body.id}`)).raw.toString()).toBe('true');
		expect((await api(`${MACHINES}/${equipment.body.id}`, { method: 'DELETE' })).status).toBe(204);
		expect((await api(`${MACHINES}/is-machine-deletable/${machine.body.id}`)).raw.toString()).toBe('true');
		expect((await api(`${MACHINES}/${machine.body.id}`, { method: 'DELETE' })).status).toBe(204);
		expect(stored(machine.body.id)).toBeUndefined();
		expect((await api(`${MACHINES}/is-machine-deletable/${machine.body.id}`)).status).toBe(404);
	});

	it('GET /api/MachineType lists the caller’s company’s types, each with typeId', async () => {
		// Another company's type (as the typeId test adds it).
		sb().sandbox.world.machineTypes.push({
			typeId: 'snowcat',
			name: 'Tråkkemaskin',
			companyId: COMPANY_IDS.other,
		});
		const res = await api('/api/MachineType');
		expect(res.status).toBe(200);
		const expected = sb().sandbox.world.machineTypes.filter((t) => t.companyId === COMPANY_IDS.main);
		expect(res.body).toEqual(expected.map(({ typeId, name }) => ({ typeId, name })));
		expect(res.body.map((t: { typeId: string }) => t.typeId)).toContain('excavator');
		const other = await call(sb().coreUrl, '/api/MachineType', {
			token: await tokenFor(sb(), 'fieldops-other'),
		});
		expect(other.body.map((t: { typeId: string }) => t.typeId)).toContain('snowcat');
		expect(res.body.map((t: { typeId: string }) => t.typeId)).not.toContain('snowcat');
	});
});
