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
	// [E5] A lenient service treats any other value as the default.
	if (mode === 0 || (ctx.variant.queryValues === 'lenient' && mode !== 1 && mode !== 2))
		return (active) => active;
	if (mode === 1) return (active) => !active;
	if (mode === 2) return () => true;
	throw badRequest(
		'activeInactiveAll must be 1 (only inactive) or 2 (all); leave it out for active only',
		'activeInactiveAll',
	);
}

/** [L1] The lookup answers' field names: the sandbox's, or other plausible ones. */
const renamed = (world: World, fields: Record<string, unknown>, names: Record<string, string>) =>
	world.variant.lookupFields === 'sandbox'
		? fields
		: Object.fromEntries(Object.entries(fields).map(([key, value]) => [names[key] ?? key, value]));

const summary = (world: World) => (p: Project) =>
	renamed(
		world,
		{
			id: p.id,
			projectNumber: p.projectNumber,
			externalProjectNumber: p.externalProjectNumber ?? null,
			name: p.name,
			active: p.active,
			companyId: p.companyId,
		},
		{
			id: 'projectId',
			projectNumber: 'number',
			externalProjectNumber: 'externalNumber',
			name: 'projectName',
			active: 'isActive',
		},
	);

const RESOURCE_NAMES = {
	resourceId: 'id',
	resourceNumber: 'number',
	name: 'displayName',
	resourceType: 'type',
	active: 'isActive',
};

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
				.map(summary(world)),
		};
	});

	router.core('GET', '/api/projects/search', (ctx, { world }) => {
		const text = (ctx.queryParam('searchString') ?? '').toLowerCase();
		// [P3] A substring of number, name or external number; or the start of number or name.
		const matches = (p: Project) =>
			world.variant.projectSearch === 'substring'
				? [p.projectNumber, p.name, p.externalProjectNumber].some(
						(v) => typeof v === 'string' && v.toLowerCase().includes(text),
					)
				: [p.projectNumber, p.name].some((v) => typeof v === 'string' && v.toLowerCase().startsWith(text));
		const activeOnly = queryBool(ctx, 'activeOnly') ?? false;
		const hits = [...world.projects.values()].filter(
			(p) =>
				world.canAccessCompany(ctx.auth.companyId, p.companyId) && (!activeOnly || p.active) && matches(p),
		);
		return { status: 200, json: hits.map(summary(world)) };
	});

	router.core('GET', '/api/projects/{projId}', (ctx, { world }) => ({
		status: 200,
		json: summary(world)(
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
				.map((t) =>
					renamed(
						world,
						{ id: t.id, externalId: t.externalId, name: t.name, active: t.active, projectId: t.projectId },
						{ id: 'taskId', externalId: 'taskExternalId', name: 'taskName', active: 'isActive' },
					),
				),
		};
	});

	router.core('GET', '/api/resources/details/{resourceId}', (ctx, { world }) => ({
		status: 200,
		json: renamed(
			world,
			ensureAccess(
				world,
				ctx.auth,
				resource(world, ctx.params.resourceId),
				'Resource',
				ctx.params.resourceId,
			),
			RESOURCE_NAMES,
		),
	}));

	// [L1] Renamed: the kinds as bare names.
	router.core('GET', '/api/resources/types', (_ctx, { world }) => ({
		status: 200,
		json: world.variant.lookupFields === 'sandbox' ? RESOURCE_TYPES : RESOURCE_TYPES.map((t) => t.name),
	}));
}
