import { request } from 'undici';

import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { startSandbox } from './server';

const form = (fields: Record<string, string>) => ({
	method: 'POST',
	body: new URLSearchParams(fields).toString(),
	headers: { 'content-type': 'application/x-www-form-urlencoded' },
});

describe('token server', () => {
	const sb = useSandbox({ tokenTtl: 60 });

	it('issues a bearer token with the requested scopes and the configured lifetime', async () => {
		const res = await call(
			sb().identityUrl,
			'/connect/token',
			form({
				grant_type: 'client_credentials',
				client_id: 'fieldops-admin',
				client_secret: 'sandbox-admin-secret',
				scope: 'serviceapiv3 reportingapiv1',
			}),
		);
		expect(res.status).toBe(200);
		expect(res.body).toEqual({
			access_token: expect.any(String),
			expires_in: 60,
			token_type: 'Bearer',
			scope: 'serviceapiv3 reportingapiv1',
		});
		expect(res.headers['cache-control']).toBe('no-store');
	});

	it('accepts client authentication with HTTP Basic', async () => {
		const basic = Buffer.from('fieldops-user:sandbox-user-secret').toString('base64');
		const res = await call(sb().identityUrl, '/connect/token', {
			...form({ grant_type: 'client_credentials', scope: 'serviceapiv3' }),
			headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
		});
		expect(res.status).toBe(200);
		expect(res.body.scope).toBe('serviceapiv3');
	});

	it.each([
		['a wrong secret', { client_id: 'fieldops-admin', client_secret: 'nope' }, 400, 'invalid_client'],
		['an unknown client', { client_id: 'nobody', client_secret: 'x' }, 400, 'invalid_client'],
		[
			'a scope the client may not have',
			{ client_id: 'fieldops-reporting', client_secret: 'sandbox-reporting-secret', scope: 'serviceapiv3' },
			400,
			'invalid_scope',
		],
		[
			'[A1] a scope list with one the client may not have',
			{
				client_id: 'fieldops-user',
				client_secret: 'sandbox-user-secret',
				scope: 'serviceapiv3 masstransportapiv1',
			},
			400,
			'invalid_scope',
		],
		[
			'an unknown scope',
			{ client_id: 'fieldops-admin', client_secret: 'sandbox-admin-secret', scope: 'everything' },
			400,
			'invalid_scope',
		],
	])('answers %s with the RFC 6749 error', async (_what, fields, status, error) => {
		const res = await call(
			sb().identityUrl,
			'/connect/token',
			form({ grant_type: 'client_credentials', ...fields }),
		);
		expect(res.status).toBe(status);
		expect(res.body.error).toBe(error);
		expect(res.body.error_description).toEqual(expect.any(String));
	});

	it('answers a wrong grant type and a JSON body with RFC 6749 errors', async () => {
		const grant = await call(
			sb().identityUrl,
			'/connect/token',
			form({ grant_type: 'password', client_id: 'fieldops-admin' }),
		);
		expect(grant.body.error).toBe('unsupported_grant_type');
		const json = await call(sb().identityUrl, '/connect/token', {
			method: 'POST',
			json: { grant_type: 'client_credentials' },
		});
		expect([json.status, json.body.error]).toEqual([400, 'invalid_request']);
	});

	it('gives a wrong Basic secret 401 with a challenge', async () => {
		const basic = Buffer.from('fieldops-admin:wrong').toString('base64');
		const res = await call(sb().identityUrl, '/connect/token', {
			...form({ grant_type: 'client_credentials' }),
			headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
		});
		expect(res.status).toBe(401);
		expect(res.headers['www-authenticate']).toContain('Basic');
	});
});

