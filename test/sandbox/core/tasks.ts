import { z } from 'zod';

import { badRequest, notFound, type Caller, type Reply } from '../http';
import type { Router } from '../router';
import type { Project, Task, World } from '../state';
import { ensureAccess, ensureCompany } from './access';
import { projectsByNumber } from './projects';
import { created, defaultsOf, deleted, isoDate, key, shownTimes, text, written } from './schema';

/**
 * Rule 3 of the spec: settings copied from the project's template work order when a create omits them.
 * (Field names for the settings the spec names only in words are this sandbox's choice; see README.md.)
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

/** [W2] The settings of rule 3 whose field names the spec itself shows; the others may be named otherwise. */
const SHOWN_INHERITED_SETTINGS: readonly string[] = [
	'safeJobAnalysisApprovalRequired',
	'safeJobAnalysisUserPromptText',
	'unitId',
	'measureUnitQty',
	'fixedResourcePrice',
	'costPrice',
	'price',
	'externalDim02',
];

const taskFields = {
	name: text().nullable(),
	active: z.boolean(),
	externalProjectNumber: text(200).nullable(),
	externalProjectName: text().nullable(),
	externalDim01: text(200).nullable(),
	externalDim02: text(200).nullable(),
	workDescriptionShort: text().nullable(),
	workDescription: text(10_000).nullable(),
	startDate: isoDate.nullable(),
	finishedDatePlanned: isoDate.nullable(),
	finishedDate: isoDate.nullable(),
	estimatedHourQty: z.number().finite().nullable(),
	fixedResourcePrice: z.number().finite().nullable(),
	costPrice: z.number().finite().nullable(),
	price: z.number().finite().nullable(),
	unitId: text(200).nullable(),
	measureUnitQty: z.boolean(),
	parentActivityId: text(200).nullable(),
	isParent: z.boolean(),
	chapterId: text(200).nullable(),
	mainForemanId: text(200).nullable(),
	taskLeaderId: text(200).nullable(),
	taskLocationLatitude: z.number().min(-90).max(90).nullable(),
	taskLocationLongitude: z.number().min(-180).max(180).nullable(),
	safeJobAnalysisApprovalRequired: z.boolean(),
	safeJobAnalysisUserPromptText: text(2000).nullable(),
	textRequired: z.boolean(),
	summationType: z.number().int().nullable(),
	doubleRegistration: z.boolean(),
	massHaulDefaults: z.record(z.string(), z.unknown()).nullable(),
	unitQtyReportLevel: z.number().int().nullable(),
	taskType: text(100).nullable(),
};
const required = { companyId: key, projectId: key, externalId: key };
const createSchema = z.object(taskFields).partial().extend(required).strict();
const patchSchema = z
	.object({ ...taskFields, ...required })
	.partial()
	.strict();

/** What a work order field is when neither sent nor inherited; rule 6: PUT resets to these (costPrice 0, SJA false). */
export const TASK_DEFAULTS = {
	...defaultsOf(taskFields, ['fixedResourcePrice', 'costPrice', 'price']),
	name: null,
};

/** Templates are back-office objects: the API neither lists nor finds them. */
export const apiTask = (world: World, id: string): Task | undefined => {
	const task = world.tasks.get(id);
	return task && !task.isTemplate ? task : undefined;
};

/** A work order as answered [C4]. */
export const taskView = (world: World, task: Task) => shownTimes(world, task);

/** [W1] The next service-assigned number in a project: "1", "2", … */
function nextTaskNumber(world: World, projectId: string): string {
	const used = [...world.tasks.values()]
		.filter((t) => t.projectId === projectId && !t.isTemplate)
		.map((t) => Number(t.taskNumber) || 0);
	return String(Math.max(0, ...used) + 1);
}

/** [W1] Seeded work orders get their numbers too, in creation order, when the service assigns them. */
export function seedTaskNumbers(world: World): void {
	if (world.variant.taskNumber !== 'generated') return;
	for (const task of world.tasks.values())
		if (!task.isTemplate) task.taskNumber = nextTaskNumber(world, task.projectId);
}

function ensureTask(world: World, caller: Caller, id: string): Task {
	return ensureAccess(world, caller, apiTask(world, id), 'Work order', id);
}

/** The project must exist, be accessible and belong to the work order's company. */
function ensureProjectOf(
	world: World,
	caller: Caller,
	task: { companyId: string; projectId: string },
): Project {
	const project = ensureAccess(world, caller, world.projects.get(task.projectId), 'Project', task.projectId);
	// [W3] The project's company wins over a companyId that differs (which is then ignored).
	if (world.variant.taskCompanyMismatch === 'projectWins') {
		task.companyId = project.companyId;
		return project;
	}
	ensureCompany(world, caller, task.companyId);
	if (project.companyId !== task.companyId)
		throw badRequest(
			`projectId ${task.projectId} belongs to another company than companyId ${task.companyId}`,
			'projectId',
		);
	return project;
}

const children = (world: World, id: string) =>
	[...world.tasks.values()].filter((t) => t.parentActivityId === id);

