import { z } from 'zod';

import {
	ApiError,
	badRequest,
	parseWith,
	queryBool,
	type Caller,
	type ErrorDetail,
	type Reply,
	type RequestContext,
} from '../http';
import type { Router } from '../router';
import type { Machine, World } from '../state';
import { ensureAccess, ensureCompany } from './access';
import { inListScope } from './projects';
import {
	created,
	defaultsOf,
	deleted,
	isoDate,
	key,
	parseElement,
	shownTimes,
	text,
	written,
} from './schema';

const machineFields = {
	name: text().nullable(),
	typeId: text(200).nullable(),
	active: z.boolean(),
	isEquipment: z.boolean(),
	department: text(200).nullable(),
	costPriceMachine: z.number().finite().nullable(),
	costPrice: z.number().finite().nullable(),
	price: z.number().finite().nullable(),
	weight: z.number().finite().nullable(),
	capacity: z.number().finite().nullable(),
	note: text(10_000).nullable(),
	buildYear: z.number().int().min(1900).max(2200).nullable(),
	emissionClass: text(100).nullable(),
	hourMeter: z.number().finite().nullable(),
	serviceDate: isoDate.nullable(),
	purchasedDate: isoDate.nullable(),
	serialNumber: text(200).nullable(),
	engineNumber: text(200).nullable(),
	registrationNumber: text(200).nullable(),
	responsibleId: text(200).nullable(),
	responsibleEmployeeNumber: text(200).nullable(),
	/** The parent machine of a piece of equipment. */
	parentMachineId: text(200).nullable(),
};
const required = { companyId: key, machineNumber: key };
const createSchema = z.object(machineFields).partial().extend(required).strict();
const patchSchema = z
	.object({ ...machineFields, ...required })
	.partial()
	.strict();
const updateItemSchema = patchSchema.extend({ id: key });
/** [M2] An element of update/array as a complete object (PUT semantics). */
const replaceItemSchema = createSchema.extend({ id: key });
const bulkSchema = z.array(z.unknown()).max(10_000);
const esgSchema = z
	.object({
		fuelConsumptionRate: z.number().finite().min(0),
		fuelConsumptionUnit: z.number().int().min(0).max(5),
		fuelType: z.number().int().min(0).max(7),
	})
	.partial()
	.strict()
	.refine(
		(body) => Object.keys(body).length > 0,
		'send at least one of fuelConsumptionRate, fuelConsumptionUnit, fuelType',
	);

/** What a machine field is when not sent on create, and what PUT resets it to. */
const MACHINE_DEFAULTS = { ...defaultsOf(machineFields), name: null, typeId: null, parentMachineId: null };

export const MACHINE_TYPE_INVALID = 'MachineService.machineTypeInvalid';

/** The fields `validate` checks, of a machine being created (no id yet) or changed. */
type MachineData = Pick<Machine, 'companyId' | 'machineNumber' | 'isEquipment'> & {
	id?: string;
	typeId?: string | null;
	parentMachineId?: string | null;
};

/**
 * A machine's typeId must be a type of its company (equipment is not checked, spec); machineNumber is unique
 * in the company; only equipment has a parent, and that parent is a machine of the same company.
 */
function validate(world: World, machine: MachineData): void {
	for (const m of world.machines.values()) {
		if (
			m.companyId === machine.companyId &&
			m.machineNumber === machine.machineNumber &&
			m.id !== machine.id
		) {
			throw badRequest(
				`machineNumber ${machine.machineNumber} is already used by another machine of the company`,
				'machineNumber',
				'Duplicate',
			);
		}
	}
	if (
		!machine.isEquipment &&
		typeof machine.typeId === 'string' &&
		!world.machineTypes.some((t) => t.companyId === machine.companyId && t.typeId === machine.typeId)
	) {
		const message = `Machine type "${machine.typeId}" is not a machine type of the company`;
		throw new ApiError(400, message, [
			{ category: 'Validation', code: MACHINE_TYPE_INVALID, field: 'typeId', message },
		]);
	}
	if (typeof machine.parentMachineId === 'string') {
		const parent = world.machines.get(machine.parentMachineId);
		if (!machine.isEquipment)
			throw badRequest('parentMachineId is only for equipment (isEquipment true)', 'parentMachineId');
		if (!parent || parent.isEquipment || parent.companyId !== machine.companyId) {
			throw badRequest(
				`parentMachineId ${machine.parentMachineId} is not a machine of the same company`,
				'parentMachineId',
			);
		}
	}
	if (machine.isEquipment && machine.id && linkedEquipment(world, machine.id).length > 0) {
		throw badRequest('isEquipment cannot be true while equipment is linked to this machine', 'isEquipment');
	}
}

const linkedEquipment = (world: World, machineId: string) =>
	[...world.machines.values()].filter((m) => m.parentMachineId === machineId);

