import { z } from 'zod';

import {
	ApiError,
	badRequest,
	parseIsoDate,
	queryBool,
	type Caller,
	type Reply,
	type RequestContext,
} from '../http';
import type { Router } from '../router';
import type { Employment, Person, World } from '../state';
import { replaceTags, tagsSchema, tagView } from './tags';

/**
 * Employees (v5): the `Person` records addressed by employee number. Every error has the v5 body
 * `{message, errors[{category, code, field, message}]}`.
 */
const isoDate = z.string().refine((v) => parseIsoDate(v) !== undefined, 'must be an ISO 8601 date-time');
const text = (max = 500) => z.string().max(max);

const employmentSchema = z
	.object({
		startDate: isoDate,
		endDate: isoDate.nullable().optional(),
		department: text(200).nullable().optional(),
		mainProjectNumber: text(100).nullable().optional(),
		payroll: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
	})
	.strict();

const OPTIONAL_PROFILE = {
	email: text(320).nullable(),
	address: text(1000).nullable(),
	workTitle: text(200).nullable(),
	carRegistrationNumber: text(50).nullable(),
	closestRelative: text(500).nullable(),
	personalInfo: text(5000).nullable(),
	workCardId: text(100).nullable(),
	workCardExpirationDate: isoDate.nullable(),
};
const createSchema = z
	.object({
		employeeNumber: text(100).min(1),
		firstName: text(200).min(1),
		lastName: text(200).min(1),
		phone: text(50).min(3),
		birthDate: isoDate,
		employment: employmentSchema,
	})
	.extend(z.object(OPTIONAL_PROFILE).partial().shape)
	.strict();
const replaceSchema = z
	.object({ firstName: text(200).min(1), lastName: text(200).min(1), birthDate: isoDate })
	.extend(z.object({ phone: text(50).min(3), ...OPTIONAL_PROFILE }).partial().shape)
	.strict();
/** PATCH: omitted = unchanged, null clears; the required profile fields cannot be cleared. */
const patchSchema = z
	.object({
		firstName: text(200).min(1),
		lastName: text(200).min(1),
		email: text(320).nullable(),
		phone: text(50).min(3),
		birthDate: isoDate,
		address: text(1000).nullable(),
		workTitle: text(200).nullable(),
		carRegistrationNumber: text(50).nullable(),
		closestRelative: text(500).nullable(),
		personalInfo: text(5000).nullable(),
	})
	.partial()
	.strict();
const updateEmploymentSchema = employmentSchema.partial().strict();
const DAY = 86_400_000;
const dayOf = (iso: string) => Math.floor(Date.parse(iso) / DAY);

export function employmentGroups(person: Person, todayMs: number) {
	const today = Math.floor(todayMs / DAY);
	const current =
		person.employments.find(
			(e) => dayOf(e.startDate) <= today && (e.endDate === null || dayOf(e.endDate) >= today),
		) ?? null;
	return {
		current,
		upcoming: person.employments.filter((e) => dayOf(e.startDate) > today),
		historical: person.employments.filter((e) => e.endDate !== null && dayOf(e.endDate) < today),
	};
}

function topCompany(world: World, companyId: string): string {
	let company = world.companies.get(companyId);
	while (company?.parentId) company = world.companies.get(company.parentId);
	return company?.id ?? companyId;
}

/** Employee numbers are unique within the company structure. */
function ensureUniqueNumber(world: World, companyId: string, employeeNumber: string, except?: Person): void {
	const structure = world.companyTree(topCompany(world, companyId));
	for (const person of world.people.values()) {
		if (
			person !== except &&
			structure.includes(person.companyId) &&
			person.employeeNumber === employeeNumber
		) {
			throw badRequest(
				`employeeNumber ${employeeNumber} is already used in the company structure`,
				'employeeNumber',
				'Duplicate',
			);
		}
	}
}

/** v5 answers every error, 404 and 403 included, with the offending field in `errors`. */
function v5Error(status: number, category: string, code: string, field: string, message: string): ApiError {
	return new ApiError(status, message, [{ category, code, field, message }]);
}

export function findEmployee(world: World, caller: Caller, employeeNumber: string): Person {
	const person = [...world.people.values()].find(
		(p) => p.employeeNumber === employeeNumber && world.canAccessCompany(caller.companyId, p.companyId),
	);
	// [V4] Another company's employee: 404 (numbers are looked up among accessible companies only), or 403.
	if (
		!person &&
		world.variant.otherCompanyEmployee === 403 &&
		[...world.people.values()].some((p) => p.employeeNumber === employeeNumber)
	)
		throw v5Error(
			403,
			'Forbidden',
			'EmployeeNotAccessible',
			'employeeNumber',
			`Employee ${employeeNumber} belongs to a company this client cannot access`,
		);
	if (!person)
		throw v5Error(
			404,
			'NotFound',
			'EmployeeNotFound',
			'employeeNumber',
			`Employee ${employeeNumber} was not found`,
		);
	return person;
}

