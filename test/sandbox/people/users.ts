import { z } from 'zod';

import { ApiError, badRequest, forbidden, notFound, queryDate, queryInt, type Caller } from '../http';
import type { Router } from '../router';
import type { Person, World } from '../state';
import { inListScope } from '../core/projects';
import { created, deleted, isoDate, shownTimes, written } from '../core/schema';
import { deletionBlockers, employmentGroups } from './employees';

/**
 * Users (v4): the same `Person` records as employees v5, addressed by identity id and company profile id.
 * Dates are accepted as `dd.MM.yyyy` or `yyyy-MM-dd` and answered as `yyyy-MM-dd`.
 */
export function parseV4Date(value: string): string | undefined {
	const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value);
	const iso = dotted
		? `${dotted[3]}-${dotted[2]}-${dotted[1]}`
		: /^\d{4}-\d{2}-\d{2}$/.test(value)
			? value
			: undefined;
	if (!iso) return undefined;
	const date = new Date(`${iso}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(iso) ? date.toISOString() : undefined;
}

const v4Date = z
	.string()
	.refine((v) => parseV4Date(v) !== undefined, 'must be a date as dd.MM.yyyy or yyyy-MM-dd');

/**
 * [N10] `cardExpirationDate` is "(string)" with no format, unlike the v4 dates: an ISO 8601 date or date-time as the
 * spec's datetimes (time kept; no zone = UTC), or a v4 date.
 */
function parseCardDate(value: string): string | undefined {
	if (parseV4Date(value)) return parseV4Date(value);
	if (!isoDate.safeParse(value).success) return undefined;
	return new Date(/(?:[zZ]|[+-]\d\d:?\d\d)$/.test(value) ? value : `${value}Z`).toISOString();
}
const cardDate = z
	.string()
	.refine((v) => parseCardDate(v) !== undefined, 'must be an ISO 8601 date-time, or a date as yyyy-MM-dd');
/** A card date as answered: a day as the other v4 dates [U1], a time of day kept. */
const cardDateOf = (world: World, iso: string | null | undefined) =>
	iso && !iso.endsWith('T00:00:00.000Z') ? iso : dayOf(world)(iso);
const text = (max = 500) => z.string().max(max);

const optional = {
	email: text(320).nullable(),
	mobilePrivate: text(50).nullable(),
	workTitle: text(200).nullable(),
	department: text(200).nullable(),
	employmentEndDate: v4Date.nullable(),
	mainProjectNumber: text(100).nullable(),
	carRegNumber: text(50).nullable(),
	address: text(1000).nullable(),
	closestRelative: text(500).nullable(),
	personalInfo: text(5000).nullable(),
	cardId: text(100).nullable(),
	cardExpirationDate: cardDate.nullable(),
	payroll: z.boolean(),
	isDisabled: z.boolean(),
	defaultResourceNumber: text(100).nullable(),
	worktimeArrangementName: text(200).nullable(),
	organizationNumber: text(50).nullable(),
	tags: z.array(z.object({ key: text(200), value: text(1000) }).strict()).max(200),
};
const requiredFields = {
	companyId: text(100).min(1),
	employeeNumber: text(100).min(1),
	firstName: text(200).min(1),
	lastName: text(200).min(1),
	mobileWork: text(50).min(3),
	birthDate: v4Date,
	employmentStartDate: v4Date,
};
const createSchema = z.object(optional).partial().extend(requiredFields).strict();
const replaceSchema = createSchema
	.extend({ identityId: text(200).min(1), companyProfileId: text(200).min(1) })
	.strict();
const patchSchema = z
	.object({ ...requiredFields, ...optional })
	.partial()
	.strict();

type UserBody = z.infer<typeof patchSchema>;

/** [U1] A v4 date as answered: `yyyy-MM-dd`, or `yyyy-MM-ddT00:00:00`. */
const dayOf = (world: World) => (iso: string | null | undefined) =>
	iso ? (world.variant.v4DateAnswer === 'date' ? iso.slice(0, 10) : `${iso.slice(0, 10)}T00:00:00`) : null;

/** [U2] The fields the spec shows on the user response, plus the other fields a create requires. */
const SHOWN_USER_FIELDS = [
	'identityId',
	'companyProfileId',
	'companyId',
	'employeeNumber',
	'firstName',
	'lastName',
	'mobileWork',
	'birthDate',
	'employmentStartDate',
];

export function userView(world: World, person: Person) {
	const full = fullUserView(world, person);
	if (world.variant.v4UserAnswer === 'full') return shownTimes(world, full);
	return Object.fromEntries(SHOWN_USER_FIELDS.map((field) => [field, full[field as keyof typeof full]]));
}

function fullUserView(world: World, person: Person) {
	const day = dayOf(world);
	const employment =
		employmentGroups(person, world.clock.nowMs()).current ??
		person.employments[person.employments.length - 1] ??
		null;
	return {
		identityId: person.identityId,
		companyProfileId: person.companyProfileId,
		companyId: person.companyId,
		employeeNumber: person.employeeNumber,
		firstName: person.firstName,
		lastName: person.lastName,
		mobileWork: person.phone,
		email: person.email,
		birthDate: day(person.birthDate),
		employmentStartDate: day(employment?.startDate),
		employmentEndDate: day(employment?.endDate),
		department: employment?.department ?? null,
		mainProjectNumber: employment?.mainProjectNumber ?? null,
		payroll: (employment?.payroll ?? 0) !== 0,
		isDisabled: person.disabled,
		workTitle: person.workTitle ?? null,
		mobilePrivate: person.mobilePrivate ?? null,
		carRegNumber: person.carRegNumber ?? null,
		address: person.address ?? null,
		closestRelative: person.closestRelative ?? null,
		personalInfo: person.personalInfo ?? null,
		cardId: person.cardId ?? null,
		cardExpirationDate: cardDateOf(world, person.cardExpirationDate as string | undefined),
		defaultResourceNumber: person.defaultResourceNumber ?? null,
		worktimeArrangementName: person.worktimeArrangementName ?? null,
		organizationNumber: person.organizationNumber ?? null,
		tags: person.v4Tags ?? [],
		modifiedDateTime: person.modifiedDateTime,
	};
}

/** Applies v4 fields to a person: the employment fields go to the current (or first) employment. */
function apply(world: World, person: Person, body: UserBody, patching = false): void {
	const {
		mobileWork,
		birthDate,
		employmentStartDate,
		employmentEndDate,
		department,
		mainProjectNumber,
		payroll,
		isDisabled,
		tags,
		cardExpirationDate,
		...rest
	} = body;
	// The company of a profile never changes.
	delete rest.companyId;
	Object.assign(person, rest);
	if (mobileWork !== undefined) person.phone = mobileWork;
	if (birthDate !== undefined) person.birthDate = parseV4Date(birthDate) as string;
	if (cardExpirationDate !== undefined)
		person.cardExpirationDate = cardExpirationDate === null ? null : parseCardDate(cardExpirationDate);
	if (isDisabled !== undefined) person.disabled = isDisabled;
	// [U3] A PATCH's tags replace the list, or are merged into it by key.
	if (tags !== undefined && patching && world.variant.v4TagsPatch === 'mergeByKey') {
		const merged = new Map(
			((person.v4Tags ?? []) as { key: string; value: string }[]).map((t) => [t.key, t]),
		);
		for (const tag of tags) merged.set(tag.key, tag);
		person.v4Tags = [...merged.values()];
	} else if (tags !== undefined) person.v4Tags = tags;
	if (person.employments.length === 0)
		person.employments.push({
			id: world.newId(),
			startDate: world.clock.iso(),
			endDate: null,
			department: null,
			mainProjectNumber: null,
			payroll: 0,
		});
	const employment =
		employmentGroups(person, world.clock.nowMs()).current ??
		person.employments[person.employments.length - 1];
	if (employmentStartDate !== undefined) employment.startDate = parseV4Date(employmentStartDate) as string;
	if (employmentEndDate !== undefined)
		employment.endDate = employmentEndDate === null ? null : (parseV4Date(employmentEndDate) as string);
	if (department !== undefined) employment.department = department;
	if (mainProjectNumber !== undefined) employment.mainProjectNumber = mainProjectNumber;
	if (payroll !== undefined) employment.payroll = payroll ? 1 : 0;
	person.modifiedDateTime = world.clock.iso();
}

function visible(world: World, caller: Caller, person: Person | undefined, what: string, id: string): Person {
	if (!person) throw notFound(`${what} ${id} was not found`);
	if (!world.canAccessCompany(caller.companyId, person.companyId))
		throw forbidden(`${what} ${id} belongs to a company this client cannot access`);
	return person;
}

const byProfile = (world: World, caller: Caller, id: string) =>
	visible(world, caller, world.people.get(id), 'User with profile id', id);
const byIdentity = (world: World, caller: Caller, id: string) =>
	visible(
		world,
		caller,
		[...world.people.values()].find(
			(p) => p.identityId === id && world.canAccessCompany(caller.companyId, p.companyId),
		) ?? [...world.people.values()].find((p) => p.identityId === id),
		'User with identity id',
		id,
	);

function ensureUniqueNumber(world: World, companyId: string, employeeNumber: string, except?: Person): void {
	if (
		[...world.people.values()].some(
			(p) => p !== except && p.companyId === companyId && p.employeeNumber === employeeNumber,
		)
	) {
		throw badRequest(
			`employeeNumber ${employeeNumber} is already used in the company`,
			'employeeNumber',
			'Duplicate',
		);
	}
}

/** A user is deletable by the same rule as an employee [U6]. */
function deletable(world: World, person: Person): boolean {
	return deletionBlockers(world, person).length === 0;
}

export function registerUsers(router: Router): void {
	const base = '/api/v4/integration/users';

	router.core('POST', base, async (ctx, { world }) => {
		const body = await ctx.json(createSchema);
		if (!world.canAccessCompany(ctx.auth.companyId, body.companyId))
			throw forbidden(`Company ${body.companyId} is not accessible to this client`);
		ensureUniqueNumber(world, body.companyId, body.employeeNumber);
		const now = world.clock.iso();
		const person: Person = {
			identityId: `auth0|${world.rng.hex(24)}`,
			companyProfileId: world.newId(),
			companyId: body.companyId,
			employeeNumber: body.employeeNumber,
			firstName: body.firstName,
			lastName: body.lastName,
			phone: body.mobileWork,
			email: null,
			birthDate: parseV4Date(body.birthDate) as string,
			disabled: false,
			employments: [],
			tags: [],
			projectCompanies: [],
			createdDateTime: now,
			modifiedDateTime: now,
		};
		apply(world, person, body);
		world.people.set(person.companyProfileId, person);
		return created(world, userView(world, person));
	});

	router.core('GET', base, (ctx, { world }) => {
		const companyId = ctx.queryParam('companyId');
		if (companyId && !world.canAccessCompany(ctx.auth.companyId, companyId))
			throw forbidden(`Company ${companyId} is not accessible to this client`);
		const changedSince = queryDate(ctx, 'changedSince')?.getTime();
		const lookback = queryInt(ctx, 'employmentLookbackDays');
		if (lookback !== undefined && lookback < 0)
			throw badRequest('employmentLookbackDays must be 0 or more', 'employmentLookbackDays');
		const now = world.clock.nowMs();
		const users = [...world.people.values()].filter((p) => {
			if (companyId ? p.companyId !== companyId : !inListScope(world, ctx.auth.companyId, p.companyId))
				return false;
			// [U5] changedSince inclusive, or exclusive.
			const modified = Date.parse(p.modifiedDateTime);
			if (
				changedSince !== undefined &&
				(modified < changedSince || (modified === changedSince && world.variant.changedSince === 'exclusive'))
			)
				return false;
			if (lookback !== undefined) {
				// Active now, or an employment ended within the last `lookback` days.
				const recent = p.employments.some(
					(e) =>
						Date.parse(e.startDate) <= now &&
						(e.endDate === null || Date.parse(e.endDate) >= now - lookback * 86_400_000),
				);
				if (!recent) return false;
			}
			return true;
		});
		return { status: 200, json: users.map((p) => userView(world, p)) };
	});

	router.core('GET', `${base}/by-profile-id/{profileId}`, (ctx, { world }) => ({
		status: 200,
		json: userView(world, byProfile(world, ctx.auth, ctx.params.profileId)),
	}));

	router.core('GET', `${base}/by-employee-number/{employeeNumber}`, (ctx, { world }) => {
		const person = [...world.people.values()].find(
			(p) => p.companyId === ctx.auth.companyId && p.employeeNumber === ctx.params.employeeNumber,
		);
		return {
			status: 200,
			json: userView(
				world,
				visible(world, ctx.auth, person, 'User with employee number', ctx.params.employeeNumber),
			),
		};
	});

	router.core('PUT', `${base}/{identityId}`, async (ctx, { world }) => {
		const person = byIdentity(world, ctx.auth, ctx.params.identityId);
		const { identityId, companyProfileId, ...fields } = await ctx.json(replaceSchema);
		// [U4] Body ids that differ from the path's user: refused, or ignored (the path wins).
		if (world.variant.v4PutIds === 'checked') {
			if (identityId !== person.identityId)
				throw badRequest('identityId in the body differs from the one in the path', 'identityId');
			if (companyProfileId !== person.companyProfileId)
				throw badRequest('companyProfileId does not belong to this identity', 'companyProfileId');
		}
		const body = { ...fields, identityId: person.identityId, companyProfileId: person.companyProfileId };
		ensureUniqueNumber(world, person.companyId, body.employeeNumber, person);
		// A complete user: optional fields not sent are cleared.
		const cleared = Object.fromEntries(
			Object.keys(optional).map((key) => [
				key,
				key === 'payroll' || key === 'isDisabled' ? false : key === 'tags' ? [] : null,
			]),
		);
		// identityId and companyProfileId equal the person's own (checked above).
		apply(world, person, { ...cleared, ...body } as UserBody);
		return written(world, userView(world, person));
	});

	router.core('PATCH', `${base}/{companyProfileId}`, async (ctx, { world }) => {
		const person = byProfile(world, ctx.auth, ctx.params.companyProfileId);
		const body = await ctx.json(patchSchema);
		if (body.employeeNumber !== undefined)
			ensureUniqueNumber(world, person.companyId, body.employeeNumber, person);
		apply(world, person, body, true);
		return written(world, userView(world, person));
	});

	for (const [action, disabled] of [
		['disable', true],
		['enable', false],
	] as const) {
		router.core('PATCH', `${base}/${action}/{companyProfileId}`, (ctx, { world }) => {
			const person = byProfile(world, ctx.auth, ctx.params.companyProfileId);
			person.disabled = disabled;
			person.modifiedDateTime = world.clock.iso();
			return { status: 204 };
		});
	}

	router.core('DELETE', `${base}/{identityId}`, (ctx, { world }) => {
		const person = byIdentity(world, ctx.auth, ctx.params.identityId);
		const [blocker] = deletionBlockers(world, person);
		if (blocker !== undefined) {
			const active = world.variant.deletableRule === 'noActiveEmployment';
			throw new ApiError(
				400,
				active
					? `User ${person.employeeNumber} has an active employment and cannot be deleted`
					: `User ${person.employeeNumber} cannot be deleted: ${blocker}`,
				[
					{
						category: 'Validation',
						code: 'NotDeletable',
						field: 'identityId',
						message: active ? 'The user has an active employment' : blocker,
					},
				],
			);
		}
		const answer = userView(world, person);
		world.people.delete(person.companyProfileId);
		return deleted(world, answer);
	});

	router.core('GET', `${base}/is-identity-deletable/{identityId}`, (ctx, { world }) => ({
		status: 200,
		json: deletable(world, byIdentity(world, ctx.auth, ctx.params.identityId)),
	}));
}
