import { z } from 'zod';

import { ApiError, forbidden, parseIsoDate, safeParseWith, type Caller, type ErrorDetail } from '../http';
import { ENUMERATED_STATES } from '../variant';
import type { Router } from '../router';
import type { World } from '../state';

/**
 * Machine-state API. Shapes the spec does not show are the variant's choices [S1]–[S6]
 * (docs/assumptions.md).
 */
interface StateRecord {
	id: string;
	companyId: string;
	projectId: string;
	machineId: string;
	state: string;
	startTime: string;
	endTime: string;
	startMs: number;
	endMs: number;
}

const iso = z.string().refine((v) => parseIsoDate(v) !== undefined, 'must be an ISO 8601 date-time');
const recordFields = z
	.object({
		companyId: z.string().min(1).max(100),
		projectId: z.string().min(1).max(100),
		machineId: z.string().min(1).max(100),
		state: z.string().min(1).max(100),
		startTime: iso,
		endTime: iso,
	})
	.strict();
/** [S6] endTime before startTime: refused, or accepted as sent. */
const orderedRecord = recordFields.refine(
	(r) => (parseIsoDate(r.startTime) as Date) <= (parseIsoDate(r.endTime) as Date),
	{ message: 'endTime must not be before startTime', path: ['endTime'] },
);

const aggregateSchema = z
	.object({
		companyId: z.string().min(1),
		projectId: z.string().min(1),
		machineId: z.string().optional(),
		from: iso.optional(),
		to: iso.optional(),
	})
	.strict();
/** [S5] The other plausible request: several machines, startTime/endTime. */
const altAggregateSchema = z
	.object({
		companyId: z.string().min(1),
		projectId: z.string().min(1),
		machineIds: z.array(z.string()).optional(),
		startTime: iso.optional(),
		endTime: iso.optional(),
	})
	.strict();

const records = (world: World) => world.state('machine-states', () => [] as StateRecord[]);

function checkAccess(world: World, caller: Caller, companyId: string, projectId: string): void {
	if (!world.canAccessCompany(caller.companyId, companyId))
		throw forbidden(`Company ${companyId} is not accessible to this client`);
	const project = world.projects.get(projectId);
	if (!project || project.companyId !== companyId)
		throw forbidden(`Project ${projectId} is not a project of company ${companyId}`);
}

type RecordData = z.infer<typeof recordFields>;

/** Checks one record (fields, [S1] state values, [S6] time order, access) without saving it. */
function check(world: World, caller: Caller, element: unknown): RecordData {
	const schema = world.variant.stateTimeOrder === 'checked' ? orderedRecord : recordFields;
	const parsed = safeParseWith(schema, element, world.variant.unknownFields === 'ignored');
	if (!parsed.success) {
		const errors: ErrorDetail[] = parsed.error.issues.map((i) => ({
			category: 'Validation',
			code: i.code,
			field: i.path.join('.') || 'body',
			message: i.message,
		}));
		throw new ApiError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
	}
	const record = parsed.data;
	if (world.variant.stateValues === 'enumerated' && !ENUMERATED_STATES.includes(record.state)) {
		const message = `state must be one of ${ENUMERATED_STATES.join(', ')}`;
		throw new ApiError(400, `state: ${message}`, [
			{ category: 'Validation', code: 'invalid_enum_value', field: 'state', message },
		]);
	}
	checkAccess(world, caller, record.companyId, record.projectId);
	return record;
}

function save(world: World, record: RecordData): StateRecord {
	const stored: StateRecord = {
		...record,
		id: world.newId(),
		startMs: (parseIsoDate(record.startTime) as Date).getTime(),
		endMs: (parseIsoDate(record.endTime) as Date).getTime(),
	};
	records(world).push(stored);
	return stored;
}

const view = ({ startMs: _s, endMs: _e, ...record }: StateRecord) => record;

