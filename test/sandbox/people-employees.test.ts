import { call, tokenFor, useSandbox } from '../helpers/sandbox';

const DAY = 86_400_000;

describe('sandbox: employees v5', () => {
	const sb = useSandbox();
	let token: string;
	let today: number;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token, ...options });
	const base = '/api/v5/integration/employees';
	const isoDay = (ms: number) => `${new Date(ms).toISOString().slice(0, 10)}T00:00:00Z`;
	const create = (employeeNumber: string, extra: Record<string, unknown> = {}) =>
		api(base, {
			method: 'POST',
			json: {
				employeeNumber,
				firstName: 'Ola',
				lastName: 'Dunk',
				phone: '+4791234567',
				birthDate: '1980-01-01T00:00:00Z',
				employment: { startDate: isoDay(today - 100 * DAY), payroll: 1 },
				...extra,
			},
		});

	beforeAll(async () => {
		token = await tokenFor(sb());
		today = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now);
	});

	// Each test starts from the seed and creates the employee it works on (given).
	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});
	const given = async (employeeNumber: string, extra: Record<string, unknown> = {}) => {
		const res = await create(employeeNumber, extra);
		if (res.status !== 201) throw new Error(`Creating ${employeeNumber} failed: ${JSON.stringify(res.body)}`);
	};

	it('creates profile and first employment together; numbers are unique in the whole company structure', async () => {
		const created = await create('V1');
		expect(created.status).toBe(201);
		expect(created.body.employment).toMatchObject({ payroll: 1, endDate: null });
		// A100 is a seeded employee of the subsidiary: the structure shares one number space.
		const duplicate = await create('A100');
		expect(duplicate.status).toBe(400);
		expect(duplicate.body.errors[0]).toMatchObject({
			field: 'employeeNumber',
			category: expect.any(String),
			code: expect.any(String),
			message: expect.any(String),
		});
		const badPayroll = await create('V2', { employment: { startDate: isoDay(today), payroll: 3 } });
		expect(badPayroll.status).toBe(400);
		expect(badPayroll.body.errors[0].field).toContain('payroll');
	});

	it('lists with subsidiaries, filters by number, refuses an unknown include', async () => {
		await given('V1');
		const own = (await api(base)).body.map((e: { employeeNumber: string }) => e.employeeNumber);
		const all = (await api(base, { query: { includeEmployeesFromSubsidiaries: 'true' } })).body.map(
			(e: { employeeNumber: string }) => e.employeeNumber,
		);
		expect(own).not.toContain('A100');
		expect(all).toContain('A100');
		expect((await api(`${base}/A100`)).status).toBe(404);
		expect(
			(await api(`${base}/A100`, { query: { includeEmployeesFromSubsidiaries: 'true' } })).body
				.employeeNumber,
		).toBe('A100');
		const one = await api(base, {
			query: { employeeNumber: 'V1', include: 'tags,employment-history,work-time-arrangements' },
		});
		expect(one.body).toHaveLength(1);
		expect(one.body[0]).toHaveProperty('tags');
		expect(one.body[0]).toHaveProperty('workTimeArrangements');
		expect(one.body[0].employmentHistory.current).not.toBeNull();
		const unknown = await api(base, { query: { include: 'tags,salary' } });
		expect(unknown.status).toBe(400);
		expect(unknown.body.errors[0].field).toBe('include');
	});

	it('searches name, phone, email and number with hasActiveEmployment', async () => {
		await given('V1');
		const hits = (await api(`${base}/search`, { query: { query: '91234567' } })).body;
		expect(hits).toEqual([expect.objectContaining({ employeeNumber: 'V1', hasActiveEmployment: true })]);
		expect(
			(await api(`${base}/search`, { query: { query: 'ola dunk' } })).body.map(
				(h: { employeeNumber: string }) => h.employeeNumber,
			),
		).toEqual(['V1']);
	});

	it('PUT replaces every profile field and requires the names and birth date', async () => {
		await given('V1');
		await api(`${base}/V1`, { method: 'PATCH', json: { workTitle: 'Sjåfør', email: 'ola@example.com' } });
		const replaced = await api(`${base}/V1`, {
			method: 'PUT',
			json: { firstName: 'Ola', lastName: 'Dunk', birthDate: '1980-01-01T00:00:00Z', address: 'Gata 1' },
		});
		expect(replaced.body).toMatchObject({ address: 'Gata 1', workTitle: null, email: null });
		const missing = await api(`${base}/V1`, { method: 'PUT', json: { firstName: 'Ola', lastName: 'Dunk' } });
		expect(missing.status).toBe(400);
		expect(missing.body.errors[0].field).toBe('birthDate');
	});

	it('PATCH: omitted stays, null clears, unknown field is refused', async () => {
		await given('V1', { address: 'Gata 1' });
		await api(`${base}/V1`, { method: 'PATCH', json: { workTitle: 'Formann', email: 'ola@example.com' } });
		const patched = await api(`${base}/V1`, { method: 'PATCH', json: { email: null } });
		expect(patched.body).toMatchObject({ email: null, workTitle: 'Formann', address: 'Gata 1' });
		const unknown = await api(`${base}/V1`, { method: 'PATCH', json: { shoeSize: 44 } });
		expect(unknown.status).toBe(400);
		expect(JSON.stringify(unknown.body.errors)).toContain('shoeSize');
	});

	it('state table: update, end, create employments and the history grouping', async () => {
		await given('V1');
		const updated = await api(`${base}/V1/update-employment`, {
			method: 'PATCH',
			json: { department: 'Asfalt' },
		});
		expect(updated.body.employmentHistory.current).toMatchObject({ department: 'Asfalt', payroll: 1 });
		const ended = await api(`${base}/V1/end-employment`, {
			method: 'PATCH',
			json: { endDate: isoDay(today - 10 * DAY) },
		});
		expect(ended.status).toBe(200);
		expect(ended.body.employmentHistory.current).toBeNull();
		expect(ended.body.employmentHistory.historical).toHaveLength(1);
		const again = await api(`${base}/V1/end-employment`, {
			method: 'PATCH',
			json: { endDate: isoDay(today) },
		});
		expect(again.status).toBe(400);
		expect(again.body.errors[0].field).toBe('endDate');
		expect(
			(await api(`${base}/V1/update-employment`, { method: 'PATCH', json: { department: 'X' } })).status,
		).toBe(400);

		await api(`${base}/V1/create-employment`, {
			method: 'POST',
			json: { startDate: isoDay(today - 5 * DAY) },
		});
		const next = await api(`${base}/V1/create-employment`, {
			method: 'POST',
			json: { startDate: isoDay(today + 30 * DAY), department: 'Bygg' },
		});
		const history = next.body.employmentHistory;
		expect(history.current.endDate.slice(0, 10)).toBe(isoDay(today + 29 * DAY).slice(0, 10));
		expect(history.upcoming).toEqual([expect.objectContaining({ department: 'Bygg', endDate: null })]);
		expect(history.historical).toHaveLength(1);
		expect(
			(await api(`${base}/V1/create-employment`, { method: 'POST', json: { department: 'Bygg' } })).body
				.errors[0].field,
		).toBe('startDate');
	});

	it('deletable, disable/enable and project companies (cascade, 403 outside the structure)', async () => {
		await given('V1');
		expect((await api(`${base}/V1/deletable`)).body).toEqual({
			isDeletable: false,
			validationErrors: [expect.any(String)],
		});
		const subsidiary = sb().clients.find((c) => c.clientId === 'fieldops-subsidiary')!.companyId;
		const other = sb().clients.find((c) => c.clientId === 'fieldops-other')!.companyId;
		const enabled = await api(`${base}/V1/enable-employee-in-project-company`, {
			method: 'POST',
			json: { projectCompanyId: subsidiary },
		});
		expect(enabled.body.projectCompanies).toEqual([
			{ companyId: subsidiary, enabled: true, userGroupId: 'default-user' },
		]);
		const foreign = await api(`${base}/V1/enable-employee-in-project-company`, {
			method: 'POST',
			json: { projectCompanyId: other },
		});
		expect(foreign.status).toBe(403);
		expect(foreign.body.errors[0]).toMatchObject({ field: 'projectCompanyId', category: 'Forbidden' });
		const disabled = await api(`${base}/V1/disable`, { method: 'PATCH' });
		expect(disabled.body).toMatchObject({
			isDisabled: true,
			projectCompanies: [{ companyId: subsidiary, enabled: false }],
		});
		expect((await api(`${base}/V1/enable`, { method: 'PATCH' })).body.isDisabled).toBe(false);
		await api(`${base}/V1/enable-employee-in-project-company`, {
			method: 'POST',
			json: { projectCompanyId: subsidiary, userGroupId: 'g1' },
		});
		const off = await api(`${base}/V1/disable-employee-in-project-company`, {
			method: 'POST',
			json: { projectCompanyId: subsidiary },
		});
		expect(off.body.projectCompanies[0]).toMatchObject({ enabled: false });
	});

	it('changes the employee number (unique) and the phone number of every profile of the identity', async () => {
		await given('V1');
		expect(
			(
				await api(`${base}/V1/change-employee-number`, {
					method: 'PATCH',
					json: { newEmployeeNumber: '100' },
				})
			).status,
		).toBe(400);
		const renamed = await api(`${base}/V1/change-employee-number`, {
			method: 'PATCH',
			json: { newEmployeeNumber: 'V9' },
		});
		expect(renamed.body.employeeNumber).toBe('V9');
		expect((await api(`${base}/V1`)).status).toBe(404);
		// A second profile of the same identity in the subsidiary.
		const world = sb().sandbox.world;
		const person = [...world.people.values()].find((p) => p.employeeNumber === 'V9')!;
		const subsidiary = sb().clients.find((c) => c.clientId === 'fieldops-subsidiary')!.companyId;
		world.people.set('second-profile', {
			...person,
			companyProfileId: 'second-profile',
			companyId: subsidiary,
			employeeNumber: 'V9-A',
			employments: [],
			tags: [],
			projectCompanies: [],
		});
		await api(`${base}/V9/change-phone-number`, { method: 'PATCH', json: { newPhoneNumber: '+4799999999' } });
		expect(world.people.get('second-profile')!.phone).toBe('+4799999999');
		expect((await api(`${base}/V9`)).body.phone).toBe('+4799999999');
	});

	it('tags: added, updated, removed; payroll ranges must not overlap; regular tags once', async () => {
		await given('V9');
		const first = await api(`${base}/V9/tags`, {
			method: 'PUT',
			json: [
				{ tagName: 'Førstehjelp' },
				{ tagName: 'Verneombud' },
				{
					tagName: 'Skifttillegg',
					applicableFromDate: '2025-01-01T00:00:00Z',
					applicableToDate: '2025-06-30T00:00:00Z',
				},
			],
		});
		expect(first.status).toBe(200);
		expect(first.body.added).toHaveLength(3);
		const payroll = first.body.currentTags.find((t: { tagName: string }) => t.tagName === 'Skifttillegg');
		const first1 = first.body.currentTags.find((t: { tagName: string }) => t.tagName === 'Førstehjelp');
		const second = await api(`${base}/V9/tags`, {
			method: 'PUT',
			json: [
				{ userTagId: first1.userTagId, tagId: first1.tagId },
				{ userTagId: payroll.userTagId, tagId: payroll.tagId, applicableToDate: '2025-03-31T00:00:00Z' },
				{ tagName: 'Skifttillegg', applicableFromDate: '2025-04-01T00:00:00Z' },
			],
		});
		expect(second.body.added.map((t: { tagName: string }) => t.tagName)).toEqual(['Skifttillegg']);
		expect(
			second.body.updated.find((t: { userTagId: string }) => t.userTagId === payroll.userTagId)
				.applicableToDate,
		).toBe('2025-03-31T00:00:00Z');
		expect(second.body.removed.map((t: { tagName: string }) => t.tagName)).toEqual(['Verneombud']);
		expect(second.body.currentTags).toHaveLength(3);

		const overlap = await api(`${base}/V9/tags`, {
			method: 'PUT',
			json: [
				{
					tagName: 'Smusstillegg',
					applicableFromDate: '2025-01-01T00:00:00Z',
					applicableToDate: '2025-06-30T00:00:00Z',
				},
				{ tagName: 'Smusstillegg', applicableFromDate: '2025-06-01T00:00:00Z' },
			],
		});
		expect(overlap.status).toBe(400);
		expect(
			(await api(`${base}/V9/tags`, { method: 'PUT', json: [{ tagName: 'Smusstillegg' }] })).body.errors[0]
				.field,
		).toBe('[0].applicableFromDate');
		expect(
			(
				await api(`${base}/V9/tags`, {
					method: 'PUT',
					json: [{ tagName: 'Verneombud' }, { tagName: 'Verneombud' }],
				})
			).status,
		).toBe(400);
		expect(
			(await api(`${base}/V9/tags`, { method: 'PUT', json: [{ tagName: 'Finnes ikke' }] })).body.errors[0]
				.field,
		).toBe('[0].tagName');
		// Refused requests change nothing.
		expect((await api(`${base}/V9`, { query: { include: 'tags' } })).body.tags).toHaveLength(3);
	});

	it("404 for an unknown employee, another company's employee is invisible; DELETE answers 204", async () => {
		const unknown = await api(`${base}/NOBODY/disable`, { method: 'PATCH' });
		expect(unknown.status).toBe(404);
		expect(unknown.body).toEqual({
			message: 'Employee NOBODY was not found',
			errors: [
				{
					category: 'NotFound',
					code: 'EmployeeNotFound',
					field: 'employeeNumber',
					message: 'Employee NOBODY was not found',
				},
			],
		});
		const otherToken = await tokenFor(sb(), 'fieldops-other');
		expect((await call(sb().coreUrl, `${base}/100`, { token: otherToken })).status).toBe(404);
		expect((await call(sb().coreUrl, `${base}/F100`, { token: otherToken })).status).toBe(200);
		await create('V3');
		const deleted = await api(`${base}/V3`, { method: 'DELETE' });
		expect(deleted.status).toBe(204);
		expect((await api(`${base}/V3`)).status).toBe(404);
	});
});
