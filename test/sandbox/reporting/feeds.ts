import { addFile, renderPdf } from '../files';
import type { Reply, RequestContext } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { World } from '../state';
import { KINDS } from './kinds';
import { stampTime, type Variant } from '../variant';
import { inChangeWindow, inWindow, metaOf, pagingFields, parseFeedQuery, type FeedQuery } from './query';
import { FeedStore, feedRng, isoTimes, type FeedRecord, type KindDefinition } from './store';
import { decodeToken, encodeToken } from './tokens';

/** [R1] Feeds whose record shape (and so the name of their id) the spec does not show. */
const NAMED_IDS: Record<string, string> = {
	'time-registrations': 'timeRegistrationId',
	'payroll-lines': 'payrollLineId',
	'payroll-lines-extended': 'payrollLineId',
};
/** [C4] The only feed whose records the spec shows with createdDateTime and modifiedDateTime. */
const SHOWN_TIMESTAMPS = new Set(['machine-registrations']);
/** [R6] Feeds whose full-mode date the spec names (absence date, stop time). */
const SHOWN_WINDOW_DATES = new Set(['absence-registrations', 'machine-registrations']);

/** [R10] Whether a feed reports deletions as tombstones in incremental mode. */
export const hasTombstones = (definition: KindDefinition, variant: Variant) =>
	definition.tombstones || variant.tombstoneFeeds === 'allRegistrations';

/** [R6] Which time the full-mode window and order use. */
const windowKey = (definition: KindDefinition, variant: Variant): 'dateMs' | 'createdMs' =>
	variant.fullModeDate === 'createdTime' && !SHOWN_WINDOW_DATES.has(definition.kind) ? 'createdMs' : 'dateMs';

/** Share of seeded checklists, incidents and absences already submitted (with a PDF). */
const SUBMITTED_SHARE = 0.6;

export function iso(ms: number): string {
	return new Date(ms).toISOString();
}

/** Generates the PDF of a submitted record. */
export function submit(world: World, definition: KindDefinition, record: FeedRecord, atMs: number): void {
	if (!definition.pdf || record.pdfFileId) return;
	const title = `${definition.kind} ${record.id}`;
	record.pdfFileId = addFile(world, {
		companyId: record.companyId,
		fileName: `${definition.kind}-${record.id}.pdf`,
		contentType: 'application/pdf',
		content: () => renderPdf(title),
		createdDateTime: iso(atMs),
	}).id;
	if ('status' in record.data) record.data.status = 'submitted';
}

/**
 * A feed's store, seeded on first use with about `scale` records. Records without per-caller rendering are
 * serialised here, once: serving is the benchmarks' "physical limit" and must cost little more than a copy.
 */
export function feedStore(sandbox: Sandbox, definition: KindDefinition): FeedStore {
	const { world } = sandbox;
	return world.state(`feed:${definition.kind}`, () => {
		const store = new FeedStore();
		const rng = feedRng(world.ctx.seed, definition.kind);
		const nowMs = world.clock.nowMs();
		for (let index = 0; index < world.ctx.scale; index++) {
			const record = definition.create({ world, rng, nowMs, index });
			if (definition.pdf && rng.chance(SUBMITTED_SHARE)) submit(world, definition, record, record.modifiedMs);
			store.records.push(record);
			store.byId.set(record.id, record);
			if (!definition.render) record.json = JSON.stringify(serve(record, definition, sandbox, '', false));
		}
		return store;
	});
}

export function kindDefinition(kind: string): KindDefinition | undefined {
	return KINDS.find((definition) => definition.kind === kind);
}

function matches(
	record: FeedRecord,
	query: FeedQuery,
	definition: KindDefinition,
	variant: Variant,
	key: 'dateMs' | 'createdMs',
): boolean {
	if (!query.companies.has(record.companyId)) return false;
	if (query.projectId && record.projectId !== query.projectId) return false;
	for (const [name, value] of Object.entries(query.flags)) {
		if (value !== undefined && record.data[name[0].toLowerCase() + name.slice(1)] !== value) return false;
	}
	if (query.incremental) {
		if (!inChangeWindow(query, record.modifiedMs)) return false;
		return record.deletedMs === null || hasTombstones(definition, variant);
	}
	if (record.deletedMs !== null) return false;
	return inWindow(query, record[key]);
}

export function serve(
	record: FeedRecord,
	definition: KindDefinition,
	sandbox: Sandbox,
	callerCompanyId: string,
	includeSensitiveData: boolean,
): Record<string, unknown> {
	const { variant } = sandbox;
	if (
		variant.unshownRecordId === 'id' &&
		variant.unshownTimestamps === 'included' &&
		variant.timestampFormat === 'isoUtc'
	) {
		// The hot path of the benchmarks: cached ISO strings.
		const times = isoTimes(record);
		const served: Record<string, unknown> = {
			id: record.id,
			...record.data,
			createdDateTime: times.created,
			modifiedDateTime: times.modified,
		};
		return finish(record, definition, sandbox, callerCompanyId, includeSensitiveData, served);
	}
	const idField = variant.unshownRecordId === 'named' ? (NAMED_IDS[definition.kind] ?? 'id') : 'id';
	const served: Record<string, unknown> = { [idField]: record.id, ...record.data };
	if (variant.unshownTimestamps === 'included' || SHOWN_TIMESTAMPS.has(definition.kind)) {
		served.createdDateTime = stampTime(variant, record.createdMs);
		served.modifiedDateTime = stampTime(variant, record.modifiedMs);
	}
	return finish(record, definition, sandbox, callerCompanyId, includeSensitiveData, served);
}

