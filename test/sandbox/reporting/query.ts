import { badRequest, forbidden, queryBool, queryDate, queryInt, type RequestContext } from '../http';
import type { Sandbox } from '../sandbox';

export const DEFAULT_CHUNK_LIMIT = 2500;
export const MAX_CHUNK_LIMIT = 10_000;

export interface FeedQuery {
	incremental: boolean;
	from?: number;
	to?: number;
	since?: number;
	before?: number;
	chunkLimit: number;
	/** Companies whose records the caller gets. */
	companies: Set<string>;
	projectId?: string;
	flags: Record<string, boolean | undefined>;
	/** Ties a continuation token to these parameters. */
	fingerprint: string;
	token?: string;
	/** [R4] `ToDateTime` excludes its own instant. */
	toExclusive: boolean;
	/** [R5] `ModifiedSince` excludes its own instant. */
	sinceExclusive: boolean;
}

const DATES = ['FromDateTime', 'ToDateTime', 'ModifiedSince', 'ModifiedBefore'];
const CHANGES = ['ModifiedSince', 'ModifiedBefore'];
const PAGING = ['ChunkLimit', 'ContinuationToken'];
/** [R2] "Standard filters incl. ProjectId, ModifiedSince, ContinuationToken", read narrowly. */
const NARROW_STANDARD = ['ProjectId', ...CHANGES, ...PAGING];

/** [R2] The query parameters the spec lists per endpoint; the variant refuses others, or ignores them. */
export const LISTED_PARAMETERS: Record<string, readonly string[]> = {
	'/v1/time-registrations': [...DATES, 'ProjectId', 'CompanyId', ...PAGING],
	'/v1/payroll-lines': [...DATES, 'ProjectId', 'CompanyId', ...PAGING],
	'/v1/payroll-lines-extended': [...DATES, 'ProjectId', 'CompanyId', ...PAGING],
	'/v1/absence-registrations': [
		...DATES,
		'Approved',
		'ApprovedPayroll',
		'Locked',
		'CompanyId',
		'ProjectId',
		'IncludeSensitiveData',
		...PAGING,
	],
	'/v1/machine-registrations': [...DATES, ...PAGING],
	'/v1/images': [
		'ProjectId',
		'CompanyId',
		'Sources',
		...DATES,
		'RequireGeoCoordinate',
		'OwnCompanyDataOnly',
		'ExcludeDataFromSubsidiaries',
		...PAGING,
	],
	'/v1/checklist-registrations': NARROW_STANDARD,
	'/v1/machine-checklist-registrations': NARROW_STANDARD,
	'/v1/incident-registrations': NARROW_STANDARD,
	'/v1/machine-incident-registrations': NARROW_STANDARD,
	'/v1/project': [
		...CHANGES,
		'ProjectId',
		'CompanyId',
		'OwnCompanyDataOnly',
		'ExcludeDataFromSubsidiaries',
		...PAGING,
	],
	'/v1/project/work-breakdown-structure': [
		...CHANGES,
		'ProjectId',
		'CompanyId',
		'OwnCompanyDataOnly',
		'ExcludeDataFromSubsidiaries',
		...PAGING,
	],
	'/v1/resource': [...CHANGES, 'ProjectId', 'CompanyId', ...PAGING],
	'/v1/user': [...CHANGES, 'CompanyId', ...PAGING],
};

/** [R4]/[R5] Whether a time lies in the full-mode window or the change window of a query. */
export function inWindow(query: FeedQuery, ms: number): boolean {
	return (
		(query.from === undefined || ms >= query.from) &&
		(query.to === undefined || ms < query.to || (!query.toExclusive && ms === query.to))
	);
}

export function inChangeWindow(query: FeedQuery, ms: number): boolean {
	return (
		ms >= (query.since as number) &&
		!(query.sinceExclusive && ms === query.since) &&
		(query.before === undefined || ms < query.before)
	);
}

/**
 * Parameters common to the reporting endpoints. Filters an endpoint does not list are ignored, as a lenient
 * server would; malformed values, a ChunkLimit outside 1–10000 and a ModifiedBefore without a later
 * ModifiedSince are 400s; an inaccessible CompanyId or ProjectId is 403.
 */
