import { z } from 'zod';

import { badRequest, notFound } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { feedStore, iso, kindDefinition, serve, submit } from './feeds';
import { imageRows, imageStores, newParent, SOURCES, type ImageParent } from './images';
import { feedRng } from './store';

const activitySchema = z
	.object({
		kind: z.string().min(1),
		action: z.enum(['create', 'update', 'delete', 'submit']),
		count: z.number().int().min(1).max(100_000).optional(),
		ids: z.array(z.string()).max(100_000).optional(),
		projectId: z.string().optional(),
		/** Images `create`: photos without coordinates of their own (they fall back to the parent's). */
		withoutCoordinates: z.boolean().optional(),
		/** `create`: the moment of the activity (a registration's start), instead of the clock's now. */
		at: z.string().datetime({ offset: true }).optional(),
		/** Time registrations `create`: the hours worked from `at`. */
		hours: z.number().positive().max(24).optional(),
	})
	.strict();

/** Random picks for activity without ids: deterministic per sandbox seed and call. */
function activityRng(sandbox: Sandbox) {
	const counter = sandbox.world.state('activity-counter', () => ({ calls: 0 }));
	counter.calls += 1;
	return feedRng(sandbox.world.ctx.seed + counter.calls, 'activity');
}

function pick<T extends { id: string }>(
	candidates: T[],
	ids: string[] | undefined,
	count: number,
	rng: ReturnType<typeof feedRng>,
): T[] {
	if (ids) {
		return ids.map((id) => {
			const found = candidates.find((c) => c.id === id);
			if (!found) throw notFound(`No record ${id}`);
			return found;
		});
	}
	const pool = [...candidates];
	const picked: T[] = [];
	while (picked.length < count && pool.length > 0)
		picked.push(pool.splice(rng.int(0, pool.length - 1), 1)[0]);
	return picked;
}

function imageActivity(
	sandbox: Sandbox,
	action: string,
	count: number,
	ids: string[] | undefined,
	projectId: string | undefined,
	withoutCoordinates = false,
): string[] {
	const { world } = sandbox;
	const stores = imageStores(world);
	const rng = activityRng(sandbox);
	const now = world.clock.nowMs();
	const parents = SOURCES.flatMap((source) => stores.bySource[source].records) as ImageParent[];
	if (action === 'create') {
		return Array.from({ length: count }, () => {
			const parent = newParent(world, rng, 'feed', now, false, projectId, withoutCoordinates);
			stores.bySource.feed.add(parent);
			return parent.id;
		});
	}
	if (action === 'update') {
		return pick(parents, ids, count, rng).map((parent) => {
			parent.modifiedMs = now;
			parent.data.description = `Oppdatert ${iso(now)}`;
			stores.bySource[parent.data.source].touch();
			return parent.id;
		});
	}
	if (action === 'delete') {
		// A removed file just stops appearing (images report no deletions).
		return pick(
			parents.filter((p) => p.data.images.length > 0),
			ids,
			count,
			rng,
		).map((parent) => {
			const image = parent.data.images.pop() as ImageParent['data']['images'][number];
			// The row as it was served, so the ground truth names it as readers saw it.
			const [row] = imageRows(
				sandbox,
				{ ...parent, data: { ...parent.data, images: [image] } } as ImageParent,
				false,
			);
			stores.removed.push({
				id: String(row?.id ?? image.id),
				collectionRef: String(row?.collectionRef),
				idRef: parent.id,
				removedMs: now,
			});
			return parent.id;
		});
	}
	throw badRequest('Images cannot be submitted', 'action');
}

export function registerReportingControl(router: Router): void {
	router.control('POST', '/__sandbox/activity', async (ctx, sandbox) => {
		const {
			kind,
			action,
			count = 1,
			ids,
			projectId,
			withoutCoordinates,
			at,
			hours,
		} = await ctx.json(activitySchema);
		if (projectId && !sandbox.world.projects.has(projectId))
			throw badRequest(`No project ${projectId}`, 'projectId');
		if (kind === 'images')
			return {
				status: 200,
				json: { ids: imageActivity(sandbox, action, count, ids, projectId, withoutCoordinates) },
			};
		const definition = kindDefinition(kind);
		if (!definition) throw badRequest(`Unknown kind "${kind}"`, 'kind');
		const { world } = sandbox;
		const store = feedStore(sandbox, definition);
		const rng = activityRng(sandbox);
		const now = world.clock.nowMs();
		const live = store.records.filter((r) => r.deletedMs === null);
		let affected: string[];
		if (action === 'create') {
			affected = Array.from({ length: count }, () => {
				const record = definition.create({
					world,
					rng,
					nowMs: at === undefined ? now : Date.parse(at),
					projectId,
					hours,
				});
				store.add(record);
				return record.id;
			});
		} else {
			if (action === 'submit' && !definition.pdf)
				throw badRequest(`${kind} records are not submitted`, 'action');
			const targets = pick(action === 'submit' ? live.filter((r) => !r.pdfFileId) : live, ids, count, rng);
			for (const record of targets) {
				if (action === 'update') definition.edit(record, rng);
				if (action === 'delete') record.deletedMs = now;
				if (action === 'submit') submit(world, definition, record, now);
				record.modifiedMs = now;
				delete record.json;
			}
			store.touch();
			affected = targets.map((r) => r.id);
		}
		return { status: 200, json: { ids: affected } };
	});

	router.control('GET', '/__sandbox/records/{kind}', (ctx, sandbox) => {
		const { kind } = ctx.params;
		const caller = sandbox.world.clients[0].companyId;
		if (kind === 'images') {
			const stores = imageStores(sandbox.world);
			const rows = SOURCES.flatMap((source) =>
				(stores.bySource[source].records as ImageParent[]).flatMap((parent) =>
					imageRows(sandbox, parent, false).map((row) => ({ ...row, isDeleted: false })),
				),
			);
			const removed = stores.removed.map((r) => ({
				...r,
				modifiedDateTime: iso(r.removedMs),
				isDeleted: true,
			}));
			return { status: 200, json: { kind, records: [...rows, ...removed] } };
		}
		const definition = kindDefinition(kind);
		if (!definition) throw notFound(`Unknown kind "${kind}"`);
		// The served record plus what every variant's ground truth carries: id and both times.
		const records = feedStore(sandbox, definition).records.map((record) => ({
			...serve(record, definition, sandbox, caller, true),
			id: record.id,
			createdDateTime: iso(record.createdMs),
			modifiedDateTime: iso(record.modifiedMs),
			companyId: record.companyId,
			isDeleted: record.deletedMs !== null,
			deletedDateTime: record.deletedMs === null ? null : iso(record.deletedMs),
		}));
		return { status: 200, json: { kind, records } };
	});
}
