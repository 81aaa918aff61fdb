import type { Reply, RequestContext } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { World } from '../state';
import type { Variant } from '../variant';
import { inChangeWindow, metaOf, pagingFields, parseFeedQuery } from './query';
import { decodeToken, encodeToken } from './tokens';

/**
 * Metadata lists, derived from the live master data (so a project created through the core API shows up
 * here with its modification time). Shapes are not shown in the spec: see reporting/README.md.
 */
interface MetadataRow {
	companyId: string;
	projectId: string | null;
	modifiedMs: number;
	id: string;
	row: Record<string, unknown>;
}

type Lister = (world: World) => MetadataRow[];

const ms = (value: unknown) => Date.parse(String(value)) || 0;

const LISTS: { path: string; filters: string[]; list: Lister }[] = [
	{
		path: '/v1/project',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		list: (world) =>
			[...world.projects.values()].map((p) => ({
				companyId: p.companyId,
				projectId: p.id,
				modifiedMs: ms(p.modifiedDateTime),
				id: p.id,
				row: {
					id: p.id,
					companyId: p.companyId,
					projectNumber: p.projectNumber,
					name: p.name,
					externalProjectNumber: p.externalProjectNumber ?? null,
					active: p.active,
					startDate: p.startDate ?? null,
					finishedDate: p.finishedDate ?? null,
					modifiedDateTime: p.modifiedDateTime,
				},
			})),
	},
	{
		path: '/v1/project/work-breakdown-structure',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		list: (world) =>
			[...world.tasks.values()]
				.filter((t) => !t.isTemplate)
				.map((t) => ({
					companyId: t.companyId,
					projectId: t.projectId,
					modifiedMs: ms(t.modifiedDateTime),
					id: t.id,
					row: {
						id: t.id,
						companyId: t.companyId,
						projectId: t.projectId,
						externalId: t.externalId,
						name: t.name,
						parentActivityId: t.parentActivityId ?? null,
						isParent: t.isParent ?? false,
						externalDim01: t.externalDim01 ?? null,
						active: t.active,
						modifiedDateTime: t.modifiedDateTime,
					},
				})),
	},
	{
		path: '/v1/resource',
		filters: ['ProjectId', 'CompanyId'],
		list: (world) =>
			[...world.machines.values()].map((m) => ({
				companyId: m.companyId,
				projectId: null,
				modifiedMs: ms(m.modifiedDateTime),
				id: m.id,
				row: {
					id: m.id,
					companyId: m.companyId,
					resourceNumber: m.machineNumber,
					name: m.name,
					resourceType: m.isEquipment ? 'equipment' : 'machine',
					typeId: m.typeId,
					active: m.active,
					modifiedDateTime: m.modifiedDateTime,
				},
			})),
	},
	{
		path: '/v1/user',
		filters: ['CompanyId'],
		list: (world) =>
			[...world.people.values()].map((p) => ({
				companyId: p.companyId,
				projectId: null,
				modifiedMs: ms(p.modifiedDateTime),
				id: p.identityId,
				row: {
					id: p.identityId,
					companyProfileId: p.companyProfileId,
					companyId: p.companyId,
					employeeNumber: p.employeeNumber,
					firstName: p.firstName,
					lastName: p.lastName,
					isDisabled: p.disabled,
					modifiedDateTime: p.modifiedDateTime,
				},
			})),
	},
];

function serveList(ctx: RequestContext, sandbox: Sandbox, filters: Set<string>, list: Lister): Reply {
	const query = parseFeedQuery(ctx, sandbox, filters);
	const position = query.token ? decodeToken(query.token, query.fingerprint) : undefined;
	// Ordered by modification time in incremental mode; by id otherwise (the lists have no date of their own).
	const key = (row: MetadataRow) => (query.incremental ? row.modifiedMs : 0);
	const rows = list(sandbox.world)
		.filter(
			(row) =>
				query.companies.has(row.companyId) &&
				(!query.projectId || row.projectId === query.projectId) &&
				(!query.incremental || inChangeWindow(query, row.modifiedMs)),
		)
		.sort((a, b) => key(a) - key(b) || (a.id < b.id ? -1 : 1))
		.filter((row) => !position || key(row) > position.t || (key(row) === position.t && row.id > position.id));
	const page = rows.slice(0, query.chunkLimit);
	const last = page[page.length - 1];
	const token =
		rows.length > page.length && last ? encodeToken({ t: key(last), id: last.id, q: query.fingerprint }) : '';
	return {
		status: 200,
		json: {
			data: page.map((row) => shown(sandbox.variant, ctx.routeTemplate, row.row)),
			meta: metaOf(ctx, { count: page.length }, query.chunkLimit),
			...pagingFields(ctx, token),
		},
	};
}

/** [R1] The id field of each list under another plausible name. */
const NAMED_IDS: Record<string, string> = {
	'/v1/project': 'projectId',
	'/v1/project/work-breakdown-structure': 'activityId',
	'/v1/resource': 'resourceId',
	'/v1/user': 'userId',
};

/** A row as answered: [R1] its id's name, [C4] without the modification time the spec does not show. */
function shown(variant: Variant, path: string, row: Record<string, unknown>): Record<string, unknown> {
	const { id, modifiedDateTime, ...rest } = row;
	const idField = variant.unshownRecordId === 'id' ? 'id' : NAMED_IDS[path];
	if (variant.unshownRecordId === 'id' && variant.unshownTimestamps === 'included') return row;
	return {
		[idField]: id,
		...rest,
		...(variant.unshownTimestamps === 'included' ? { modifiedDateTime } : {}),
	};
}

export function registerMetadata(router: Router): void {
	for (const { path, filters, list } of LISTS)
		router.reporting('GET', path, (ctx, sandbox) => serveList(ctx, sandbox, new Set(filters), list));
}
