import { z } from 'zod';

import { badRequest, notFound, type Reply } from '../http';
import type { Router } from '../router';
import type { Task, World } from '../state';
import { ensureAccess, ensureCompany } from './access';

const isoDate = z.string().refine((v) => !Number.isNaN(Date.parse(v)), 'must be an ISO 8601 date-time');

/**
 * Rule 3 of the spec: settings copied from the project's template work order when a create omits them.
 * (Field names for the settings the spec names only in words are this sandbox's choice.)
 */
export const INHERITED_SETTINGS = [
	'textRequired',
	'safeJobAnalysisApprovalRequired',
	'safeJobAnalysisUserPromptText',
	'unitId',
	'measureUnitQty',
	'summationType',
	'fixedResourcePrice',
	'costPrice',
	'price',
	'doubleRegistration',
	'massHaulDefaults',
	'unitQtyReportLevel',
	'taskType',
	'externalDim02',
] as const;

const taskFields = {
	name: z.string().max(500).nullable(),
	active: z.boolean(),
	externalProjectNumber: z.string().max(200).nullable(),
	externalProjectName: z.string().max(500).nullable(),
	externalDim01: z.string().max(200).nullable(),
	externalDim02: z.string().max(200).nullable(),
	workDescriptionShort: z.string().max(500).nullable(),
	workDescription: z.string().max(10_000).nullable(),
	startDate: isoDate.nullable(),
	finishedDatePlanned: isoDate.nullable(),
	finishedDate: isoDate.nullable(),
	estimatedHourQty: z.number().nullable(),
	fixedResourcePrice: z.number().nullable(),
	costPrice: z.number().nullable(),
	price: z.number().nullable(),
	unitId: z.string().max(200).nullable(),
	measureUnitQty: z.boolean(),
	parentActivityId: z.string().max(200).nullable(),
	isParent: z.boolean(),
	chapterId: z.string().max(200).nullable(),
	mainForemanId: z.string().max(200).nullable(),
	taskLeaderId: z.string().max(200).nullable(),
	taskLocationLatitude: z.number().min(-90).max(90).nullable(),
	taskLocationLongitude: z.number().min(-180).max(180).nullable(),
	safeJobAnalysisApprovalRequired: z.boolean(),
	safeJobAnalysisUserPromptText: z.string().max(2000).nullable(),
	textRequired: z.boolean(),
	summationType: z.number().int().nullable(),
	doubleRegistration: z.boolean(),
	massHaulDefaults: z.record(z.string(), z.unknown()).nullable(),
	unitQtyReportLevel: z.number().int().nullable(),
	taskType: z.string().max(100).nullable(),
};
const required = { companyId: z.string().min(1).max(100), projectId: z.string().min(1).max(100), externalId: z.string().min(1).max(200) };
const createSchema = z.object(taskFields).partial().extend(required).strict();
const patchSchema = z.object({ ...taskFields, ...required }).partial().strict();

/** What a work order is when a field is neither sent nor inherited (rule 6: PUT resets to these). */
const DEFAULTS = { active: false, costPrice: 0, safeJobAnalysisApprovalRequired: false, isParent: false, measureUnitQty: false };

function ensureProject(world: World, caller: Parameters<typeof ensureCompany>[1], projectId: string) {
	return ensureAccess(world, caller, world.projects.get(projectId), 'Project', projectId);
}

function validate(world: World, task: { projectId: string; externalId: string; parentActivityId?: string | null }, exceptId?: string): void {
	for (const other of world.tasks.values()) {
		if (other.projectId === task.projectId && other.externalId === task.externalId && other.id !== exceptId && !other.isTemplate) {
			throw badRequest(`externalId ${task.externalId} is already used by another work order of the project`, 'externalId', 'Duplicate');
		}
	}
	if (task.parentActivityId) {
		const parent = world.tasks.get(task.parentActivityId);
		if (!parent || parent.projectId !== task.projectId || parent.isTemplate) {
			throw badRequest(`parentActivityId ${task.parentActivityId} is not a work order of the same project`, 'parentActivityId');
		}
	}
}

const visible = (world: World, companyId: string) => [...world.tasks.values()].filter((t) => !t.isTemplate && world.canAccessCompany(companyId, t.companyId));