export function parseFeedQuery(
	ctx: RequestContext,
	sandbox: Sandbox,
	filters: ReadonlySet<string>,
	booleanFilters: string[] = [],
): FeedQuery {
	const { world, variant } = sandbox;
	const caller = ctx.auth.companyId;
	const listed = LISTED_PARAMETERS[ctx.routeTemplate];
	if (variant.unknownFilters === 'refused' && listed) {
		for (const name of new Set(ctx.query.keys()))
			if (!listed.includes(name))
				throw badRequest(`${name} is not a parameter of ${ctx.routeTemplate}`, name);
	}
	let chunkLimit = queryInt(ctx, 'ChunkLimit') ?? DEFAULT_CHUNK_LIMIT;
	// [E5] Outside 1–10000: refused, or clamped.
	if (variant.queryValues === 'lenient') chunkLimit = Math.min(Math.max(chunkLimit, 1), MAX_CHUNK_LIMIT);
	if (chunkLimit < 1 || chunkLimit > MAX_CHUNK_LIMIT)
		throw badRequest(`ChunkLimit must be between 1 and ${MAX_CHUNK_LIMIT}`, 'ChunkLimit');
	const since = queryDate(ctx, 'ModifiedSince')?.getTime();
	let before = queryDate(ctx, 'ModifiedBefore')?.getTime();
	// [R3] The spec states the ModifiedBefore rule for images; elsewhere it applies too, or is not checked.
	const checkBefore = variant.modifiedBeforeCheck === 'everyEndpoint' || ctx.routeTemplate === '/v1/images';
	if (!checkBefore && since === undefined) before = undefined;
	if (checkBefore && before !== undefined && since === undefined)
		throw badRequest('ModifiedBefore requires ModifiedSince', 'ModifiedBefore');
	if (checkBefore && before !== undefined && since !== undefined && before <= since)
		throw badRequest('ModifiedBefore must be greater than ModifiedSince', 'ModifiedBefore');
	const from = queryDate(ctx, 'FromDateTime')?.getTime();
	const to = queryDate(ctx, 'ToDateTime')?.getTime();

	let companies = new Set(world.companyTree(caller));
	const companyId = filters.has('CompanyId') ? ctx.queryParam('CompanyId') : undefined;
	if (companyId) {
		if (!world.canAccessCompany(caller, companyId))
			throw forbidden(`CompanyId ${companyId} is not accessible to this client`);
		companies = new Set([companyId]);
	}
	if (
		(filters.has('OwnCompanyDataOnly') && queryBool(ctx, 'OwnCompanyDataOnly')) ||
		(filters.has('ExcludeDataFromSubsidiaries') && queryBool(ctx, 'ExcludeDataFromSubsidiaries'))
	) {
		companies = new Set([...companies].filter((id) => id === caller));
	}
	const projectId = filters.has('ProjectId') ? ctx.queryParam('ProjectId') : undefined;
	if (projectId) {
		const project = world.projects.get(projectId);
		if (!project || !world.canAccessCompany(caller, project.companyId))
			throw forbidden(`ProjectId ${projectId} is not accessible to this client`);
	}
	const flags: Record<string, boolean | undefined> = {};
	for (const name of booleanFilters) if (filters.has(name)) flags[name] = queryBool(ctx, name);

	// [R7] A token continues only the query it came from; or any query of the same endpoint and caller.
	const tied = variant.tokenParameters === 'tied';
	const parameters = [
		ctx.path,
		caller,
		chunkLimit,
		since,
		before,
		from,
		to,
		[...companies].sort(),
		projectId,
		flags,
		ctx.query.getAll('Sources'),
	];
	const fingerprint = JSON.stringify(tied ? parameters : parameters.slice(0, 2));
	return {
		incremental: since !== undefined,
		from,
		to,
		since,
		before,
		chunkLimit,
		companies,
		projectId,
		flags,
		fingerprint,
		token: ctx.queryParam('ContinuationToken') || undefined,
		toExclusive: variant.toDateTime === 'exclusive',
		sinceExclusive: variant.modifiedSince === 'exclusive',
	};
}

/** [R8] `continuationToken` and `links.next` of a page; on the last page `""` and null, or both absent. */
export function pagingFields(ctx: RequestContext, token: string): Record<string, unknown> {
	if (!token && ctx.variant.lastPage === 'absent') return {};
	return { continuationToken: token, links: { next: nextLink(ctx, token) } };
}

/** [R9] The envelope's `meta`: the sandbox's details, or only the page size. */
export function metaOf(
	ctx: RequestContext,
	meta: Record<string, unknown>,
	chunkLimit: number,
): Record<string, unknown> {
	return ctx.variant.envelope === 'sandbox' ? meta : { pageSize: chunkLimit };
}

/** The relative link to the next page: the same parameters with the new token. */
export function nextLink(ctx: RequestContext, token: string | undefined): string | null {
	if (!token) return null;
	const params = new URLSearchParams(ctx.query);
	params.set('ContinuationToken', token);
	return `${ctx.path}?${params.toString()}`;
}
