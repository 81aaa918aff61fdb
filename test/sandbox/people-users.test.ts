import { call, tokenFor, useSandbox } from '../helpers/sandbox';

const DAY = 86_400_000;

describe('sandbox: users v4 and fuzzed people routes', () => {
	const sb = useSandbox();
	let token: string;
	const api = (path: string, options: Parameters<typeof call>[2] = {}) =>
		call(sb().coreUrl, path, { token, ...options });
	const base = '/api/v4/integration/users';
	const companyId = () => sb().clients[0].companyId;
	const user = (employeeNumber: string, extra: Record<string, unknown> = {}) => ({
		companyId: companyId(),
		employeeNumber,
		firstName: 'Siri',
		lastName: 'Fjell',
		mobileWork: '+4790000000',
		birthDate: '1990-01-01',
		employmentStartDate: '01.01.2020',
		...extra,
	});

	beforeAll(async () => {
		token = await tokenFor(sb());
	});

	// Each test starts from the seed and creates the users it works on (given), as the tests before it do;
	// firstW1 is W1 as the first test creates it.
	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
	});
	const given = async (...users: Record<string, unknown>[]) => {
		for (const json of users) {
			const res = await api(base, { method: 'POST', json });
			if (res.status !== 200)
				throw new Error(`Creating ${json.employeeNumber} failed: ${JSON.stringify(res.body)}`);
		}
	};
	const firstW1 = () =>
		user('W1', {
			employmentEndDate: '31.12.2099',
			cardExpirationDate: '2030-05-01',
			isDisabled: true,
			tags: [{ key: 'skift', value: 'A' }],
		});
	const endedDaysAgo = async (employeeNumber: string, days: number) => {
		const now = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now);
		return user(employeeNumber, {
			employmentStartDate: '2015-01-01',
			employmentEndDate: new Date(now - days * DAY).toISOString().slice(0, 10),
		});
	};

	it('every v4 date field accepts both formats and a bad value names the field', async () => {
		const created = await api(base, {
			method: 'POST',
			json: user('W1', {
				employmentEndDate: '31.12.2099',
				cardExpirationDate: '2030-05-01',
				isDisabled: true,
				tags: [{ key: 'skift', value: 'A' }],
			}),
		});
		expect(created.body).toMatchObject({
			employmentEndDate: '2099-12-31',
			cardExpirationDate: '2030-05-01',
			isDisabled: true,
			tags: [{ key: 'skift', value: 'A' }],
			employeeNumber: 'W1',
			mobileWork: '+4790000000',
		});
		for (const field of ['birthDate', 'employmentStartDate', 'employmentEndDate', 'cardExpirationDate']) {
			const bad = await api(base, { method: 'POST', json: user('W2', { [field]: '2020-13-01' }) });
			expect(bad.status).toBe(400);
			expect(bad.body.errors[0].field).toBe(field);
		}
		expect((await api(base, { method: 'POST', json: user('W1') })).body.errors[0].field).toBe(
			'employeeNumber',
		);
		const missing = await api(base, { method: 'POST', json: { ...user('W3'), mobileWork: undefined } });
		expect(missing.body.errors[0].field).toBe('mobileWork');
	});

	it('GET by profile id / employee number, PATCH partial, enable 204, PUT id mismatch 400', async () => {
		await given(firstW1());
		const w1 = (await api(`${base}/by-employee-number/W1`)).body;
		const enabled = await api(`${base}/enable/${w1.companyProfileId}`, { method: 'PATCH' });
		expect(enabled.status).toBe(204);
		const patched = await api(`${base}/${w1.companyProfileId}`, {
			method: 'PATCH',
			json: { department: 'Bygg' },
		});
		expect(patched.body).toMatchObject({
			department: 'Bygg',
			isDisabled: false,
			firstName: 'Siri',
			employmentEndDate: '2099-12-31',
		});
		const mismatch = await api(`${base}/${encodeURIComponent(w1.identityId)}`, {
			method: 'PUT',
			json: { ...user('W1'), identityId: 'auth0|other', companyProfileId: w1.companyProfileId },
		});
		expect(mismatch.status).toBe(400);
		expect(mismatch.body.errors[0].field).toBe('identityId');
		expect((await api(`${base}/by-profile-id/nope`)).status).toBe(404);
	});

	it('companyId of another company is 403; employmentLookbackDays keeps active and recently ended users', async () => {
		await given(firstW1());
		const other = sb().clients.find((c) => c.clientId === 'fieldops-other')!.companyId;
		expect((await api(base, { query: { companyId: other } })).status).toBe(403);
		expect((await api(base, { method: 'POST', json: user('W9', { companyId: other }) })).status).toBe(403);
		const now = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now);
		const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
		await api(base, {
			method: 'POST',
			json: user('W4', { employmentStartDate: '2015-01-01', employmentEndDate: day(now - 10 * DAY) }),
		});
		await api(base, {
			method: 'POST',
			json: user('W5', { employmentStartDate: '2015-01-01', employmentEndDate: day(now - 100 * DAY) }),
		});
		const numbers = async (days: number) =>
			(await api(base, { query: { employmentLookbackDays: String(days) } })).body.map(
				(u: { employeeNumber: string }) => u.employeeNumber,
			);
		const month = await numbers(30);
		expect(month).toEqual(expect.arrayContaining(['W1', 'W4', '100']));
		expect(month).not.toContain('W5');
		expect(await numbers(365)).toContain('W5');
		expect((await api(base, { query: { employmentLookbackDays: 'abc' } })).status).toBe(400);
		expect((await api(base, { query: { changedSince: 'yesterday' } })).status).toBe(400);
	});

	it('is-identity-deletable follows the active employment; DELETE by encoded identity id', async () => {
		await given(await endedDaysAgo('W4', 10), await endedDaysAgo('W5', 100));
		const w5 = (await api(`${base}/by-employee-number/W5`)).body;
		const path = encodeURIComponent(w5.identityId);
		expect(path).toContain('%7C');
		expect((await api(`${base}/is-identity-deletable/${path}`)).body).toBe(true);
		const before = (await api(`${base}/by-employee-number/W4`)).body.modifiedDateTime;
		await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 5 } });
		await api(`${base}/${(await api(`${base}/by-employee-number/W4`)).body.companyProfileId}`, {
			method: 'PATCH',
			json: { workTitle: 'Sjef' },
		});
		expect(Date.parse((await api(`${base}/by-employee-number/W4`)).body.modifiedDateTime)).toBeGreaterThan(
			Date.parse(before),
		);
		expect((await api(`${base}/${path}`, { method: 'DELETE' })).status).toBe(204);
		expect((await api(`${base}/by-employee-number/W5`)).status).toBe(404);
	});

	it('fuzz: malformed JSON, wrong types, arrays, huge strings → 400, never 500', async () => {
		await given(firstW1());
		const w1 = (await api(`${base}/by-employee-number/W1`)).body;
		const targets: [string, string][] = [
			['POST', base],
			['PATCH', `${base}/${w1.companyProfileId}`],
			['PUT', `${base}/${encodeURIComponent(w1.identityId)}`],
			['POST', '/api/v5/integration/employees'],
			['PUT', '/api/v5/integration/employees/100'],
			['PATCH', '/api/v5/integration/employees/100'],
			['PATCH', '/api/v5/integration/employees/100/end-employment'],
			['POST', '/api/v5/integration/employees/100/create-employment'],
			['PATCH', '/api/v5/integration/employees/100/update-employment'],
			['PATCH', '/api/v5/integration/employees/100/change-employee-number'],
			['PATCH', '/api/v5/integration/employees/100/change-phone-number'],
			['POST', '/api/v5/integration/employees/100/enable-employee-in-project-company'],
			['PUT', '/api/v5/integration/employees/100/tags'],
			['POST', '/api/v4/integration/certificates'],
		];
		const bodies: Parameters<typeof call>[2][] = [
			{ body: '{"firstName":', headers: { 'content-type': 'application/json' } },
			{ json: [] },
			{ json: [1, 'a', null] },
			{
				json: {
					firstName: 12,
					birthDate: true,
					employment: 'x',
					endDate: 5,
					newEmployeeNumber: {},
					startDate: [],
				},
			},
			{ json: 'just a string' },
			{ json: { firstName: 'x'.repeat(200_000), lastName: 'y', newPhoneNumber: 'z'.repeat(100_000) } },
			{ json: [{ tagName: 'x'.repeat(50_000) }] },
		];
		for (const [method, path] of targets) {
			for (const options of bodies) {
				const answer = await api(path, { method, ...options });
				// An empty tag list is a valid request: it removes every tag.
				const expected =
					path.endsWith('/tags') && Array.isArray(options?.json) && options.json.length === 0 ? 200 : 400;
				expect({ method, path, status: answer.status }).toEqual({ method, path, status: expected });
				if (expected === 400) expect(typeof answer.body.message).toBe('string');
			}
		}
		expect((await api('/api/v5/integration/employees/100')).status).toBe(200);
	});
});
