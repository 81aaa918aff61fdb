import { z } from 'zod';

import { ApiError, forbidden, parseIsoDate, type Caller, type ErrorDetail } from '../http';
import type { Router } from '../router';
import type { World } from '../state';

/**
 * Machine-state API. Shapes the spec does not show (see reporting/README.md): the import answers
 * `{imported, failed: [{index, errors}]}` and keeps going past a bad record; latest-timestamp answers
 * `{companyId, projectId, latestTimestamp}` (null when there is none); aggregation takes
 * `{companyId, projectId, machineId?, from?, to?}` and answers one row per state.
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
const recordSchema = z
	.object({
		companyId: z.string().min(1).max(100),
		projectId: z.string().min(1).max(100),
		machineId: z.string().min(1).max(100),
		state: z.string().min(1).max(100),
		startTime: iso,
		endTime: iso,
	})
	.strict()
	.refine((r) => (parseIsoDate(r.startTime) as Date) <= (parseIsoDate(r.endTime) as Date), {
		message: 'endTime must not be before startTime',
		path: ['endTime'],
	});

const aggregateSchema = z
	.object({
		companyId: z.string().min(1),
		projectId: z.string().min(1),
		machineId: z.string().optional(),
		from: iso.optional(),
		to: iso.optional(),
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

function store(world: World, caller: Caller, element: unknown): StateRecord {
	const parsed = recordSchema.safeParse(element);
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
	checkAccess(world, caller, record.companyId, record.projectId);
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

	router.machineState('POST', base, async (ctx, { world }) => ({
		status: 201,
		json: view(store(world, ctx.auth, await ctx.json())),
	}));

	router.machineState('POST', `${base}/import`, async (ctx, { world }) => {
		const body = await ctx.json(z.array(z.unknown()).max(100_000));
		const failed: { index: number; message: string; errors: ErrorDetail[] }[] = [];
		let imported = 0;
		body.forEach((element, index) => {
			try {
				store(world, ctx.auth, element);
				imported++;
			} catch (error) {
				const apiError = error as { message: string; errors?: ErrorDetail[] };
				failed.push({ index, message: apiError.message, errors: apiError.errors ?? [] });
			}
		});
		return { status: 201, json: { imported, failed } };
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
		return {
			status: 200,
			json: {
				companyId,
				projectId,
				latestTimestamp: latest === undefined ? null : new Date(latest).toISOString(),
			},
		};
	});

	router.machineState('POST', `${base}/aggregated-data-per-state`, async (ctx, { world }) => {
		const query = await ctx.json(aggregateSchema);
		checkAccess(world, ctx.auth, query.companyId, query.projectId);
		const from = query.from ? (parseIsoDate(query.from) as Date).getTime() : -Infinity;
		const to = query.to ? (parseIsoDate(query.to) as Date).getTime() : Infinity;
		const totals = new Map<string, { state: string; durationSeconds: number; recordCount: number }>();
		for (const r of records(world)) {
			if (
				r.companyId !== query.companyId ||
				r.projectId !== query.projectId ||
				(query.machineId && r.machineId !== query.machineId)
			)
				continue;
			const overlap = Math.min(r.endMs, to) - Math.max(r.startMs, from);
			if (overlap < 0) continue;
			const total = totals.get(r.state) ?? { state: r.state, durationSeconds: 0, recordCount: 0 };
			total.durationSeconds += overlap / 1000;
			total.recordCount += 1;
			totals.set(r.state, total);
		}
		return { status: 200, json: [...totals.values()].sort((a, b) => a.state.localeCompare(b.state)) };
	});
}

export function seedMachineState(_world: World): void {}
