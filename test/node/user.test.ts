import { userDate } from '../../nodes/FieldOps/parameters/dates';
import { userResource } from '../../nodes/FieldOps/resources/user';
import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const user = (mode: 'employeeNumber' | 'profileId', value: string) => ({ __rl: true, mode, value });
const DAY = 86_400_000;

describe('User (v4) dates', () => {
	it('formats picker values, ISO strings and dotted dates in both formats, without shifting the day', () => {
		for (const value of ['1985-04-03T00:00:00', '1985-04-03', '1985-04-03T23:30:00+02:00', '03.04.1985']) {
			expect(userDate('Birth Date', value, 'yyyy-MM-dd')).toBe('1985-04-03');
			expect(userDate('Birth Date', value, 'dd.MM.yyyy')).toBe('03.04.1985');
		}
	});

	it('refuses dates that do not exist or cannot be read', () => {
		for (const value of ['2024-02-30', '31.04.2024', 'next friday', '']) {
			expect(() => userDate('Birth Date', value, 'yyyy-MM-dd')).toThrow(/Birth Date is not a valid date/);
		}
	});

	it('is marked as the legacy API in the UI', () => {
		expect(userResource.name).toBe('User (Legacy)');
		expect(userResource.notice).toMatch(/legacy.*Employee resource \(v5\)/);
	});
});