/**
 * externalId unique within the project; a parent is a work order of the same project marked `isParent`,
 * never the work order itself or one of its descendants; a work order with sub-orders stays a parent.
 */
function validate(
	world: World,
	task: {
		id?: string;
		projectId: string;
		externalId: string;
		parentActivityId?: unknown;
		isParent?: unknown;
	},
): void {
	for (const other of world.tasks.values()) {
		if (
			other.projectId === task.projectId &&
			other.externalId === task.externalId &&
			other.id !== task.id &&
			!other.isTemplate
		) {
			throw badRequest(
				`externalId ${task.externalId} is already used by another work order of the project`,
				'externalId',
				'Duplicate',
			);
		}
	}
	if (typeof task.parentActivityId === 'string') {
		const parentId = task.parentActivityId;
		const parent = apiTask(world, parentId);
		if (!parent || parent.projectId !== task.projectId)
			throw badRequest(
				`parentActivityId ${parentId} is not a work order of the same project`,
				'parentActivityId',
			);
		// [W4] A parent not marked isParent: refused, or marked by the service.
		if (parent.isParent !== true && world.variant.parentMarking === 'automatic') parent.isParent = true;
		if (parent.isParent !== true)
			throw badRequest(
				`parentActivityId ${parentId} is not marked as a parent: set isParent true on it first`,
				'parentActivityId',
			);
		const seen = new Set<string>();
		for (
			let ancestor: Task | undefined = parent;
			ancestor && !seen.has(ancestor.id);
			ancestor = world.tasks.get(String(ancestor.parentActivityId))
		) {
			if (ancestor.id === task.id)
				throw badRequest(
					`parentActivityId ${parentId} would nest the work order under itself`,
					'parentActivityId',
				);
			seen.add(ancestor.id);
		}
	}
	if (task.id && task.isParent !== true && children(world, task.id).length > 0) {
		throw badRequest('isParent cannot be false while the work order has sub-orders', 'isParent');
	}
}

