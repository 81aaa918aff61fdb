import { z } from 'zod';

import { badRequest, type Reply } from '../http';
import type { Router } from '../router';
import type { Project, World } from '../state';
import { ensureAccess, ensureCompany } from './access';

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time');
const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm');

/** Every optional project field of the spec with its type. */
const projectFields = {
	name: z.string().max(500).nullable(),
	externalProjectNumber: z.string().max(200).nullable(),
	externalDimension1: z.string().max(200).nullable(),
	externalDimension2: z.string().max(200).nullable(),
	description: z.string().max(10_000).nullable(),
	active: z.boolean(),
	requireTaskNumber: z.boolean(),
	blockedForRegistration: z.boolean(),
	startDate: isoDate.nullable(),
	finishedDatePlanned: isoDate.nullable(),
	finishedDate: isoDate.nullable(),
	estimatedHourQty: z.number().nullable(),
	mainForemanId: z.string().max(200).nullable(),
	projectLeaderId: z.string().max(200).nullable(),
	mainContactEmail: z.string().max(320).nullable(),
	projectCustomerName: z.string().max(500).nullable(),
	customerNumber: z.string().max(200).nullable(),
	projectAddress: z.string().max(1000).nullable(),
	projectLocationLatitude: z.number().min(-90).max(90).nullable(),
	projectLocationLongitude: z.number().min(-180).max(180).nullable(),
	workBreakLunchStartTime: hhmm.nullable(),
	workBreakDinnerStartTime: hhmm.nullable(),
	workBreakLunchLength: z.number().int().min(0).nullable(),
	workBreakDinnerLength: z.number().int().min(0).nullable(),
};

const required = { companyId: z.string().min(1).max(100), projectNumber: z.string().min(1).max(100) };
// Unknown fields are refused (400 naming them): stricter than a lenient server, so a client sending a
// misspelt field finds out in tests.
const createSchema = z.object(projectFields).partial().extend(required).strict();
const patchSchema = z.object({ ...projectFields, ...required }).partial().strict();

/** Defaults a project gets for fields not sent on create or replace. */
const DEFAULTS = { active: false, requireTaskNumber: false, blockedForRegistration: false };

type Customer = { customerNumber: string; name: string | null; companyId: string };

function customers(world: World): Customer[] {
	return world.state('customers', () => [] as Customer[]);
}

/** customerNumber links to the company customer with that number, creating it (named projectCustomerName) if none. */
function linkCustomer(world: World, project: Project, body: Record<string, unknown>): void {
	if (typeof body.customerNumber !== 'string') return;
	const list = customers(world);
	if (!list.some((c) => c.companyId === project.companyId && c.customerNumber === body.customerNumber)) {
		list.push({ customerNumber: body.customerNumber, name: (body.projectCustomerName as string | null) ?? null, companyId: project.companyId });
	}
}

function ensureUniqueNumber(world: World, companyId: string, projectNumber: string, exceptId?: string): void {
	for (const p of world.projects.values()) {
		if (p.companyId === companyId && p.projectNumber === projectNumber && p.id !== exceptId) {
			throw badRequest(`projectNumber ${projectNumber} is already used by another project of the company`, 'projectNumber', 'Duplicate');
		}
	}
}

const view = (project: Project) => {
	const { templateTaskId: _template, ...rest } = project;
	return rest;
};

export function registerProjects(router: Router): void {
	const base = '/api/v4/integration/projects';

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => {
		const body = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(world, body.companyId, body.projectNumber);
		const now = world.clock.iso();
		const project: Project = { ...DEFAULTS, name: null, ...body, id: world.newId(), createdDateTime: now, modifiedDateTime: now } as Project;
		linkCustomer(world, project, body);
		world.projects.set(project.id, project);
		return { status: 200, json: view(project) };
	});

	router.core('GET', base, (ctx, { world }) => ({
		status: 200,
		json: [...world.projects.values()].filter((p) => p.companyId === ctx.auth.companyId).map(view),
	}));

	router.core('GET', `${base}/{id}`, (ctx, { world }) => ({
		status: 200,
		json: view(ensureAccess(world, ctx.auth, world.projects.get(ctx.params.id), 'Project', ctx.params.id)),
	}));

	router.core('GET', `${base}/by-project-number/{projectNumber}`, (ctx, { world }) => {
		const project = [...world.projects.values()].find((p) => p.companyId === ctx.auth.companyId && p.projectNumber === ctx.params.projectNumber);
		return { status: 200, json: view(ensureAccess(world, ctx.auth, project, 'Project with number', ctx.params.projectNumber)) };
	});

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.projects.get(ctx.params.id), 'Project', ctx.params.id);
		const body = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureUniqueNumber(world, body.companyId, body.projectNumber, existing.id);
		const replaced: Project = {
			...DEFAULTS,
			name: null,
			...body,
			id: existing.id,
			templateTaskId: existing.templateTaskId,
			createdDateTime: existing.createdDateTime,
			modifiedDateTime: world.clock.iso(),
		} as Project;
		linkCustomer(world, replaced, body);
		world.projects.set(existing.id, replaced);
		return { status: 200, json: view(replaced) };
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.projects.get(ctx.params.id), 'Project', ctx.params.id);
		const body = await ctx.json(patchSchema);
		if (body.companyId !== undefined) ensureCompany(world, ctx.auth, body.companyId);
		if (body.projectNumber !== undefined) ensureUniqueNumber(world, body.companyId ?? existing.companyId, body.projectNumber, existing.id);
		Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
		linkCustomer(world, existing, body);
		return { status: 200, json: view(existing) };
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.projects.get(ctx.params.id), 'Project', ctx.params.id);
		world.projects.delete(existing.id);
		for (const task of world.tasks.values()) if (task.projectId === existing.id) world.tasks.delete(task.id);
		return { status: 204 };
	});
}
