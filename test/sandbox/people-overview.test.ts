import { call, tokenFor, useSandbox } from '../helpers/sandbox';

describe('sandbox: people (users v4, employees v5, certificates)', () => {
	const sb = useSandbox();
	let token: string;
	const companyId = () => sb().clients[0].companyId;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token, ...options });
	const user = (employeeNumber: string, birthDate: string, employmentStartDate: string) => ({
		companyId: companyId(),
		employeeNumber,
		firstName: 'Kari',
		lastName: 'Nordmann',
		mobileWork: '+4790011223',
		birthDate,
		employmentStartDate,
	});

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	// Each test starts from the seed and creates the people it works on (given).
	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});
	const given = async (path: string, json: Record<string, unknown>) => {
		const res = await api(path, { method: 'POST', json });
		if (res.status !== 200 && res.status !== 201)
			throw new Error(`POST ${path} failed: ${JSON.stringify(res.body)}`);
	};

	it('v4: accepts both date formats, refuses another, answers the identity and profile ids', async () => {
		const dotted = await api('/api/v4/integration/users', {
			method: 'POST',
			json: user('U1', '01.02.1990', '15.08.2020'),
		});
		const iso = await api('/api/v4/integration/users', {
			method: 'POST',
			json: user('U2', '1990-02-01', '2020-08-15'),
		});
		expect([dotted.status, iso.status]).toEqual([200, 200]);
		expect(dotted.body).toMatchObject({
			birthDate: '1990-02-01',
			employmentStartDate: '2020-08-15',
			identityId: expect.stringContaining('|'),
			companyProfileId: expect.any(String),
		});
		const bad = await api('/api/v4/integration/users', {
			method: 'POST',
			json: user('U3', '1990/02/01', '2020-08-15'),
		});
		expect(bad.status).toBe(400);
		expect(bad.body.errors[0].field).toBe('birthDate');
	});

	it('v4: an identity id with "|" travels URL-encoded as one path segment; disable answers 204', async () => {
		await given('/api/v4/integration/users', user('U1', '01.02.1990', '15.08.2020'));
		const created = (await api('/api/v4/integration/users/by-employee-number/U1')).body;
		const deletable = await api(
			`/api/v4/integration/users/is-identity-deletable/${encodeURIComponent(created.identityId)}`,
		);
		expect(deletable.body).toBe(false);
		const disabled = await api(`/api/v4/integration/users/disable/${created.companyProfileId}`, {
			method: 'PATCH',
		});
		expect(disabled.status).toBe(204);
		expect(disabled.raw.length).toBe(0);
		expect(
			(await api(`/api/v4/integration/users/by-profile-id/${created.companyProfileId}`)).body.isDisabled,
		).toBe(true);
		const replaced = await api(`/api/v4/integration/users/${encodeURIComponent(created.identityId)}`, {
			method: 'PUT',
			json: {
				...user('U1', '1990-02-01', '2020-08-15'),
				identityId: created.identityId,
				companyProfileId: created.companyProfileId,
				workTitle: 'Formann',
			},
		});
		expect(replaced.body).toMatchObject({ workTitle: 'Formann', isDisabled: false });
	});

	it('v4: lists users changed since a moment', async () => {
		await given('/api/v4/integration/users', user('U2', '1990-02-01', '2020-08-15'));
		const since = (await call(sb().coreUrl, '/__sandbox/clock')).body.now;
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 60 } });
		const created = (await api('/api/v4/integration/users/by-employee-number/U2')).body;
		await api(`/api/v4/integration/users/${created.companyProfileId}`, {
			method: 'PATCH',
			json: { workTitle: 'Maskinfører' },
		});
		const changed = await api('/api/v4/integration/users', {
			query: { changedSince: new Date(Date.parse(since) + 30_000).toISOString() },
		});
		expect(changed.body.map((u: { employeeNumber: string }) => u.employeeNumber)).toEqual(['U2']);
	});

	it('v5: creating an employment ends the current one the day before; PATCH null clears, omitted stays', async () => {
		const created = await api('/api/v5/integration/employees', {
			method: 'POST',
			json: {
				employeeNumber: 'E1',
				firstName: 'Per',
				lastName: 'Berg',
				phone: '+4790000001',
				birthDate: '1985-05-05T00:00:00Z',
				email: 'per@example.com',
				workTitle: 'Sjåfør',
				employment: { startDate: '2024-01-01T00:00:00Z' },
			},
		});
		expect(created.status).toBe(201);
		const next = new Date(Date.now() + 20 * 86_400_000).toISOString().slice(0, 10);
		const afterCreate = await api('/api/v5/integration/employees/E1/create-employment', {
			method: 'POST',
			json: { startDate: `${next}T00:00:00Z`, payroll: 2 },
		});
		const history = afterCreate.body.employmentHistory;
		expect(history.current.endDate.slice(0, 10)).toBe(
			new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10),
		);
		expect(history.upcoming).toHaveLength(1);
		const patched = await api('/api/v5/integration/employees/E1', {
			method: 'PATCH',
			json: { workTitle: null },
		});
		expect(patched.body).toMatchObject({ workTitle: null, email: 'per@example.com' });
		const invalid = await api('/api/v5/integration/employees/E1', {
			method: 'PATCH',
			json: { firstName: null },
		});
		expect(invalid.status).toBe(400);
		expect(invalid.body.errors[0]).toMatchObject({ field: 'firstName', category: 'Validation' });
		expect((await api('/api/v5/integration/employees/NOBODY')).status).toBe(404);
	});

	it('certificates: upsert on employee number and exact type; both 400 cases save nothing', async () => {
		await given('/api/v5/integration/employees', {
			employeeNumber: 'E1',
			firstName: 'Per',
			lastName: 'Berg',
			phone: '+4790000001',
			birthDate: '1985-05-05T00:00:00Z',
			employment: { startDate: '2024-01-01T00:00:00Z' },
		});
		const cert = (type: string, issued = '2025-01-01T00:00:00Z') => ({
			employeeNumber: 'E1',
			certificateType: type,
			issuedDateTime: issued,
			validUntilDateTime: '2030-01-01T00:00:00Z',
		});
		const first = await api('/api/v4/integration/certificates', {
			method: 'POST',
			json: [cert('Truck T1'), cert('Kran G4')],
		});
		expect(first.body.map((r: { created: boolean }) => r.created)).toEqual([true, true]);
		const again = await api('/api/v4/integration/certificates', {
			method: 'POST',
			json: [cert('Truck T1'), cert('truck t1')],
		});
		expect(again.body.map((r: { created: boolean }) => r.created)).toEqual([false, true]);
		const bad = await api('/api/v4/integration/certificates', {
			method: 'POST',
			json: [
				cert('Stillas'),
				{ ...cert('Stillas'), employeeNumber: 'NOBODY' },
				cert('Sveis', '2031-01-01T00:00:00Z'),
			],
		});
		expect(bad.status).toBe(400);
		expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
			'[1].employeeNumber',
			'[2].issuedDateTime',
		]);
		const saved = (sb().sandbox.world.extra.get('certificates') as { certificateType: string }[]).map(
			(c) => c.certificateType,
		);
		expect(saved).not.toContain('Stillas');
	});
});