const INCLUDES = ['tags', 'work-time-arrangements', 'employment-history'];

function includes(ctx: RequestContext): Set<string> {
	const values = (ctx.queryParam('include') ?? '')
		.split(',')
		.map((v) => v.trim())
		.filter(Boolean);
	for (const value of values)
		if (!INCLUDES.includes(value) && ctx.variant.queryValues === 'refused')
			throw badRequest(`include may contain ${INCLUDES.join(', ')} (got "${value}")`, 'include');
	// [E5] A lenient service ignores values it does not know.
	return new Set(values.filter((value) => INCLUDES.includes(value)));
}

export function employeeView(world: World, person: Person, include: Set<string> = new Set()) {
	const groups = employmentGroups(person, world.clock.nowMs());
	const view: Record<string, unknown> = {
		employeeNumber: person.employeeNumber,
		firstName: person.firstName,
		lastName: person.lastName,
		phone: person.phone,
		email: person.email,
		birthDate: person.birthDate,
		companyId: person.companyId,
		isDisabled: person.disabled,
	};
	for (const field of Object.keys(OPTIONAL_PROFILE))
		if (field !== 'email') view[field] = person[field] ?? null;
	view.employment = groups.current;
	view.projectCompanies = person.projectCompanies;
	if (include.has('tags')) view.tags = person.tags.map((tag) => tagView(world, tag));
	if (include.has('work-time-arrangements'))
		view.workTimeArrangements = [
			{ name: 'Standard 37,5 t', validFrom: person.employments[0]?.startDate ?? null },
		];
	if (include.has('employment-history')) view.employmentHistory = groups;
	if (world.variant.employeeAnswer === 'sandbox') return view;
	// [V1] Other names for what the spec does not show: no companyId or project companies, `disabled`,
	// `currentEmployment`, work-time arrangements as {workTimeArrangementName, fromDate}.
	const { companyId: _c, isDisabled, employment, projectCompanies: _p, workTimeArrangements, ...rest } = view;
	return {
		...rest,
		disabled: isDisabled,
		currentEmployment: employment,
		...(workTimeArrangements
			? {
					workTimeArrangements: [
						{
							workTimeArrangementName: 'Standard 37,5 t',
							fromDate: person.employments[0]?.startDate ?? null,
						},
					],
				}
			: {}),
	};
}

/** [U6] Why a person cannot be deleted now (empty: deletable). */
export function deletionBlockers(world: World, person: Person): string[] {
	if (world.variant.deletableRule === 'noActiveEmployment')
		return employmentGroups(person, world.clock.nowMs()).current
			? ['The employee has an active employment: end it first']
			: [];
	return person.disabled ? [] : ['The employee must be disabled first'];
}

/** [V6] The answer of an action whose result the spec leaves blank: the employee, or 204. */
function actionAnswer(world: World, person: Person, include?: Set<string>): Reply {
	return world.variant.employeeActionAnswer === 'employee'
		? { status: 200, json: employeeView(world, person, include) }
		: { status: 204 };
}

function newEmployment(world: World, body: z.infer<typeof employmentSchema>): Employment {
	return {
		id: world.newId(),
		startDate: body.startDate,
		endDate: body.endDate ?? null,
		department: body.department ?? null,
		mainProjectNumber: body.mainProjectNumber ?? null,
		payroll: body.payroll ?? 0,
	};
}

function touch(world: World, person: Person) {
	person.modifiedDateTime = world.clock.iso();
}

