import { badRequest, queryBool, queryInt, type RequestContext } from '../http';
import type { Router } from '../router';
import type { Project, World } from '../state';
import { ensureAccess } from './access';

/**
 * Read-only lookups. A "resource" (not shown in the spec) is anything that can be registered on: machines,
 * equipment and people; `/api/resources/types` lists those kinds (see README.md).
 */
function activeFilter(ctx: RequestContext): (active: boolean) => boolean {
	const mode = queryInt(ctx, 'activeInactiveAll') ?? 0;
	if (mode === 0) return (active) => active;
	if (mode === 1) return (active) => !active;
	if (mode === 2) return () => true;
	throw badRequest(
		'activeInactiveAll must be 1 (only inactive) or 2 (all); leave it out for active only',
		'activeInactiveAll',
	);
}

const summary = (p: Project) => ({
	id: p.id,
	projectNumber: p.projectNumber,
	externalProjectNumber: p.externalProjectNumber ?? null,
	name: p.name,
	active: p.active,
	companyId: p.companyId,
});

/** The kinds of resource `resource()` knows. */
const RESOURCE_TYPES = [
	{ resourceType: 'machine', name: 'Machine' },
	{ resourceType: 'equipment', name: 'Equipment' },
	{ resourceType: 'person', name: 'Person' },
];

/** A machine, piece of equipment or person by id (machine id or person's companyProfileId), of any company. */
function resource(world: World, id: string) {
	const machine = world.machines.get(id);
	if (machine) {
		const { machineNumber, name, isEquipment, active, companyId } = machine;
		return {
			resourceId: id,
			resourceNumber: machineNumber,
			name,
			resourceType: isEquipment ? 'equipment' : 'machine',
			active,
			companyId,
		};
	}
	const person = world.people.get(id);
	if (person) {
		const { employeeNumber, firstName, lastName, disabled, companyId } = person;
		return {
			resourceId: id,
			resourceNumber: employeeNumber,
			name: `${firstName} ${lastName}`,
			resourceType: 'person',
			active: !disabled,
			companyId,
		};
	}
	return undefined;
}

export function registerLookups(router: Router): void {
	router.core('GET', '/api/projects', (ctx, { world }) => {
		const keep = activeFilter(ctx);
		return {
			status: 200,
			json: [...world.projects.values()]
				.filter((p) => world.canAccessCompany(ctx.auth.companyId, p.companyId) && keep(p.active))
				.map(summary),
		};
	});

	router.core('GET', '/api/projects/search', (ctx, { world }) => {
		const text = (ctx.queryParam('searchString') ?? '').toLowerCase();
		const activeOnly = queryBool(ctx, 'activeOnly') ?? false;
		const hits = [...world.projects.values()].filter(
			(p) =>
				world.canAccessCompany(ctx.auth.companyId, p.companyId) &&
				(!activeOnly || p.active) &&
				[p.projectNumber, p.name, p.externalProjectNumber].some(
					(v) => typeof v === 'string' && v.toLowerCase().includes(text),
				),
		);
		return { status: 200, json: hits.map(summary) };
	});

	router.core('GET', '/api/projects/{projId}', (ctx, { world }) => ({
		status: 200,
		json: summary(
			ensureAccess(world, ctx.auth, world.projects.get(ctx.params.projId), 'Project', ctx.params.projId),
		),
	}));

	router.core('GET', '/api/projects/{projId}/tasks', (ctx, { world }) => {
		const project = ensureAccess(
			world,
			ctx.auth,
			world.projects.get(ctx.params.projId),
			'Project',
			ctx.params.projId,
		);
		const keep = activeFilter(ctx);
		return {
			status: 200,
			json: [...world.tasks.values()]
				.filter((t) => t.projectId === project.id && !t.isTemplate && keep(t.active))
				.map((t) => ({
					id: t.id,
					externalId: t.externalId,
					name: t.name,
					active: t.active,
					projectId: t.projectId,
				})),
		};
	});

	router.core('GET', '/api/resources/details/{resourceId}', (ctx, { world }) => ({
		status: 200,
		json: ensureAccess(
			world,
			ctx.auth,
			resource(world, ctx.params.resourceId),
			'Resource',
			ctx.params.resourceId,
		),
	}));

	router.core('GET', '/api/resources/types', () => ({ status: 200, json: RESOURCE_TYPES }));
}
