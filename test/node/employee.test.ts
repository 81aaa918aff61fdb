import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { COMPANY_IDS } from '../sandbox/seed';

const employee = (value: string) => ({ __rl: true, mode: 'employeeNumber', value });
const DAY = 86_400_000;

describe('Field Ops → Employee (v5)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const person = (employeeNumber: string) =>
		[...sb().sandbox.world.people.values()].find((p) => p.employeeNumber === employeeNumber);
	const run = async (
		parameters: Record<string, unknown>,
		options: { continueOnFail?: boolean; credentialId?: string } = {},
	) => await harness.run(fieldOpsWorkflow({ resource: 'employee', ...parameters }, options));
	const out = (result: Awaited<ReturnType<typeof run>>) => result.items['Field Ops'];
	/** A calendar day relative to the sandbox's clock, as the n8n date picker writes it. */
	const day = (offset: number) =>
		`${new Date(sb().sandbox.world.clock.nowMs() + offset * DAY).toISOString().slice(0, 10)}T00:00:00`;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	const variant = () => sb().sandbox.world.variant;
	/** [V1] The answer's disabled flag, under the name the service gives it (passed through). */
	const disabledFlag = () => (variant().employeeAnswer === 'sandbox' ? 'isDisabled' : 'disabled');

	const create = (employeeNumber: string, extra: Record<string, unknown> = {}) =>
		run({
			operation: 'create',
			employeeNumber,
			firstName: 'Åse',
			lastName: 'Bø',
			phone: `+47${employeeNumber.replace(/\D/g, '').padStart(8, '9')}`,
			birthDate: '1990-04-01T00:00:00',
			employment: { details: { startDate: day(-100), department: 'Anlegg', payroll: 1 } },
			...extra,
		});
	/** An employee a test needs, created by the test itself (each test starts from the seed). */
	const given = async (employeeNumber: string, extra: Record<string, unknown> = {}) => {
		const result = await create(employeeNumber, extra);
		if (result.error) throw result.error;
	};
	/** HR-1 as the first test creates it. */
	const givenAse = async () =>
		await given('HR-1', {
			additionalFields: { email: 'ase@example.com', workTitle: 'Formann', address: 'Kaigata 1' },
		});

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
		useSandboxCredential(harness, sb(), 'fieldops-other', 'other');
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('creates an employee together with the first employment', async () => {
		const result = await create('HR-1', {
			additionalFields: { email: 'ase@example.com', workTitle: 'Formann', address: 'Kaigata 1' },
		});
		expect(result.error).toBeUndefined();
		expect(person('HR-1')).toMatchObject({
			firstName: 'Åse',
			email: 'ase@example.com',
			workTitle: 'Formann',
			address: 'Kaigata 1',
			birthDate: '1990-04-01T00:00:00',
		});
		expect(person('HR-1')?.employments).toEqual([
			expect.objectContaining({ department: 'Anlegg', payroll: 1, endDate: null, startDate: day(-100) }),
		]);
		expect(out(result)[0].json).toMatchObject({ employeeNumber: 'HR-1', [disabledFlag()]: false });
	});

	it('refuses an employment without a start date and an unreadable date before any request', async () => {
		// n8n itself stops a workflow whose required Start Date is missing.
		await expect(create('HR-X', { employment: { details: { department: 'Anlegg' } } })).rejects.toThrow(
			/Start Date" is required/,
		);
		const badDate = await create('HR-X', { birthDate: '31.02.1990' });
		expect(badDate.error?.message).toMatch(/Birth Date is not a valid date/);
		expect((await stats()).requests['POST /api/v5/integration/employees']).toBeUndefined();
	});

	it('shows the v5 errors[] as "field — message", each field by its label', async () => {
		await givenAse();
		const duplicate = await create('HR-1');
		expect(duplicate.error?.message).toBe(
			'Field Ops refused the request: Employee Number HR-1 is already used in the company structure',
		);
		// Two problems at once: the message counts them, the description lists one line per field.
		const two = await create('HR-2', { lastName: 'x'.repeat(201), phone: 'x' });
		expect(two.error?.message).toMatch(/2 problems/);
		const description = String((two.error as { description?: string }).description);
		expect(description).toMatch(/^Last Name — /m);
		expect(description).toMatch(/^Phone — /m);
	});

	it('gets an employee with employment history and tags, lists with a number filter, and searches', async () => {
		await givenAse();
		const got = await run({
			operation: 'get',
			employee: employee('HR-1'),
			options: { include: ['employment-history', 'tags'] },
		});
		expect(out(got)[0].json).toMatchObject({
			employeeNumber: 'HR-1',
			tags: [],
			employmentHistory: { current: { department: 'Anlegg' } },
		});

		await create('HR-2', { firstName: 'Kari', lastName: 'Testesen' });
		const filtered = await run({ operation: 'getAll', returnAll: true, options: { employeeNumber: 'HR-2' } });
		expect(out(filtered).map((i) => i.json.employeeNumber)).toEqual(['HR-2']);
		const all = await run({ operation: 'getAll', returnAll: false, limit: 1 });
		expect(out(all)).toHaveLength(1);

		const found = await run({ operation: 'search', query: 'kari testesen', returnAll: true });
		expect(out(found)).toEqual([
			expect.objectContaining({
				json: expect.objectContaining({ employeeNumber: 'HR-2', hasActiveEmployment: true }),
			}),
		]);
	});

	it('updates: a field to clear is sent as null, fields not named stay untouched', async () => {
		await givenAse();
		const result = await run({
			operation: 'update',
			employee: employee('HR-1'),
			updateFields: { workTitle: 'Anleggsleder' },
			fieldsToClear: ['email'],
		});
		expect(result.error).toBeUndefined();
		expect(person('HR-1')).toMatchObject({
			workTitle: 'Anleggsleder',
			email: null,
			address: 'Kaigata 1',
			firstName: 'Åse',
		});

		const both = await run({
			operation: 'update',
			employee: employee('HR-1'),
			updateFields: { address: 'Ny gate 2' },
			fieldsToClear: ['address'],
		});
		expect(both.error?.message).toBe('Address is both set and cleared');
		const nothing = await run({ operation: 'update', employee: employee('HR-1'), updateFields: {} });
		expect(nothing.error?.message).toMatch(/Nothing to update/);
		expect(person('HR-1')?.address).toBe('Kaigata 1');
	});

	it('replaces the profile: optional fields not sent are cleared', async () => {
		await givenAse();
		const result = await run({
			operation: 'replace',
			employee: employee('HR-1'),
			firstName: 'Åse Marie',
			lastName: 'Bø',
			phone: person('HR-1')?.phone,
			birthDate: '1990-04-02T00:00:00',
			additionalFields: { workTitle: 'Formann' },
		});
		expect(result.error).toBeUndefined();
		expect(person('HR-1')).toMatchObject({
			firstName: 'Åse Marie',
			workTitle: 'Formann',
			address: null,
			birthDate: '1990-04-02T00:00:00',
		});
	});

	it('creates a new employment: the current one ends the day before, as the history shows', async () => {
		await givenAse();
		const result = await run({
			operation: 'createEmployment',
			employee: employee('HR-1'),
			employment: { details: { startDate: day(30), department: 'Bygg', payroll: 2 } },
		});
		expect(result.error).toBeUndefined();
		// [V6] The answer may be the employee or the new employment: the history is read back.
		const got = await run({
			operation: 'get',
			employee: employee('HR-1'),
			options: { include: ['employment-history'] },
		});
		const history = out(got)[0].json.employmentHistory as {
			current: { endDate: string; department: string };
			upcoming: Array<{ startDate: string; department: string; payroll: number }>;
		};
		expect(history.current.department).toBe('Anlegg');
		expect(Date.parse(history.current.endDate)).toBe(Date.parse(`${day(29)}Z`));
		expect(history.upcoming).toEqual([
			expect.objectContaining({ department: 'Bygg', payroll: 2, startDate: day(30) }),
		]);
	});

	it('updates and ends the current employment', async () => {
		await givenAse();
		const updated = await run({
			operation: 'updateEmployment',
			employee: employee('HR-1'),
			employmentUpdate: { department: 'Anlegg Vest', mainProjectNumber: 'P1001' },
		});
		expect(updated.error).toBeUndefined();
		expect(person('HR-1')?.employments[0]).toMatchObject({
			department: 'Anlegg Vest',
			mainProjectNumber: 'P1001',
			payroll: 1,
		});

		const ended = await run({ operation: 'endEmployment', employee: employee('HR-1'), endDate: day(5) });
		expect(ended.error).toBeUndefined();
		expect(person('HR-1')?.employments[0].endDate).toBe(day(5));
	});

	it('checks deletability: an employee with an active employment is not deletable', async () => {
		await givenAse();
		const result = await run({ operation: 'checkDeletable', employee: employee('HR-1') });
		// [U6] The reason is the service's own (passed through).
		const reason = variant().deletableRule === 'noActiveEmployment' ? /active employment/ : /disabled first/;
		expect(out(result)[0].json).toEqual({
			isDeletable: false,
			validationErrors: [expect.stringMatching(reason)],
		});
	});

	it('disables and enables an employee', async () => {
		await givenAse();
		await run({ operation: 'disable', employee: employee('HR-1') });
		expect(person('HR-1')?.disabled).toBe(true);
		const enabled = await run({ operation: 'enable', employee: employee('HR-1') });
		expect(person('HR-1')?.disabled).toBe(false);
		expect(out(enabled)[0].json[disabledFlag()]).toBe(false);
	});

	it('enables and disables an employee in a project company; another company’s ID gets a readable 403', async () => {
		await givenAse();
		const enable = await run({
			operation: 'enableInProjectCompany',
			employee: employee('HR-1'),
			projectCompanyId: COMPANY_IDS.subsidiary,
		});
		expect(enable.error).toBeUndefined();
		expect(person('HR-1')?.projectCompanies).toEqual([
			{ companyId: COMPANY_IDS.subsidiary, enabled: true, userGroupId: 'default-user' },
		]);
		await run({
			operation: 'disableInProjectCompany',
			employee: employee('HR-1'),
			projectCompanyId: COMPANY_IDS.subsidiary,
		});
		expect(person('HR-1')?.projectCompanies[0].enabled).toBe(false);

		const foreign = await run({
			operation: 'enableInProjectCompany',
			employee: employee('HR-1'),
			projectCompanyId: COMPANY_IDS.other,
		});
		expect(foreign.error?.message).toMatch(
			/^No access to this employee: Company .* is not a project company/,
		);
	});

	it('sets tags and summarises what was added, updated and removed', async () => {
		await givenAse();
		const first = await run({
			operation: 'setTags',
			employee: employee('HR-1'),
			tags: {
				assignment: [{ tagName: 'Førstehjelp' }, { tagName: 'Skifttillegg', applicableFromDate: day(-10) }],
			},
		});
		expect(first.error).toBeUndefined();
		expect(out(first)[0].json).toMatchObject({
			added: 2,
			updated: 0,
			removed: 0,
			summary: '2 added, 0 updated, 0 removed; 2 tag(s) now',
		});
		const shift = (
			out(first)[0].json.currentTags as Array<{ tagName: string; userTagId: string; tagId: string }>
		).find((t) => t.tagName === 'Skifttillegg')!;

		// Keep Skifttillegg with new dates, drop Førstehjelp, add Verneombud.
		const second = await run({
			operation: 'setTags',
			employee: employee('HR-1'),
			tags: {
				assignment: [
					{
						userTagId: shift.userTagId,
						tagId: shift.tagId,
						applicableFromDate: day(-5),
						applicableToDate: day(20),
					},
					{ tagName: 'Verneombud' },
				],
			},
		});
		const summary = out(second)[0].json;
		expect(summary).toMatchObject({ added: 1, updated: 1, removed: 1 });
		// [V8] Names of what changed only where the answer lists them; counts give no empty lists.
		if (variant().tagAnswerParts === 'lists')
			expect((summary.removedTags as Array<{ tagName: string }>).map((t) => t.tagName)).toEqual([
				'Førstehjelp',
			]);
		else expect(summary).not.toHaveProperty('removedTags');
		expect((summary.currentTags as Array<{ tagName: string }>).map((t) => t.tagName).sort()).toEqual([
			'Skifttillegg',
			'Verneombud',
		]);
		expect(person('HR-1')?.tags.find((t) => t.userTagId === shift.userTagId)).toMatchObject({
			applicableFromDate: day(-5),
			applicableToDate: day(20),
		});

		const unknown = await run({
			operation: 'setTags',
			employee: employee('HR-1'),
			tags: { assignment: [{ tagName: 'Finnes ikke' }] },
		});
		expect(unknown.error?.message).toMatch(/tagName — Tag Finnes ikke does not exist/);
		expect(person('HR-1')?.tags).toHaveLength(2);
	});

	it('changes the employee number and the phone number', async () => {
		await given('HR-2', { firstName: 'Kari', lastName: 'Testesen' });
		await run({ operation: 'changeEmployeeNumber', employee: employee('HR-2'), newEmployeeNumber: 'HR-2B' });
		expect(person('HR-2')).toBeUndefined();
		const phone = await run({
			operation: 'changePhoneNumber',
			employee: employee('HR-2B'),
			newPhoneNumber: '+4799887766',
		});
		expect(phone.error).toBeUndefined();
		expect(person('HR-2B')?.phone).toBe('+4799887766');
	});

	it('deletes an employee, and explains an unknown employee number (also from another company)', async () => {
		await givenAse();
		await given('HR-2B', { firstName: 'Kari', lastName: 'Testesen' });
		// Deletable under either rule [U6]: disabled, and no active employment.
		await run({ operation: 'disable', employee: employee('HR-2B') });
		await run({ operation: 'endEmployment', employee: employee('HR-2B'), endDate: day(-1) });
		const deleted = await run({ operation: 'delete', employee: employee('HR-2B') });
		expect(out(deleted)[0].json).toEqual({ success: true });
		expect(person('HR-2B')).toBeUndefined();

		const missing = await run(
			{ operation: 'get', employee: employee('NO|SUCH/1') },
			{ continueOnFail: true },
		);
		expect(out(missing)[0].json.error).toBe('The employee was not found: Employee NO|SUCH/1 was not found');
		expect((await stats()).requests['GET /api/v5/integration/employees/{employeeNumber}']).toBe(1);

		const other = await run({ operation: 'get', employee: employee('HR-1') }, { credentialId: 'other' });
		// [V4] Another company's employee: 404 or 403, each with its own plain message.
		expect(other.error?.message).toMatch(
			variant().otherCompanyEmployee === 404 ? /employee was not found/ : /^No access to this employee/,
		);
	});
});