export function registerTasks(router: Router): void {
	const base = '/api/v4/integration/tasks';

	router.core('POST', base, async (ctx, { world }): Promise<Reply> => {
		const body = await ctx.json(createSchema);
		const project = ensureProjectOf(world, ctx.auth, body);
		validate(world, body);
		// Rules 2–5: omitted settings come from the template; identity, dates, quantities never do; never a template.
		const template = project.templateTaskId ? world.tasks.get(project.templateTaskId) : undefined;
		const settings: readonly string[] =
			world.variant.inheritedSettings === 'sandboxNames' ? INHERITED_SETTINGS : SHOWN_INHERITED_SETTINGS;
		const inherited = template
			? Object.fromEntries(
					settings.filter((field) => template[field] !== undefined).map((field) => [field, template[field]]),
				)
			: {};
		const now = world.clock.iso();
		const task = {
			...TASK_DEFAULTS,
			...inherited,
			...body,
			id: world.newId(),
			isTemplate: false,
			...(world.variant.taskNumber === 'generated'
				? { taskNumber: nextTaskNumber(world, body.projectId) }
				: {}),
			createdDateTime: now,
			modifiedDateTime: now,
		} as Task;
		world.tasks.set(task.id, task);
		return created(world, taskView(world, task));
	});

	const visible = (world: World, companyId: string) =>
		[...world.tasks.values()].filter((t) => !t.isTemplate && world.canAccessCompany(companyId, t.companyId));
	const inProjects = (world: World, companyId: string, projectIds: Set<string>) =>
		visible(world, companyId).filter((t) => projectIds.has(t.projectId));
	const byProjectNumber = (world: World, companyId: string, projectNumber: string) => {
		const projects = projectsByNumber(world, companyId, projectNumber);
		if (projects.length === 0) throw notFound(`Project with number ${projectNumber} was not found`);
		// In the order of the projects (the caller's own company first), so the single lookups take its match.
		return projects.flatMap((project) => inProjects(world, companyId, new Set([project.id])));
	};
	const byExternalProjectNumber = (world: World, companyId: string, number: string) => {
		const projects = [...world.projects.values()].filter(
			(p) => world.canAccessCompany(companyId, p.companyId) && p.externalProjectNumber === number,
		);
		if (projects.length === 0) throw notFound(`Project with external number ${number} was not found`);
		return inProjects(world, companyId, new Set(projects.map((p) => p.id)));
	};
	/**
	 * The spec's "task number" is the work order's externalId (the only number a work order has; see README.md).
	 * It is unique per project, so several matches come from same-numbered projects of the company structure.
	 */
	const byTaskNumber = (world: World, tasks: Task[], taskNumber: string) =>
		tasks.filter(
			(t) => (world.variant.taskNumber === 'externalId' ? t.externalId : t.taskNumber) === taskNumber,
		);

	router.core('GET', `${base}/project/{projectId}`, (ctx, { world }) => {
		const project = ensureAccess(
			world,
			ctx.auth,
			world.projects.get(ctx.params.projectId),
			'Project',
			ctx.params.projectId,
		);
		return {
			status: 200,
			json: inProjects(world, ctx.auth.companyId, new Set([project.id])).map((t) => taskView(world, t)),
		};
	});
	router.core('GET', `${base}/by-project-number/{projectNumber}`, (ctx, { world }) => ({
		status: 200,
		json: byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber).map((t) => taskView(world, t)),
	}));
	router.core('GET', `${base}/by-external-project-number/{externalProjectNumber}`, (ctx, { world }) => ({
		status: 200,
		json: byExternalProjectNumber(world, ctx.auth.companyId, ctx.params.externalProjectNumber).map((t) =>
			taskView(world, t),
		),
	}));
	router.core(
		'GET',
		`${base}/by-project-number/{projectNumber}/by-task-number/{taskNumber}`,
		(ctx, { world }) => {
			const [first] = byTaskNumber(
				world,
				byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber),
				ctx.params.taskNumber,
			);
			if (!first)
				throw notFound(
					`Work order ${ctx.params.taskNumber} was not found in project ${ctx.params.projectNumber}`,
				);
			return { status: 200, json: taskView(world, first) };
		},
	);
	router.core(
		'GET',
		`${base}/by-project-number/{projectNumber}/by-task-number/{taskNumber}/list`,
		(ctx, { world }) => ({
			status: 200,
			json: byTaskNumber(
				world,
				byProjectNumber(world, ctx.auth.companyId, ctx.params.projectNumber),
				ctx.params.taskNumber,
			).map((t) => taskView(world, t)),
		}),
	);
	router.core(
		'GET',
		`${base}/by-external-project-number/{externalProjectNumber}/by-external-id/{externalId}`,
		(ctx, { world }) => {
			const match = byExternalProjectNumber(world, ctx.auth.companyId, ctx.params.externalProjectNumber).find(
				(t) => t.externalId === ctx.params.externalId,
			);
			if (!match)
				throw notFound(
					`Work order with external id ${ctx.params.externalId} was not found in project ${ctx.params.externalProjectNumber}`,
				);
			return { status: 200, json: taskView(world, match) };
		},
	);
	router.core('GET', `${base}/by-production-code/{externalDim01}`, (ctx, { world }) => ({
		status: 200,
		json: visible(world, ctx.auth.companyId)
			.filter((t) => t.externalDim01 === ctx.params.externalDim01)
			.map((t) => taskView(world, t)),
	}));
	router.core('GET', `${base}/{id}`, (ctx, { world }) => ({
		status: 200,
		json: taskView(world, ensureTask(world, ctx.auth, ctx.params.id)),
	}));

	router.core('PUT', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureTask(world, ctx.auth, ctx.params.id);
		const body = await ctx.json(createSchema);
		ensureProjectOf(world, ctx.auth, body);
		// Rule 6: a full update resets what is not sent, without consulting the template.
		const replaced = {
			...TASK_DEFAULTS,
			...body,
			id: existing.id,
			isTemplate: false,
			...(existing.taskNumber === undefined ? {} : { taskNumber: existing.taskNumber }),
			createdDateTime: existing.createdDateTime,
			modifiedDateTime: world.clock.iso(),
		} as Task;
		validate(world, replaced);
		world.tasks.set(existing.id, replaced);
		return written(world, taskView(world, replaced));
	});

	router.core('PATCH', `${base}/{id}`, async (ctx, { world }) => {
		const existing = ensureTask(world, ctx.auth, ctx.params.id);
		const body = await ctx.json(patchSchema);
		const merged = { ...existing, ...body };
		if (body.companyId !== undefined || body.projectId !== undefined) {
			ensureProjectOf(world, ctx.auth, merged);
			if (body.companyId !== undefined) body.companyId = merged.companyId;
		}
		validate(world, merged);
		Object.assign(existing, body, { modifiedDateTime: world.clock.iso() });
		return written(world, taskView(world, existing));
	});

	router.core('DELETE', `${base}/{id}`, (ctx, { world }) => {
		const existing = ensureTask(world, ctx.auth, ctx.params.id);
		// [W5] A work order with sub-orders: refused, or deleted with them (all levels).
		const doomed = [existing];
		for (let i = 0; i < doomed.length; i++) doomed.push(...children(world, doomed[i].id));
		if (doomed.length > 1 && world.variant.deleteWithSubOrders === 'refused')
			throw badRequest(`Work order ${existing.externalId} has sub-orders: delete or move them first`, 'id');
		const answer = taskView(world, existing);
		for (const task of doomed) world.tasks.delete(task.id);
		return deleted(world, answer);
	});

	// The template is set in the web back office (rule 1); tests set it here. It replaces any earlier template.
	router.control('POST', '/__sandbox/template', async (ctx, { world }) => {
		const { projectId, fields } = await ctx.json(
			z.object({ projectId: key, fields: z.object(taskFields).partial().strict().default({}) }).strict(),
		);
		const project = world.projects.get(projectId);
		if (!project) throw notFound(`Project ${projectId} was not found`);
		const now = world.clock.iso();
		const template = {
			...TASK_DEFAULTS,
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
