import { z } from 'zod';

import { ApiError, badRequest, queryBool, type ErrorDetail, type Reply } from '../http';
import type { Router } from '../router';
import type { Machine, World } from '../state';
import { ensureAccess, ensureCompany } from './access';

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time');

const machineFields = {
	name: z.string().max(500).nullable(),
	typeId: z.string().max(200).nullable(),
	active: z.boolean(),
	isEquipment: z.boolean(),
	department: z.string().max(200).nullable(),
	costPriceMachine: z.number().nullable(),
	costPrice: z.number().nullable(),
	price: z.number().nullable(),
	weight: z.number().nullable(),
	capacity: z.number().nullable(),
	note: z.string().max(10_000).nullable(),
	buildYear: z.number().int().min(1900).max(2200).nullable(),
	emissionClass: z.string().max(100).nullable(),
	hourMeter: z.number().nullable(),
	serviceDate: isoDate.nullable(),
	purchasedDate: isoDate.nullable(),
	serialNumber: z.string().max(200).nullable(),
	engineNumber: z.string().max(200).nullable(),
	registrationNumber: z.string().max(200).nullable(),
	responsibleId: z.string().max(200).nullable(),
	responsibleEmployeeNumber: z.string().max(200).nullable(),
	/** The parent machine of a piece of equipment. */
	parentMachineId: z.string().max(200).nullable(),
};
const required = { companyId: z.string().min(1).max(100), machineNumber: z.string().min(1).max(100) };
const createSchema = z.object(machineFields).partial().extend(required).strict();
const patchSchema = z.object({ ...machineFields, ...required }).partial().strict();
const updateItemSchema = patchSchema.extend({ id: z.string().min(1) });
const esgSchema = z
	.object({
		fuelConsumptionRate: z.number().min(0),
		fuelConsumptionUnit: z.number().int().min(0).max(5),
		fuelType: z.number().int().min(0).max(7),
	})
	.partial()
	.strict()
	.refine((body) => Object.keys(body).length > 0, 'send at least one of fuelConsumptionRate, fuelConsumptionUnit, fuelType');

export const MACHINE_TYPE_INVALID = 'MachineService.machineTypeInvalid';

/** A machine's typeId must be a type of its company; equipment is not checked (spec). */
function validateType(world: World, machine: { companyId: string; typeId?: string | null; isEquipment?: boolean }): void {
	if (machine.isEquipment || machine.typeId === undefined || machine.typeId === null) return;
	const known = world.machineTypes.some((t) => t.companyId === machine.companyId && t.typeId === machine.typeId);
	if (!known) {
		const message = `Machine type "${machine.typeId}" is not a machine type of the company`;
		throw new ApiError(400, message, [{ category: 'Validation', code: MACHINE_TYPE_INVALID, field: 'typeId', message }]);
	}
}

function ensureUniqueNumber(world: World, companyId: string, machineNumber: string, exceptId?: string): void {
	for (const m of world.machines.values()) {
		if (m.companyId === companyId && m.machineNumber === machineNumber && m.id !== exceptId) {
			throw badRequest(`machineNumber ${machineNumber} is already used by another machine of the company`, 'machineNumber', 'Duplicate');
		}
	}
}

function view(world: World, machine: Machine, withEquipment: boolean) {
	if (!withEquipment) return machine;
	return { ...machine, equipment: [...world.machines.values()].filter((m) => m.parentMachineId === machine.id) };
}

function create(world: World, callerCompany: { companyId: string } & Parameters<typeof ensureCompany>[1], body: z.infer<typeof createSchema>): Machine {
	ensureCompany(world, callerCompany, body.companyId);
	ensureUniqueNumber(world, body.companyId, body.machineNumber);
	validateType(world, body);
	const now = world.clock.iso();
	const machine: Machine = {
		name: null,
		typeId: null,
		active: false,
		isEquipment: false,
		parentMachineId: null,
		...body,
		id: world.newId(),
		createdDateTime: now,
		modifiedDateTime: now,
	} as Machine;
	world.machines.set(machine.id, machine);
	return machine;
}

function patch(world: World, caller: Parameters<typeof ensureCompany>[1], existing: Machine, body: z.infer<typeof patchSchema>): Machine {
	if (body.companyId !== undefined) ensureCompany(world, caller, body.companyId);
	if (body.machineNumber !== undefined) ensureUniqueNumber(world, body.companyId ?? existing.companyId, body.machineNumber, existing.id);
	validateType(world, { ...existing, ...body });
	Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
	return existing;
}

/**
 * Per-item result of the bulk endpoints (shape not shown in the spec; see core/README.md): one entry per
 * request element, in order.
 */