function finish(
	record: FeedRecord,
	definition: KindDefinition,
	sandbox: Sandbox,
	callerCompanyId: string,
	includeSensitiveData: boolean,
	served: Record<string, unknown>,
): Record<string, unknown> {
	const { variant } = sandbox;
	if (definition.pdf)
		served.pdfUrl = record.pdfFileId ? `${sandbox.urls.core}/api/file/${record.pdfFileId}` : null;
	if (hasTombstones(definition, variant)) {
		served.isDeleted = record.deletedMs !== null;
		// [R11] "Deletion metadata" of absences: deletedDateTime like machine registrations, or deletedAt.
		const field =
			definition.kind === 'absence-registrations' ? variant.absenceDeletedField : 'deletedDateTime';
		served[field] = record.deletedMs === null ? null : stampTime(variant, record.deletedMs);
	}
	definition.render?.(record, served, { world: sandbox.world, callerCompanyId, includeSensitiveData });
	return variant.recordFieldNames === 'alt' && definition.altNames
		? renamed(served, definition.altNames)
		: served;
}

/** [F1–F42] The record with the alt variant's field names, in the same order. */
function renamed(served: Record<string, unknown>, names: Record<string, string>): Record<string, unknown> {
	return Object.fromEntries(Object.entries(served).map(([key, value]) => [names[key] ?? key, value]));
}

/** First index in `sorted` strictly after the position (t, id), or after every record at t when ties are grouped. */
function startIndex(
	sorted: FeedRecord[],
	key: 'dateMs' | 'createdMs' | 'modifiedMs',
	t: number,
	id: string,
	groupTies: boolean,
): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		const r = sorted[mid];
		const after = r[key] > t || (!groupTies && r[key] === t && r.id > id);
		if (after) hi = mid;
		else lo = mid + 1;
	}
	return lo;
}

/** First index in `sorted` whose time is at or after `t`. */
function firstAtOrAfter(sorted: FeedRecord[], key: 'dateMs' | 'createdMs' | 'modifiedMs', t: number): number {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = (lo + hi) >>> 1;
		if (sorted[mid][key] < t) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}

export function servePage(ctx: RequestContext, sandbox: Sandbox, definition: KindDefinition): Reply {
	const query = parseFeedQuery(ctx, sandbox, definition.filters, ['Approved', 'ApprovedPayroll', 'Locked']);
	const store = feedStore(sandbox, definition);
	const { variant } = sandbox;
	const dateKey = windowKey(definition, variant);
	const order = query.incremental ? 'modified' : dateKey === 'dateMs' ? 'date' : 'created';
	const key = query.incremental ? 'modifiedMs' : dateKey;
	const sorted = store.sorted(order);
	const position = query.token ? decodeToken(query.token, query.fingerprint) : undefined;
	// Records are sorted by the window's own time: a first page starts at the window's start and every page stops
	// at its end, as an indexed service would (a time slice of a large feed costs no scan of the rest).
	const [windowStart, windowEnd] = query.incremental ? [query.since, query.before] : [query.from, query.to];
	let index = position
		? startIndex(sorted, key, position.t, position.id, definition.groupTies)
		: windowStart === undefined
			? 0
			: firstAtOrAfter(sorted, key, windowStart);
	const past = (record: FeedRecord) =>
		windowEnd !== undefined && (query.incremental ? record[key] >= windowEnd : record[key] > windowEnd);
	const page: FeedRecord[] = [];
	for (; index < sorted.length; index++) {
		const record = sorted[index];
		if (past(record)) break;
		if (!matches(record, query, definition, variant, dateKey)) continue;
		// Records sharing one exact time stay on one page, even past ChunkLimit (machine registrations).
		if (
			page.length >= query.chunkLimit &&
			!(definition.groupTies && record[key] === page[page.length - 1][key])
		)
			break;
		page.push(record);
	}
	let more = false;
	for (let rest = index; rest < sorted.length && !more && page.length > 0 && !past(sorted[rest]); rest++)
		more = matches(sorted[rest], query, definition, variant, dateKey);
	const last = page[page.length - 1];
	const token = more && last ? encodeToken({ t: last[key], id: last.id, q: query.fingerprint }) : '';
	const includeSensitiveData =
		definition.filters.has('IncludeSensitiveData') &&
		ctx.queryParam('IncludeSensitiveData')?.toLowerCase() === 'true';
	// Serving is the benchmarks' "physical limit": records without per-caller rendering are serialised once.
	const json = (record: FeedRecord) =>
		definition.render
			? JSON.stringify(serve(record, definition, sandbox, ctx.auth.companyId, includeSensitiveData))
			: (record.json ??= JSON.stringify(serve(record, definition, sandbox, ctx.auth.companyId, false)));
	const envelope = JSON.stringify({
		meta: metaOf(
			ctx,
			{
				count: page.length,
				chunkLimit: query.chunkLimit,
				syncType: query.incremental ? 'incremental' : 'full',
			},
			query.chunkLimit,
		),
		...pagingFields(ctx, token),
	});
	return {
		status: 200,
		body: `{"data":[${page.map(json).join(',')}],${envelope.slice(1)}`,
		headers: { 'Content-Type': 'application/json; charset=utf-8' },
	};
}

export function registerFeeds(router: Router): void {
	for (const definition of KINDS)
		router.reporting('GET', definition.path, (ctx, sandbox) => servePage(ctx, sandbox, definition));
}