export function registerTasks(router: Router): void {
	const base = '/api/v4/integration/tasks';

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => {
		const body = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		const project = ensureProject(world, ctx.auth, body.projectId);
		if (project.companyId !== body.companyId) throw badRequest('projectId belongs to another company than companyId', 'projectId');
		validate(world, body);
		// Rules 2–5: omitted settings come from the template; identity, dates, quantities never do; never a template.
		const template = project.templateTaskId ? world.tasks.get(project.templateTaskId) : undefined;
		const inherited = Object.fromEntries(INHERITED_SETTINGS.filter((field) => template && template[field] !== undefined).map((field) => [field, template?.[field]]));
		const now = world.clock.iso();
		const task = { ...DEFAULTS, name: null, ...inherited, ...body, id: world.newId(), isTemplate: false, createdDateTime: now, modifiedDateTime: now } as Task;
		world.tasks.set(task.id, task);
		return { status: 200, json: task };
	});

	router.core('GET', `${base}/project/{projectId}`, (ctx, { world }) => {
		const project = ensureProject(world, ctx.auth, ctx.params.projectId);
		return { status: 200, json: visible(world, ctx.auth.companyId).filter((t) => t.projectId === project.id) };
	});

	const byProjectNumber = (world: World, companyId: string, projectNumber: string) => {
		const project = [...world.projects.values()].find((p) => p.companyId === companyId && p.projectNumber === projectNumber);
		if (!project) throw notFound(`Project with number ${projectNumber} was not found`);
		return visible(world, companyId).filter((t) => t.projectId === project.id);
	};
	const byExternalProjectNumber = (world: World, companyId: string, number: string) => {
		const projects = new Set([...world.projects.values()].filter((p) => world.canAccessCompany(companyId, p.companyId) && p.externalProjectNumber === number).map((p) => p.id));
		if (projects.size === 0) throw notFound(`Project with external number ${number} was not found`);
		return visible(world, companyId).filter((t) => projects.has(t.projectId));
	};
	/** The spec's "task number" is matched against the work order's externalId (see core/README.md). */
	const byTaskNumber = (tasks: Task[], taskNumber: string) => tasks.filter((t) => t.externalId === taskNumber);

	router.core('GET', `${base}/by-project-number/{projectNumber}`, (ctx, { world }) => ({ status: 200, json: byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber) }));
	router.core('GET', `${base}/by-external-project-number/{externalProjectNumber}`, (ctx, { world }) => ({
		status: 200,
		json: byExternalProjectNumber(world, ctx.auth.companyId, ctx.params.externalProjectNumber),
	}));
	router.core('GET', `${base}/by-project-number/{projectNumber}/by-task-number/{taskNumber}`, (ctx, { world }) => {
		const [first] = byTaskNumber(byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber), ctx.params.taskNumber);
		if (!first) throw notFound(`Work order ${ctx.params.taskNumber} was not found in project ${ctx.params.projectNumber}`);
		return { status: 200, json: first };
	});
	router.core('GET', `${base}/by-project-number/{projectNumber}/by-task-number/{taskNumber}/list`, (ctx, { world }) => ({
		status: 200,
		json: byTaskNumber(byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber), ctx.params.taskNumber),
	}));
	router.core('GET', `${base}/by-external-project-number/{externalProjectNumber}/by-external-id/{externalId}`, (ctx, { world }) => {
		const match = byExternalProjectNumber(world, ctx.auth.companyId, ctx.params.externalProjectNumber).find((t) => t.externalId === ctx.params.externalId);
		if (!match) throw notFound(`Work order with external id ${ctx.params.externalId} was not found`);
		return { status: 200, json: match };
	});
	router.core('GET', `${base}/by-production-code/{externalDim01}`, (ctx, { world }) => ({
		status: 200,
		json: visible(world, ctx.auth.companyId).filter((t) => t.externalDim01 === ctx.params.externalDim01),
	}));
	router.core('GET', `${base}/{id}`, (ctx, { world }) => ({ status: 200, json: ensureAccess(world, ctx.auth, world.tasks.get(ctx.params.id), 'Work order', ctx.params.id) }));

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.tasks.get(ctx.params.id), 'Work order', ctx.params.id);
		const body = await ctx.json(createSchema);
		ensureCompany(world, ctx.auth, body.companyId);
		ensureProject(world, ctx.auth, body.projectId);
		validate(world, body, existing.id);
		// Rule 6: a full update resets what is not sent, without consulting the template.
		const replaced = { ...DEFAULTS, name: null, ...body, id: existing.id, isTemplate: false, createdDateTime: existing.createdDateTime, modifiedDateTime: world.clock.iso() } as Task;
		world.tasks.set(existing.id, replaced);
		return { status: 200, json: replaced };
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.tasks.get(ctx.params.id), 'Work order', ctx.params.id);
		const body = await ctx.json(patchSchema);
		if (body.projectId !== undefined) ensureProject(world, ctx.auth, body.projectId);
		validate(world, { ...existing, ...body }, existing.id);
		Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
		return { status: 200, json: existing };
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = ensureAccess(world, ctx.auth, world.tasks.get(ctx.params.id), 'Work order', ctx.params.id);
		world.tasks.delete(existing.id);
		return { status: 204 };
	});

	// The template is set in the web back office; tests set it here.
	router.control('POST', '/__sandbox/template', async (ctx, { world }) => {
		const { projectId, fields } = await ctx.json(z.object({ projectId: z.string(), fields: z.object(taskFields).partial().strict() }).strict());
		const project = world.projects.get(projectId);
		if (!project) throw notFound(`Project ${projectId} was not found`);
		const now = world.clock.iso();
		const template = {
			...DEFAULTS,
			name: 'Mal',
			...fields,
			id: project.templateTaskId ?? world.newId(),
			companyId: project.companyId,
			projectId,
			externalId: `template-${projectId}`,
			isTemplate: true,
			createdDateTime: now,
			modifiedDateTime: now,
		} as Task;
		world.tasks.set(template.id, template);
		project.templateTaskId = template.id;
		return { status: 200, json: template };
	});
}