/** [M3] The link field as the client names it: the sandbox's `parentMachineId`, or `parentId`. */
function renameLinkIn(world: World, body: unknown): unknown {
	if (
		world.variant.equipmentLinkField === 'parentMachineId' ||
		!body ||
		typeof body !== 'object' ||
		Array.isArray(body)
	)
		return body;
	const { parentMachineId, parentId, ...rest } = body as Record<string, unknown>;
	if (parentMachineId !== undefined && world.variant.unknownFields === 'refused')
		throw badRequest("Unrecognized key(s) in object: 'parentMachineId'", 'parentMachineId');
	return parentId === undefined ? rest : { ...rest, parentMachineId: parentId };
}

async function machineBody<T>(ctx: RequestContext, world: World, schema: z.ZodType<T>): Promise<T> {
	return parseWith(schema, renameLinkIn(world, await ctx.json()), ctx.ignoreUnknownFields);
}

function view(world: World, machine: Machine, withEquipment = false): Record<string, unknown> {
	const shown: Record<string, unknown> = shownTimes(world, { ...machine });
	if (world.variant.equipmentLinkField !== 'parentMachineId') {
		delete shown.parentMachineId;
		shown[world.variant.equipmentLinkField] = machine.parentMachineId;
	}
	// [M4] The linked equipment, under the variant's name.
	if (withEquipment)
		shown[world.variant.equipmentListField] = linkedEquipment(world, machine.id).map((m) => view(world, m));
	return shown;
}

function create(world: World, caller: Caller, body: z.infer<typeof createSchema>): Machine {
	ensureCompany(world, caller, body.companyId);
	const data = { ...MACHINE_DEFAULTS, ...body } as MachineData;
	validate(world, data);
	const now = world.clock.iso();
	const machine = { ...data, id: world.newId(), createdDateTime: now, modifiedDateTime: now } as Machine;
	world.machines.set(machine.id, machine);
	return machine;
}

/** PUT: every field not sent goes back to its default; ESG values are set through /esg only [M6]. */
function replace(
	world: World,
	caller: Caller,
	existing: Machine,
	body: z.infer<typeof createSchema>,
): Machine {
	ensureCompany(world, caller, body.companyId);
	const { fuelConsumptionRate, fuelConsumptionUnit, fuelType } = existing;
	const esg =
		world.variant.esgOnReplace === 'kept' ? { fuelConsumptionRate, fuelConsumptionUnit, fuelType } : {};
	const replaced = {
		...MACHINE_DEFAULTS,
		...esg,
		...body,
		id: existing.id,
		createdDateTime: existing.createdDateTime,
		modifiedDateTime: world.clock.iso(),
	} as Machine;
	validate(world, replaced);
	world.machines.set(existing.id, replaced);
	return replaced;
}

function patch(world: World, caller: Caller, existing: Machine, body: z.infer<typeof patchSchema>): Machine {
	if (body.companyId !== undefined) ensureCompany(world, caller, body.companyId);
	validate(world, { ...existing, ...body });
	return Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
}

/**
 * Per-item result of the bulk endpoints (shape not shown in the spec; see README.md): one entry per request
 * element, in order: `{index, success, id, machineNumber, errors}` plus `message` when it failed.
 */
function bulkResult(index: number, element: unknown, run: () => Machine) {
	try {
		const machine = run();
		return {
			machine,
			index,
			success: true,
			id: machine.id,
			machineNumber: machine.machineNumber,
			errors: [] as ErrorDetail[],
		};
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		const sent = (element ?? {}) as { id?: unknown; machineNumber?: unknown };
		const echo = (value: unknown) => (typeof value === 'string' ? value : null);
		return {
			index,
			success: false,
			id: echo(sent.id),
			machineNumber: echo(sent.machineNumber),
			message: error.message,
			errors: error.errors,
		};
	}
}

/**
 * A machine with linked equipment cannot be deleted (the equipment would be orphaned). Machine registrations
 * do not count: the reporting feed seeds them lazily over whatever machines exist at its first read, so a
 * machine created just before would turn undeletable at random.
 */
function deletable(world: World, machine: Machine): boolean {
	// [M5] Or always: a deleted machine's equipment is unlinked.
	return world.variant.machineDeletable === 'always' || linkedEquipment(world, machine.id).length === 0;
}

/**
 * [M1] The answer of a bulk call: the per-item results in order, or a bare array of what was saved (ids on
 * create, machines on update; failed elements are left out).
 */
function bulkAnswer(
	world: World,
	results: ReturnType<typeof bulkResult>[],
	saved: 'ids' | 'machines',
): Reply {
	if (world.variant.bulkMachineResult === 'itemised')
		return { status: 200, json: results.map(({ machine: _m, ...result }) => result) };
	const machines = results.flatMap((r) => (r.success && r.machine ? [r.machine] : []));
	return {
		status: 200,
		json: saved === 'ids' ? machines.map((m) => m.id) : machines.map((m) => view(world, m)),
	};
}

