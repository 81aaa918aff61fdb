import { z } from 'zod';

import { badRequest, notFound, type Reply } from '../http';
import type { Router } from '../router';
import type { Project, World } from '../state';
import { ensureAccess, ensureCompany } from './access';
import { customerOf, linkCustomer } from './customers';
import { created, defaultsOf, deleted, hhmm, isoDate, key, shownTimes, text, written } from './schema';

/** Every optional project field of the spec with its type. */
const projectFields = {
	name: text().nullable(),
	externalProjectNumber: text(200).nullable(),
	externalDimension1: text(200).nullable(),
	externalDimension2: text(200).nullable(),
	description: text(10_000).nullable(),
	active: z.boolean(),
	requireTaskNumber: z.boolean(),
	blockedForRegistration: z.boolean(),
	startDate: isoDate.nullable(),
	finishedDatePlanned: isoDate.nullable(),
	finishedDate: isoDate.nullable(),
	estimatedHourQty: z.number().finite().nullable(),
	mainForemanId: text(200).nullable(),
	projectLeaderId: text(200).nullable(),
	mainContactEmail: text(320).nullable(),
	projectCustomerName: text().nullable(),
	projectAddress: text(1000).nullable(),
	projectLocationLatitude: z.number().min(-90).max(90).nullable(),
	projectLocationLongitude: z.number().min(-180).max(180).nullable(),
	workBreakLunchStartTime: hhmm.nullable(),
	workBreakDinnerStartTime: hhmm.nullable(),
	workBreakLunchLength: z.number().int().min(0).max(1440).nullable(),
	workBreakDinnerLength: z.number().int().min(0).max(1440).nullable(),
};
/** Not stored on the project: it selects the linked customer (see customers.ts). */
const linkFields = { customerNumber: key.nullable() };
const required = { companyId: key, projectNumber: key };

// Unknown fields are refused (400 naming them): stricter than a lenient server, so a client sending a
// misspelt field finds out in tests.
const createSchema = z
	.object({ ...projectFields, ...linkFields })
	.partial()
	.extend(required)
	.strict();
const patchSchema = z
	.object({ ...projectFields, ...linkFields, ...required })
	.partial()
	.strict();

/** What a project field is when not sent on create, and what PUT resets it to. */
export const PROJECT_DEFAULTS = { ...defaultsOf(projectFields), name: null };

/**
 * The projects a number names for a caller: numbers are unique per company, so a caller with subsidiaries can
 * have several; its own company's comes first, then the subsidiaries' in structure order.
 */
export function projectsByNumber(world: World, callerCompanyId: string, projectNumber: string): Project[] {
	// [C5] The caller's own company first, then its subsidiaries; or the own company only.
	const order =
		world.variant.listScope === 'ownCompany' ? world.companyTree(callerCompanyId) : [callerCompanyId];
	return [...world.projects.values()]
		.filter((p) => p.projectNumber === projectNumber && order.includes(p.companyId))
		.sort((a, b) => order.indexOf(a.companyId) - order.indexOf(b.companyId));
}

/** [C5] Whether a plain list shows a record of `companyId`: the caller's own company, or its whole structure. */
export function inListScope(world: World, callerCompanyId: string, companyId: string): boolean {
	return world.variant.listScope === 'ownCompany'
		? companyId === callerCompanyId
		: world.canAccessCompany(callerCompanyId, companyId);
}

function ensureUniqueNumber(world: World, companyId: string, projectNumber: string, exceptId?: string): void {
	const holder = [...world.projects.values()].find(
		(p) => p.companyId === companyId && p.projectNumber === projectNumber,
	);
	if (holder && holder.id !== exceptId)
		throw badRequest(
			`projectNumber ${projectNumber} is already used by another project of the company`,
			'projectNumber',
			'Duplicate',
		);
}

/** A project as the API answers it: the template link is back-office data, the customer link is shown. */
function view(world: World, project: Project) {
	const { templateTaskId: _template, customerId: _customer, ...fields } = project;
	const link = customerOf(world, project);
	// [P1] The link flat (customerId, customerNumber, customerName), or as one nested customer object.
	const customer =
		world.variant.customerLink === 'flat'
			? link
			: {
					customer: link.customerId
						? { id: link.customerId, customerNumber: link.customerNumber, name: link.customerName }
						: null,
				};
	return shownTimes(world, { ...fields, ...customer });
}

export function registerProjects(router: Router): void {
	const base = '/api/v4/integration/projects';
	const find = (world: World, id: string) => world.projects.get(id);

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => {
		const { customerNumber, ...body } = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(world, body.companyId, body.projectNumber);
		const now = world.clock.iso();
		const project = {
			...PROJECT_DEFAULTS,
			...body,
			id: world.newId(),
			customerId: null,
			createdDateTime: now,
			modifiedDateTime: now,
		} as Project;
		linkCustomer(world, project, customerNumber, body.projectCustomerName);
		world.projects.set(project.id, project);
		return created(world, view(world, project));
	});

	router.core('GET', base, (ctx, { world }) => ({
		status: 200,
		json: [...world.projects.values()]
			.filter((p) => inListScope(world, ctx.auth.companyId, p.companyId))
			.map((p) => view(world, p)),
	}));

	router.core('GET', `${base}/{id}`, (ctx, { world }) => ({
		status: 200,
		json: view(world, ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Project', ctx.params.id)),
	}));

	router.core('GET', `${base}/by-project-number/{projectNumber}`, (ctx, { world }) => {
		const [project] = projectsByNumber(world, ctx.auth.companyId, ctx.params.projectNumber);
		if (!project) throw notFound(`Project with number ${ctx.params.projectNumber} was not found`);
		return { status: 200, json: view(world, project) };
	});

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Project', ctx.params.id);
		const { customerNumber, ...body } = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(world, body.companyId, body.projectNumber, existing.id);
		// Every field not sent goes back to its default; the template and the customer link are not fields.
		const replaced = {
			...PROJECT_DEFAULTS,
			...body,
			id: existing.id,
			templateTaskId: existing.templateTaskId,
			customerId: existing.customerId ?? null,
			createdDateTime: existing.createdDateTime,
			modifiedDateTime: world.clock.iso(),
		} as Project;
		linkCustomer(world, replaced, customerNumber, body.projectCustomerName);
		world.projects.set(existing.id, replaced);
		return written(world, view(world, replaced));
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Project', ctx.params.id);
		const { customerNumber, ...body } = await ctx.json(patchSchema);
		if (body.companyId !== undefined) ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(
			world,
			body.companyId ?? existing.companyId,
			body.projectNumber ?? existing.projectNumber,
			existing.id,
		);
		Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
		linkCustomer(
			world,
			existing,
			customerNumber,
			body.projectCustomerName ?? (existing.projectCustomerName as string | null),
		);
		return written(world, view(world, existing));
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, find(world, ctx.params.id), 'Project', ctx.params.id);
		const tasks = [...world.tasks.values()].filter((t) => t.projectId === existing.id);
		// [P2] The project's work orders go with it, or a project with work orders cannot be deleted.
		if (world.variant.projectDeleteWithWorkOrders === 'refused' && tasks.some((t) => !t.isTemplate))
			throw badRequest(
				`Project ${existing.projectNumber} has work orders: delete them first`,
				'id',
				'NotDeletable',
			);
		const answer = view(world, existing);
		world.projects.delete(existing.id);
		for (const task of tasks) world.tasks.delete(task.id);
		return deleted(world, answer);
	});
}