describe('bearer tokens on the APIs', () => {
	const sb = useSandbox();

	it('refuses a missing, malformed, unknown or expired token with 401 and counts each 401', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const target = '/api/MachineType';
		const missing = await call(sb().coreUrl, target);
		const malformed = await call(sb().coreUrl, target, { headers: { authorization: 'Token abc' } });
		const unknown = await call(sb().coreUrl, target, { token: 'not-a-token' });
		const token = await tokenFor(sb());
		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });
		const expired = await call(sb().coreUrl, target, { token });
		expect([missing.status, malformed.status, unknown.status, expired.status]).toEqual([401, 401, 401, 401]);
		expect(expired.body.message).toMatch(/expired/);
		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.unauthorized).toBe(4);
		expect(stats.tokensIssued).toBe(1);
	});

	it('refuses a valid token without the API scope with 403 insufficient_scope', async () => {
		const token = await tokenFor(sb(), 'fieldops-reporting');
		const res = await call(sb().coreUrl, '/api/MachineType', { token });
		expect(res.status).toBe(403);
		expect(res.headers['www-authenticate']).toContain('insufficient_scope');
	});
});

describe('control endpoints', () => {
	const sb = useSandbox();

	it('counts requests per route template, and clears the counts', async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		await call(sb().coreUrl, '/api/v4/integration/projects/abc');
		await call(sb().coreUrl, '/api/v4/integration/projects/def');
		await call(sb().coreUrl, '/no/such/route');
		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.requests['GET /api/v4/integration/projects/{id}']).toBe(2);
		expect(stats.requests['GET <unmatched>']).toBe(1);
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		expect((await call(sb().coreUrl, '/__sandbox/stats')).body.requests).toEqual({});
	});

	it('injects a status fault the given number of times, then answers normally', async () => {
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: [
				{ method: 'POST', path: '/connect/token', status: 503, times: 2, headers: { 'Retry-After': '1' } },
			],
		});
		const body = new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: 'fieldops-admin',
			client_secret: 'sandbox-admin-secret',
		}).toString();
		const headers = { 'content-type': 'application/x-www-form-urlencoded' };
		const statuses: number[] = [];
		for (let i = 0; i < 3; i++)
			statuses.push(
				(await call(sb().identityUrl, '/connect/token', { method: 'POST', body, headers })).status,
			);
		expect(statuses).toEqual([503, 503, 200]);
	});

	it('matches faults by route template and by prefix, and can drop the connection or delay', async () => {
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: [
				{ path: '/api/v4/integration/projects/{id}', drop: true },
				{ path: '/api/MachineType*', delayMs: 300 },
			],
		});
		await expect(request(`${sb().coreUrl}/api/v4/integration/projects/x`)).rejects.toThrow();
		const started = Date.now();
		const delayed = await call(sb().coreUrl, '/api/MachineType');
		expect(Date.now() - started).toBeGreaterThanOrEqual(280);
		expect(delayed.status).toBe(401);
		expect((await call(sb().coreUrl, '/__sandbox/faults')).body).toEqual([]);
	});

	it('lets the first `after` matching requests through before failing', async () => {
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/connect/token', status: 500, after: 2, times: 1 },
		});
		const body = new URLSearchParams({
			grant_type: 'client_credentials',
			client_id: 'fieldops-admin',
			client_secret: 'sandbox-admin-secret',
		}).toString();
		const headers = { 'content-type': 'application/x-www-form-urlencoded' };
		const statuses: number[] = [];
		for (let i = 0; i < 4; i++)
			statuses.push(
				(await call(sb().identityUrl, '/connect/token', { method: 'POST', body, headers })).status,
			);
		expect(statuses).toEqual([200, 200, 500, 200]);
	});

	it('clears pending faults', async () => {
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/connect/token', status: 500, times: 5 },
		});
		await call(sb().coreUrl, '/__sandbox/faults', { method: 'DELETE' });
		expect((await call(sb().coreUrl, '/__sandbox/faults')).body).toEqual([]);
	});

	it('moves the virtual clock forward and sets it', async () => {
		const before = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now);
		const advanced = Date.parse(
			(await call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: 3600 } })).body
				.now,
		);
		expect(advanced - before).toBeGreaterThanOrEqual(3600_000);
		expect(advanced - before).toBeLessThan(3660_000);
		const set = await call(sb().coreUrl, '/__sandbox/clock', {
			method: 'POST',
			json: { now: '2030-01-01T00:00:00Z' },
		});
		expect(set.body.now.startsWith('2030-01-01T00:00:0')).toBe(true);
	});

	it('dates every answer (records, injected faults, errors) by the virtual clock', async () => {
		await call(sb().coreUrl, '/__sandbox/clock', {
			method: 'POST',
			json: { now: '2031-05-06T07:08:09.500Z' },
		});
		const token = await tokenFor(sb());
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/v1/images', status: 503, times: 1 },
		});
		const answers = [
			await call(sb().reportingUrl, '/v1/incident-registrations', {
				token,
				query: { ModifiedSince: '2031-01-01T00:00:00Z' },
			}),
			await call(sb().reportingUrl, '/v1/images', { token }),
			await call(sb().coreUrl, '/api/v4/integration/projects/no-such-project', { token }),
			await call(sb().reportingUrl, '/v1/incident-registrations'),
		];
		expect(answers.map((res) => res.status)).toEqual([200, 503, 404, 401]);
		for (const res of answers) {
			const date = Date.parse(String(res.headers.date));
			expect(date).toBeGreaterThanOrEqual(Date.parse('2031-05-06T07:08:09Z'));
			expect(date).toBeLessThan(Date.parse('2031-05-06T07:09:09Z'));
		}
	});

	it('resets the data from a seed, deterministically', async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: { seed: 7 } });
		const first = [...sb().sandbox.world.projects.keys()];
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: { seed: 8 } });
		const other = [...sb().sandbox.world.projects.keys()];
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: { seed: 7 } });
		expect([...sb().sandbox.world.projects.keys()]).toEqual(first);
		expect(other).not.toEqual(first);
	});

	it.each([
		['/__sandbox/reset', { seed: 'one' }],
		['/__sandbox/faults', { path: '/x' }],
		['/__sandbox/faults', [{ status: 500 }]],
		['/__sandbox/clock', { now: 'yesterday' }],
		['/__sandbox/clock', { advanceSeconds: '10' }],
	])('refuses bad input to %s with 400 naming the problem', async (path, json) => {
		const res = await call(sb().coreUrl, path, { method: 'POST', json });
		expect(res.status).toBe(400);
		expect(res.body.message).toEqual(expect.any(String));
	});

	it('answers malformed JSON, an oversized body and an unknown method without failing', async () => {
		const bad = await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			body: '{"path":',
			headers: { 'content-type': 'application/json' },
		});
		expect(bad.status).toBe(400);
		const huge = await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			body: Buffer.alloc(6 * 1024 * 1024, 32),
			headers: { 'content-type': 'application/json' },
		});
		expect(huge.status).toBe(413);
		const wrongMethod = await call(sb().coreUrl, '/__sandbox/stats', { method: 'PUT' });
		expect(wrongMethod.status).toBe(405);
		expect((await call(sb().coreUrl, '/__sandbox/clock')).status).toBe(200);
	});
});

describe('--split', () => {
	it('serves each API on its own port, so a request sent to the wrong address fails', async () => {
		const sb = await startSandbox({ split: true });
		try {
			const ports = new Set([sb.coreUrl, sb.reportingUrl, sb.identityUrl, sb.machineStateUrl]);
			expect(ports.size).toBe(4);
			const tokenOnCore = await call(
				sb.coreUrl,
				'/connect/token',
				form({ grant_type: 'client_credentials' }),
			);
			expect(tokenOnCore.status).toBe(404);
			const token = await tokenFor(sb);
			expect((await call(sb.identityUrl, '/__sandbox/stats')).status).toBe(404);
			expect((await call(sb.coreUrl, '/__sandbox/stats')).status).toBe(200);
			expect((await call(sb.reportingUrl, '/api/MachineType', { token })).status).toBe(404);
		} finally {
			await sb.close();
		}
	});
});