const withEquipment = (ctx: RequestContext) => queryBool(ctx, 'includeEquipmentDetails') ?? false;

export function registerMachines(router: Router): void {
	const base = '/api/v4/integration/machines';
	const find = (world: World, caller: Caller, id: string) =>
		ensureAccess(world, caller, world.machines.get(id), 'Machine', id);

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => {
		return created(world, view(world, create(world, ctx.auth, await machineBody(ctx, world, createSchema))));
	});

	router.core('POST', `${base}/create/array`, async (ctx, { world }) => {
		const elements = await ctx.json(bulkSchema);
		const results = elements.map((element, index) =>
			bulkResult(index, element, () =>
				create(world, ctx.auth, parseElement(createSchema, renameLinkIn(world, element), world)),
			),
		);
		return bulkAnswer(world, results, 'ids');
	});

	router.core('PUT', `${base}/update/array`, async (ctx, { world }) => {
		const elements = await ctx.json(bulkSchema);
		const results = elements.map((element, index) =>
			bulkResult(index, element, () => {
				const sent = renameLinkIn(world, element);
				// [M2] Each element changes only what it sends, or is the complete machine (PUT semantics).
				if (world.variant.bulkUpdate === 'replace') {
					const { id, ...machine } = parseElement(replaceItemSchema, sent, world);
					return replace(world, ctx.auth, find(world, ctx.auth, id), machine);
				}
				const { id, ...changes } = parseElement(updateItemSchema, sent, world);
				return patch(world, ctx.auth, find(world, ctx.auth, id), changes);
			}),
		);
		return bulkAnswer(world, results, 'machines');
	});

	router.core('GET', base, (ctx, { world }) => {
		const listed = [...world.machines.values()].filter((m) =>
			inListScope(world, ctx.auth.companyId, m.companyId),
		);
		return { status: 200, json: listed.map((m) => view(world, m, withEquipment(ctx))) };
	});

	router.core('GET', `${base}/{id}`, (ctx, { world }) => ({
		status: 200,
		json: view(world, find(world, ctx.auth, ctx.params.id), withEquipment(ctx)),
	}));

	router.core('GET', `${base}/by-machine-number/{machineNumber}`, (ctx, { world }) => {
		// [C5] The caller's own company; or its whole structure, own company first.
		const order =
			world.variant.listScope === 'ownCompany' ? [ctx.auth.companyId] : world.companyTree(ctx.auth.companyId);
		const machine = [...world.machines.values()]
			.filter((m) => order.includes(m.companyId) && m.machineNumber === ctx.params.machineNumber)
			.sort((a, b) => order.indexOf(a.companyId) - order.indexOf(b.companyId))[0];
		return {
			status: 200,
			json: view(
				world,
				ensureAccess(world, ctx.auth, machine, 'Machine with number', ctx.params.machineNumber),
				withEquipment(ctx),
			),
		};
	});

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = find(world, ctx.auth, ctx.params.id);
		const body = await machineBody(ctx, world, createSchema);
		return written(world, view(world, replace(world, ctx.auth, existing, body)));
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = find(world, ctx.auth, ctx.params.id);
		return written(
			world,
			view(world, patch(world, ctx.auth, existing, await machineBody(ctx, world, patchSchema))),
		);
	});

	router.core('PATCH', `${base}/{id}/esg`, async (ctx, { world }) => {
		const existing = find(world, ctx.auth, ctx.params.id);
		Object.assign(existing, await ctx.json(esgSchema), { modifiedDateTime: world.clock.iso() });
		return written(world, view(world, existing));
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = find(world, ctx.auth, ctx.params.id);
		if (!deletable(world, existing))
			throw badRequest(
				`Machine ${existing.machineNumber} has linked equipment and cannot be deleted`,
				'id',
				'NotDeletable',
			);
		const answer = view(world, existing);
		world.machines.delete(existing.id);
		for (const equipment of linkedEquipment(world, existing.id)) equipment.parentMachineId = null;
		return deleted(world, answer);
	});

	router.core('GET', `${base}/is-machine-deletable/{id}`, (ctx, { world }) => ({
		status: 200,
		json: deletable(world, find(world, ctx.auth, ctx.params.id)),
	}));

	router.core('GET', '/api/MachineType', (ctx, { world }) => ({
		status: 200,
		json: world.machineTypes
			.filter((t) => inListScope(world, ctx.auth.companyId, t.companyId))
			// [M7] Each type's name under the variant's field name.
			.map(({ typeId, name }) => ({ typeId, [world.variant.machineTypeNameField]: name })),
	}));
}
