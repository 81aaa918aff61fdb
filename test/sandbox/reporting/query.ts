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
	const { world } = sandbox;
	const caller = ctx.auth.companyId;
	const chunkLimit = queryInt(ctx, 'ChunkLimit') ?? DEFAULT_CHUNK_LIMIT;
	if (chunkLimit < 1 || chunkLimit > MAX_CHUNK_LIMIT)
		throw badRequest(`ChunkLimit must be between 1 and ${MAX_CHUNK_LIMIT}`, 'ChunkLimit');
	const since = queryDate(ctx, 'ModifiedSince')?.getTime();
	const before = queryDate(ctx, 'ModifiedBefore')?.getTime();
	if (before !== undefined && since === undefined)
		throw badRequest('ModifiedBefore requires ModifiedSince', 'ModifiedBefore');
	if (before !== undefined && since !== undefined && before <= since)
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

	const fingerprint = JSON.stringify([
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
	]);
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
	};
}

/** The relative link to the next page: the same parameters with the new token. */
export function nextLink(ctx: RequestContext, token: string | undefined): string | null {
	if (!token) return null;
	const params = new URLSearchParams(ctx.query);
	params.set('ContinuationToken', token);
	return `${ctx.path}?${params.toString()}`;
}