describe('Field Ops → User (Legacy, v4)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const companyId = () => sb().clients[0].companyId;
	const person = (employeeNumber: string) =>
		[...sb().sandbox.world.people.values()].find(
			(p) => p.employeeNumber === employeeNumber && p.companyId === companyId(),
		);
	const run = async (
		parameters: Record<string, unknown>,
		options: { continueOnFail?: boolean; credentialId?: string } = {},
	) => await harness.run(fieldOpsWorkflow({ resource: 'user', ...parameters }, options));
	const out = (result: Awaited<ReturnType<typeof run>>) => result.items['Field Ops'];
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body.requests as Record<string, number>;
	const day = (offset: number) =>
		`${new Date(sb().sandbox.world.clock.nowMs() + offset * DAY).toISOString().slice(0, 10)}T00:00:00`;
	const required = (employeeNumber: string) => ({
		operation: 'create',
		companyId: companyId(),
		employeeNumber,
		firstName: 'Per',
		lastName: 'Hansen',
		mobileWork: `+47${employeeNumber.replace(/\D/g, '').padStart(8, '8')}`,
		birthDate: '1985-04-03T00:00:00',
		employmentStartDate: day(-200),
	});
	/** U-1 and U-2 as the first two tests create them. */
	const createU1 = async (extra: Record<string, unknown> = {}) =>
		await run({
			...required('U-1'),
			additionalFields: {
				email: 'per@example.com',
				payroll: true,
				cardExpirationDate: '2027-01-31T00:00:00',
				tags: {
					tag: [
						{ key: 'Union', value: 'Yes' },
						{ key: 'Size', value: 'L' },
					],
				},
				...extra,
			},
		});
	const createU2 = async () =>
		await run({
			...required('U-2'),
			birthDate: '1986-11-02T00:00:00',
			employmentStartDate: '2020-01-15T00:00:00',
			dateFormat: 'dd.MM.yyyy',
			additionalFields: { employmentEndDate: day(-40), isDisabled: true },
		});
	/** The users a test reads or changes, created by the test itself (each test starts from the seed); counted requests start after. */
	const given = async (...creates: Array<() => ReturnType<typeof run>>) => {
		for (const create of creates) {
			const result = await create();
			if (result.error) throw result.error;
		}
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
		useSandboxCredential(harness, sb(), 'fieldops-other', 'other');
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('creates a user with yyyy-MM-dd dates, key/value tags and hourly payroll', async () => {
		const result = await run({
			...required('U-1'),
			additionalFields: {
				email: 'per@example.com',
				payroll: true,
				cardExpirationDate: '2027-01-31T00:00:00',
				tags: {
					tag: [
						{ key: 'Union', value: 'Yes' },
						{ key: 'Size', value: 'L' },
					],
				},
			},
		});
		expect(result.error).toBeUndefined();
		const created = person('U-1');
		expect(created).toMatchObject({
			email: 'per@example.com',
			birthDate: '1985-04-03T00:00:00.000Z',
			cardExpirationDate: '2027-01-31T00:00:00.000Z',
		});
		expect(created?.v4Tags).toEqual([
			{ key: 'Union', value: 'Yes' },
			{ key: 'Size', value: 'L' },
		]);
		expect(created?.employments[0]).toMatchObject({ payroll: 1, startDate: `${day(-200)}.000Z` });
		// The answer passes through: dates as the service writes them (U1), the unshown fields only if it sends them (U2).
		const { v4DateAnswer, v4UserAnswer } = sb().sandbox.world.variant;
		expect(out(result)[0].json).toMatchObject({
			employeeNumber: 'U-1',
			birthDate: v4DateAnswer === 'date' ? '1985-04-03' : '1985-04-03T00:00:00',
			identityId: expect.stringContaining('|'),
			...(v4UserAnswer === 'full' ? { payroll: true } : {}),
		});
	});

	it('creates a user with dd.MM.yyyy dates (same calendar days, no day/month swap)', async () => {
		const result = await run({
			...required('U-2'),
			birthDate: '1986-11-02T00:00:00',
			employmentStartDate: '2020-01-15T00:00:00',
			dateFormat: 'dd.MM.yyyy',
			additionalFields: { employmentEndDate: day(-40), isDisabled: true },
		});
		expect(result.error).toBeUndefined();
		expect(person('U-2')).toMatchObject({ birthDate: '1986-11-02T00:00:00.000Z', disabled: true });
		expect(person('U-2')?.employments[0]).toMatchObject({
			startDate: '2020-01-15T00:00:00.000Z',
			endDate: `${day(-40)}.000Z`,
		});
	});

	it('refuses an impossible date before sending anything', async () => {
		const result = await run({ ...required('U-3'), birthDate: '1985-02-30' }, { continueOnFail: true });
		expect(out(result)[0].json.error).toBe('Birth Date is not a valid date: "1985-02-30"');
		expect((await stats())['POST /api/v4/integration/users']).toBeUndefined();
	});

	it('gets a user by employee number and by profile ID with one request each', async () => {
		await given(createU1);
		const profileId = person('U-1')!.companyProfileId;
		const byNumber = await run({ operation: 'get', user: user('employeeNumber', 'U-1') });
		const byProfile = await run({ operation: 'get', user: user('profileId', profileId) });
		expect(out(byNumber)[0].json.companyProfileId).toBe(profileId);
		expect(out(byProfile)[0].json.employeeNumber).toBe('U-1');
		expect(await stats()).toMatchObject({
			'GET /api/v4/integration/users/by-employee-number/{employeeNumber}': 1,
			'GET /api/v4/integration/users/by-profile-id/{profileId}': 1,
		});
	});

	it('lists users by company, changed since a time, and employment lookback', async () => {
		await given(createU1, createU2);
		const all = await run({ operation: 'getAll', returnAll: true, filters: { companyId: companyId() } });
		const numbers = out(all).map((i) => i.json.employeeNumber);
		expect(numbers).toEqual(expect.arrayContaining(['U-1', 'U-2']));
		expect(numbers).toHaveLength(sb().sandbox.world.peopleOf(companyId()).length);

		const since = sb().sandbox.world.clock.iso();
		sb().sandbox.world.clock.advance(5);
		await run({
			operation: 'update',
			user: user('employeeNumber', 'U-1'),
			updateFields: { workTitle: 'Tømrer' },
		});
		const changed = await run({ operation: 'getAll', returnAll: true, filters: { changedSince: since } });
		expect(out(changed).map((i) => i.json.employeeNumber)).toEqual(['U-1']);

		const recent = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { employmentLookbackDays: 10 },
		});
		const longer = await run({
			operation: 'getAll',
			returnAll: true,
			filters: { employmentLookbackDays: 60 },
		});
		expect(out(recent).map((i) => i.json.employeeNumber)).not.toContain('U-2');
		expect(out(longer).map((i) => i.json.employeeNumber)).toContain('U-2');

		const limited = await run({ operation: 'getAll', returnAll: false, limit: 1 });
		expect(out(limited)).toHaveLength(1);
	});

	it('updates only the fields given, by profile ID, with dates in dd.MM.yyyy', async () => {
		await given(() => createU1({ workTitle: 'Tømrer' }));
		const before = person('U-1')!;
		const result = await run({
			operation: 'update',
			user: user('profileId', before.companyProfileId),
			dateFormat: 'dd.MM.yyyy',
			updateFields: { department: 'Betong', cardExpirationDate: '2028-06-30T00:00:00' },
		});
		expect(result.error).toBeUndefined();
		expect(person('U-1')).toMatchObject({
			email: 'per@example.com',
			workTitle: 'Tømrer',
			cardExpirationDate: '2028-06-30T00:00:00.000Z',
		});
		expect(person('U-1')?.employments[0].department).toBe('Betong');
		expect((await stats())['PATCH /api/v4/integration/users/{companyProfileId}']).toBe(1);
	});

	it('sends Update’s tags as given: the service replaces the list or merges it by key [U3]', async () => {
		await given(createU1);
		const result = await run({
			operation: 'update',
			user: user('employeeNumber', 'U-1'),
			updateFields: { tags: { tag: [{ key: 'Size', value: 'XL' }] } },
		});
		expect(result.error).toBeUndefined();
		// Whether a PATCH replaces the tags or merges them is not shown (U3): the node claims neither.
		expect(person('U-1')?.v4Tags).toEqual(
			sb().sandbox.world.variant.v4TagsPatch === 'replace'
				? [{ key: 'Size', value: 'XL' }]
				: [
						{ key: 'Union', value: 'Yes' },
						{ key: 'Size', value: 'XL' },
					],
		);
	});

	it('replaces a user found by employee number: identity ID with "|" as one path segment, both IDs in the body', async () => {
		await given(createU1);
		const { identityId, companyProfileId } = person('U-1')!;
		expect(identityId).toContain('|');
		const result = await run({
			...required('U-1'),
			operation: 'replace',
			user: user('employeeNumber', 'U-1'),
			firstName: 'Pål',
			additionalFields: { workTitle: 'Formann' },
		});
		expect(result.error).toBeUndefined();
		expect(person('U-1')).toMatchObject({
			identityId,
			companyProfileId,
			firstName: 'Pål',
			workTitle: 'Formann',
			email: null,
			v4Tags: [],
		});
		expect((await stats())['PUT /api/v4/integration/users/{identityId}']).toBe(1);
	});

	it('disables and enables a user, answering a clear item for the 204', async () => {
		await given(createU1);
		const disabled = await run({ operation: 'disable', user: user('employeeNumber', 'U-1') });
		expect(out(disabled)[0].json).toEqual({ success: true, disabled: true, user: { employeeNumber: 'U-1' } });
		expect(person('U-1')?.disabled).toBe(true);
		const enabled = await run({ operation: 'enable', user: user('employeeNumber', 'U-1') });
		expect(out(enabled)[0].json).toMatchObject({ success: true, disabled: false });
		expect(person('U-1')?.disabled).toBe(false);
	});

	it('checks deletability and deletes by identity ID; an undeletable user gets a readable error', async () => {
		await given(createU1, createU2);
		const active = await run({ operation: 'checkDeletable', user: user('employeeNumber', 'U-1') });
		const ended = await run({ operation: 'checkDeletable', user: user('employeeNumber', 'U-2') });
		expect(out(active)[0].json).toEqual({ result: false });
		expect(out(ended)[0].json).toEqual({ result: true });

		const refused = await run(
			{ operation: 'delete', user: user('employeeNumber', 'U-1') },
			{ continueOnFail: true },
		);
		// [U6] Not deletable while employed, or until disabled (the alt variant): the service's reason, readable.
		const reason =
			sb().sandbox.world.variant.deletableRule === 'noActiveEmployment'
				? 'The user has an active employment'
				: 'The employee must be disabled first';
		expect(out(refused)[0].json.error).toBe(`Field Ops refused the request: User — ${reason}`);

		const profileId = person('U-2')!.companyProfileId;
		const deleted = await run({ operation: 'delete', user: user('profileId', profileId) });
		// [C3] An empty answer is {success: true}; a deleted record sent back passes through.
		expect(out(deleted)[0].json).toEqual(
			sb().sandbox.world.variant.deleteAnswer === 'empty'
				? { success: true }
				: expect.objectContaining({ companyProfileId: profileId }),
		);
		expect(person('U-2')).toBeUndefined();
		expect((await stats())['DELETE /api/v4/integration/users/{identityId}']).toBe(2);
	});

	it('explains an unknown user and another company’s user', async () => {
		await given(createU1);
		const missing = await run(
			{ operation: 'get', user: user('employeeNumber', 'NO|SUCH/1') },
			{ continueOnFail: true },
		);
		expect(out(missing)[0].json.error).toBe(
			'The user was not found: User with employee number NO|SUCH/1 was not found',
		);

		const foreign = await run(
			{ operation: 'get', user: user('profileId', person('U-1')!.companyProfileId) },
			{ credentialId: 'other', continueOnFail: true },
		);
		expect(out(foreign)[0].json.error).toMatch(/^No access to this user: .*cannot access/);
	});
});