function bulkResult(index: number, outcome: { machine?: Machine; error?: ApiError }) {
	if (outcome.machine) return { index, success: true, id: outcome.machine.id, machineNumber: outcome.machine.machineNumber, errors: [] as ErrorDetail[] };
	const error = outcome.error as ApiError;
	return { index, success: false, id: null, machineNumber: null, message: error.message, errors: error.errors };
}

/** One element of a bulk body, validated on its own so a bad one fails alone. */
function parseElement<T>(schema: z.ZodType<T>, element: unknown): T {
	const parsed = schema.safeParse(element);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw badRequest(parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; '), String(issue?.path[0] ?? 'item'));
	}
	return parsed.data;
}

function attempt(run: () => Machine): { machine?: Machine; error?: ApiError } {
	try {
		return { machine: run() };
	} catch (error) {
		if (error instanceof ApiError) return { error };
		throw error;
	}
}

/** Machines with linked equipment cannot be deleted (the equipment would be orphaned). */
function deletable(world: World, machine: Machine): boolean {
	return ![...world.machines.values()].some((m) => m.parentMachineId === machine.id);
}

export function registerMachines(router: Router): void {
	const base = '/api/v4/integration/machines';
	const find = (world: World, id: string) => world.machines.get(id);

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => ({ status: 200, json: create(world, ctx.auth, await ctx.json(createSchema)) }));

	router.core('POST', `${base}/create/array`, async (ctx, { world }) => {
		const elements = await ctx.json(z.array(z.unknown()).max(10_000));
		return {
			status: 200,
			json: elements.map((element, index) =>
				bulkResult(
					index,
					attempt(() => create(world, ctx.auth, parseElement(createSchema, element))),
				),
			),
		};
	});

	router.core('PUT', `${base}/update/array`, async (ctx, { world }) => {
		const elements = await ctx.json(z.array(z.unknown()).max(10_000));
		return {
			status: 200,
			json: elements.map((element, index) =>
				bulkResult(
					index,
					attempt(() => {
						const { id, ...changes } = parseElement(updateItemSchema, element);
						return patch(world, ctx.auth, ensureAccess(world, ctx.auth, find(world, id), 'Machine', id), changes);
					}),
				),
			),
		};
	});

	router.core('GET', base, (ctx, { world }) => {
		const withEquipment = queryBool(ctx, 'includeEquipmentDetails') ?? false;
		const own = [...world.machines.values()].filter((m) => m.companyId === ctx.auth.companyId);
		return { status: 200, json: own.map((m) => view(world, m, withEquipment)) };
	});

	router.core('GET', `${base}/{id}`, (ctx, { world }) => {
		const machine = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id);
		return { status: 200, json: view(world, machine, queryBool(ctx, 'includeEquipmentDetails') ?? false) };
	});

	router.core('GET', `${base}/by-machine-number/{machineNumber}`, (ctx, { world }) => {
		const machine = [...world.machines.values()].find((m) => m.companyId === ctx.auth.companyId && m.machineNumber === ctx.params.machineNumber);
		return {
			status: 200,
			json: view(world, ensureAccess(world, ctx.auth, machine, 'Machine with number', ctx.params.machineNumber), queryBool(ctx, 'includeEquipmentDetails') ?? false),
		};
	});

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id);
		const body = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(world, body.companyId, body.machineNumber, existing.id);
		validateType(world, body);
		const replaced = {
			name: null,
			typeId: null,
			active: false,
			isEquipment: false,
			parentMachineId: null,
			...body,
			id: existing.id,
			createdDateTime: existing.createdDateTime,
			modifiedDateTime: world.clock.iso(),
		} as Machine;
		world.machines.set(existing.id, replaced);
		return { status: 200, json: replaced };
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id);
		return { status: 200, json: patch(world, ctx.auth, existing, await ctx.json(patchSchema)) };
	});

	router.core('PATCH', `${base}/{id}/esg`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id);
		Object.assign(existing, await ctx.json(esgSchema), { modifiedDateTime: world.clock.iso() });
		return { status: 200, json: existing };
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id);
		if (!deletable(world, existing)) throw badRequest(`Machine ${existing.machineNumber} has linked equipment and cannot be deleted`, 'id', 'NotDeletable');
		world.machines.delete(existing.id);
		return { status: 204 };
	});

	router.core('GET', `${base}/is-machine-deletable/{id}`, (ctx, { world }) => ({
		status: 200,
		json: deletable(world, ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Machine', ctx.params.id)),
	}));

	router.core('GET', '/api/MachineType', (ctx, { world }) => ({
		status: 200,
		json: world.machineTypes.filter((t) => t.companyId === ctx.auth.companyId).map(({ typeId, name }) => ({ typeId, name })),
	}));
}