export function registerMachineState(router: Router): void {
	const base = '/api/external-excavator-state';

	router.machineState('POST', base, async (ctx, { world }) => {
		const stored = save(world, check(world, ctx.auth, await ctx.json()));
		// [S2] The spec shows only the 201: with the stored record, or empty.
		return world.variant.stateCreateAnswer === 'record'
			? { status: 201, json: view(stored) }
			: { status: 201 };
	});

	router.machineState('POST', `${base}/import`, async (ctx, { world }) => {
		const body = await ctx.json(z.array(z.unknown()).max(100_000));
		const failed: { index: number; message: string; errors: ErrorDetail[] }[] = [];
		const valid: RecordData[] = [];
		body.forEach((element, index) => {
			try {
				valid.push(check(world, ctx.auth, element));
			} catch (error) {
				const apiError = error as { message: string; errors?: ErrorDetail[] };
				failed.push({ index, message: apiError.message, errors: apiError.errors ?? [] });
			}
		});
		// [S3] Bad records listed and the rest saved; or the whole import refused, naming them, and nothing saved.
		if (world.variant.importAnswer === 'allOrNothing') {
			if (failed.length > 0) {
				const errors = failed.flatMap((f) =>
					(f.errors.length > 0 ? f.errors : [{ message: f.message }]).map((e) => ({
						...e,
						field: `[${f.index}].${e.field ?? ''}`,
					})),
				);
				throw new ApiError(
					400,
					`${failed.length} of ${body.length} records are invalid; nothing was imported`,
					errors,
				);
			}
			for (const record of valid) save(world, record);
			return { status: 201 };
		}
		for (const record of valid) save(world, record);
		return { status: 201, json: { imported: valid.length, failed } };
	});

	router.machineState('GET', `${base}/latest-timestamp/{companyId}/{projectId}`, (ctx, { world }) => {
		const { companyId, projectId } = ctx.params;
		checkAccess(world, ctx.auth, companyId, projectId);
		const latest = records(world)
			.filter((r) => r.companyId === companyId && r.projectId === projectId)
			.reduce<number | undefined>(
				(newest, r) => (newest === undefined || r.endMs > newest ? r.endMs : newest),
				undefined,
			);
		const latestTimestamp = latest === undefined ? null : new Date(latest).toISOString();
		// [S4] An object naming what it is about, or the bare timestamp (null when there is none).
		if (world.variant.latestTimestamp === 'bare') return { status: 200, json: latestTimestamp };
		return { status: 200, json: { companyId, projectId, latestTimestamp } };
	});

	router.machineState('POST', `${base}/aggregated-data-per-state`, async (ctx, { world }) => {
		const sandboxShape = world.variant.aggregatedShape === 'sandbox';
		const query = sandboxShape
			? await ctx
					.json(aggregateSchema)
					.then((q) => ({ ...q, machines: q.machineId ? [q.machineId] : undefined }))
			: await ctx.json(altAggregateSchema).then((q) => ({
					companyId: q.companyId,
					projectId: q.projectId,
					machines: q.machineIds,
					from: q.startTime,
					to: q.endTime,
				}));
		checkAccess(world, ctx.auth, query.companyId, query.projectId);
		const { machines } = query;
		const from = query.from ? (parseIsoDate(query.from) as Date).getTime() : -Infinity;
		const to = query.to ? (parseIsoDate(query.to) as Date).getTime() : Infinity;
		const totals = new Map<string, { state: string; durationSeconds: number; recordCount: number }>();
		for (const r of records(world)) {
			if (
				r.companyId !== query.companyId ||
				r.projectId !== query.projectId ||
				(machines && !machines.includes(r.machineId))
			)
				continue;
			const overlap = Math.min(r.endMs, to) - Math.max(r.startMs, from);
			if (overlap < 0) continue;
			const total = totals.get(r.state) ?? { state: r.state, durationSeconds: 0, recordCount: 0 };
			total.durationSeconds += overlap / 1000;
			total.recordCount += 1;
			totals.set(r.state, total);
		}
		const rows = [...totals.values()].sort((a, b) => a.state.localeCompare(b.state));
		// [S5] A bare array of {state, durationSeconds, recordCount}, or {data: [{stateType, totalSeconds, count}]}.
		if (sandboxShape) return { status: 200, json: rows };
		return {
			status: 200,
			json: {
				data: rows.map((r) => ({
					stateType: r.state,
					totalSeconds: r.durationSeconds,
					count: r.recordCount,
				})),
			},
		};
	});
}

export function seedMachineState(_world: World): void {}