export function registerEmployees(router: Router): void {
	const base = '/api/v5/integration/employees';
	const one = `${base}/{employeeNumber}`;

	router.core('POST', base, async (ctx, { world }) => {
		const body = await ctx.json(createSchema);
		const companyId = ctx.auth.companyId;
		ensureUniqueNumber(world, companyId, body.employeeNumber);
		const now = world.clock.iso();
		const { employment, ...profile } = body;
		const person: Person = {
			...profile,
			email: profile.email ?? null,
			identityId: `auth0|${world.rng.hex(24)}`,
			companyProfileId: world.newId(),
			companyId,
			disabled: false,
			employments: [newEmployment(world, employment)],
			tags: [],
			projectCompanies: [],
			createdDateTime: now,
			modifiedDateTime: now,
		};
		world.people.set(person.companyProfileId, person);
		// [V1] The full employee (201 is the spec's); with its employment history, or without.
		const history = world.variant.employeeAnswer === 'sandbox' ? ['employment-history'] : [];
		return { status: 201, json: employeeView(world, person, new Set(history)) };
	});

	router.core('GET', base, (ctx, { world }) => {
		const include = includes(ctx);
		const fromSubsidiaries = queryBool(ctx, 'includeEmployeesFromSubsidiaries') ?? false;
		const number = ctx.queryParam('employeeNumber');
		const people = [...world.people.values()].filter(
			(p) =>
				(fromSubsidiaries
					? world.canAccessCompany(ctx.auth.companyId, p.companyId)
					: p.companyId === ctx.auth.companyId) &&
				(!number || p.employeeNumber === number),
		);
		return { status: 200, json: people.map((p) => employeeView(world, p, include)) };
	});

	router.core('GET', `${base}/search`, (ctx, { world }) => {
		const query = (ctx.queryParam('query') ?? '').toLowerCase();
		const today = world.clock.nowMs();
		const hits = [...world.people.values()].filter(
			(p) =>
				world.canAccessCompany(ctx.auth.companyId, p.companyId) &&
				[`${p.firstName} ${p.lastName}`, p.phone, p.email, p.employeeNumber].some(
					(v) => typeof v === 'string' && v.toLowerCase().includes(query),
				),
		);
		// [V2] A hit beyond hasActiveEmployment: number, names, phone and e-mail; or number and one name.
		const hit = (p: Person) =>
			world.variant.employeeSearchHit === 'sandbox'
				? {
						employeeNumber: p.employeeNumber,
						firstName: p.firstName,
						lastName: p.lastName,
						phone: p.phone,
						email: p.email,
						hasActiveEmployment: employmentGroups(p, today).current !== null,
					}
				: {
						employeeNumber: p.employeeNumber,
						name: `${p.firstName} ${p.lastName}`,
						hasActiveEmployment: employmentGroups(p, today).current !== null,
					};
		return { status: 200, json: hits.map(hit) };
	});

	router.core('GET', one, (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		// GET looks in the subsidiaries only when asked, like the list; the other routes reach the whole structure.
		// [V3] Or the subsidiaries are always searched.
		if (
			world.variant.employeeGetSubsidiaries === 'flagNeeded' &&
			!(queryBool(ctx, 'includeEmployeesFromSubsidiaries') ?? false) &&
			person.companyId !== ctx.auth.companyId
		) {
			throw v5Error(
				404,
				'NotFound',
				'EmployeeNotFound',
				'employeeNumber',
				`Employee ${person.employeeNumber} was not found in the caller's company (set includeEmployeesFromSubsidiaries)`,
			);
		}
		return { status: 200, json: employeeView(world, person, includes(ctx)) };
	});

	router.core('PUT', one, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const body = await ctx.json(replaceSchema);
		// [V5] "Replaces all profile fields": phone kept when not sent, or required like the other login data.
		if (body.phone === undefined && world.variant.employeePutPhone === 'required')
			throw v5Error(400, 'Validation', 'Required', 'phone', 'phone is required when replacing the profile');
		for (const field of ['phone', ...Object.keys(OPTIONAL_PROFILE)])
			person[field] =
				field === 'phone' ? (body.phone ?? person.phone) : ((body as Record<string, unknown>)[field] ?? null);
		Object.assign(person, { firstName: body.firstName, lastName: body.lastName, birthDate: body.birthDate });
		touch(world, person);
		return { status: 200, json: employeeView(world, person) };
	});

	router.core('PATCH', one, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		Object.assign(person, await ctx.json(patchSchema));
		touch(world, person);
		return { status: 200, json: employeeView(world, person) };
	});

	router.core('DELETE', one, (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		// [V9] The spec gives DELETE no refusal: done anyway, or refused like the deletability check says.
		const [blocker] = deletionBlockers(world, person);
		if (blocker !== undefined && world.variant.v5DeleteChecked === 'yes')
			throw v5Error(400, 'Validation', 'NotDeletable', 'employeeNumber', blocker);
		world.people.delete(person.companyProfileId);
		return { status: 204 };
	});

	/** [U6] Whether the employee can be deleted, and why not. */
	router.core('GET', `${one}/deletable`, (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const validationErrors = deletionBlockers(world, person);
		return { status: 200, json: { isDeletable: validationErrors.length === 0, validationErrors } };
	});

	for (const [action, disabled] of [
		['disable', true],
		['enable', false],
	] as const) {
		router.core('PATCH', `${one}/${action}`, (ctx, { world }) => {
			const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
			person.disabled = disabled;
			// Disabling cascades to every project company the employee is in.
			if (disabled) for (const pc of person.projectCompanies) pc.enabled = false;
			touch(world, person);
			return { status: 200, json: employeeView(world, person) };
		});
	}

	router.core('PATCH', `${one}/end-employment`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const { endDate } = await ctx.json(z.object({ endDate: isoDate }).strict());
		const current = employmentGroups(person, world.clock.nowMs()).current;
		if (!current)
			throw badRequest('The employee has no active employment to end', 'endDate', 'NoActiveEmployment');
		if (Date.parse(endDate) < Date.parse(current.startDate))
			throw badRequest('endDate is before the start of the employment', 'endDate');
		current.endDate = endDate;
		// In a multi-company setup the project-company employments end too.
		for (const pc of person.projectCompanies) pc.enabled = false;
		touch(world, person);
		return actionAnswer(world, person, new Set(['employment-history']));
	});

	router.core('POST', `${one}/create-employment`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const body = await ctx.json(employmentSchema);
		const current = employmentGroups(person, world.clock.nowMs()).current;
		if (current && (current.endDate === null || Date.parse(current.endDate) >= Date.parse(body.startDate))) {
			// The current employment ends the day before the new one starts.
			current.endDate = new Date(Date.parse(body.startDate) - DAY).toISOString();
		}
		const employment = newEmployment(world, body);
		person.employments.push(employment);
		touch(world, person);
		// [V6] Or 201 with the new employment.
		if (world.variant.employeeActionAnswer === 'empty') return { status: 201, json: employment };
		return { status: 200, json: employeeView(world, person, new Set(['employment-history'])) };
	});

	router.core('PATCH', `${one}/update-employment`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		// [V7] Every employment field, or all but startDate (then an unknown field, see [E3]).
		const body = await ctx.json(
			world.variant.updateEmploymentFields === 'all'
				? updateEmploymentSchema
				: updateEmploymentSchema.omit({ startDate: true }),
		);
		const current = employmentGroups(person, world.clock.nowMs()).current;
		if (!current)
			throw badRequest('The employee has no active employment to update', 'employment', 'NoActiveEmployment');
		Object.assign(current, body);
		touch(world, person);
		return actionAnswer(world, person, new Set(['employment-history']));
	});

	router.core('PATCH', `${one}/change-employee-number`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const { newEmployeeNumber } = await ctx.json(z.object({ newEmployeeNumber: text(100).min(1) }).strict());
		ensureUniqueNumber(world, person.companyId, newEmployeeNumber, person);
		person.employeeNumber = newEmployeeNumber;
		touch(world, person);
		return actionAnswer(world, person);
	});

	router.core('PATCH', `${one}/change-phone-number`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const { newPhoneNumber } = await ctx.json(z.object({ newPhoneNumber: text(50).min(3) }).strict());
		// Identity-level: every company profile of the person changes.
		for (const profile of world.people.values()) {
			if (profile.identityId === person.identityId) {
				profile.phone = newPhoneNumber;
				touch(world, profile);
			}
		}
		return actionAnswer(world, person);
	});

	for (const [action, enabled] of [
		['enable-employee-in-project-company', true],
		['disable-employee-in-project-company', false],
	] as const) {
		router.core('POST', `${one}/${action}`, async (ctx, { world }) => {
			const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
			const body = await ctx.json(
				z
					.object({ projectCompanyId: z.string().min(1), userGroupId: z.string().nullable().optional() })
					.strict(),
			);
			const structure = world.companyTree(topCompany(world, person.companyId));
			if (
				!structure.includes(body.projectCompanyId) ||
				!world.canAccessCompany(ctx.auth.companyId, body.projectCompanyId)
			) {
				throw v5Error(
					403,
					'Forbidden',
					'ProjectCompanyNotInStructure',
					'projectCompanyId',
					`Company ${body.projectCompanyId} is not a project company of this company structure`,
				);
			}
			const existing = person.projectCompanies.find((pc) => pc.companyId === body.projectCompanyId);
			const entry = existing ?? { companyId: body.projectCompanyId, enabled, userGroupId: null };
			entry.enabled = enabled;
			if (enabled) entry.userGroupId = body.userGroupId ?? 'default-user';
			if (!existing) person.projectCompanies.push(entry);
			touch(world, person);
			return actionAnswer(world, person);
		});
	}

	router.core('PUT', `${one}/tags`, async (ctx, { world }) => {
		const person = findEmployee(world, ctx.auth, ctx.params.employeeNumber);
		const definitions = world.tagDefinitions.filter(
			(d) => d.companyId === topCompany(world, person.companyId),
		);
		const answer = replaceTags(world, person, definitions, await ctx.json(tagsSchema));
		// [V8] added/updated/removed as lists of assignments, or as counts.
		if (world.variant.tagAnswerParts === 'lists') return { status: 200, json: answer };
		const { added, updated, removed, currentTags } = answer;
		return {
			status: 200,
			json: { added: added.length, updated: updated.length, removed: removed.length, currentTags },
		};
	});
}
