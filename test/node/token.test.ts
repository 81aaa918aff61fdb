import type { ICredentialDataDecryptedObject } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, sandboxClientData } from '../helpers/workflows';

type Client = { identityUrl: string; clientId: string; clientSecret: string; scope: string };
type Token = { value: string; renewAt: number; shared: boolean };
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { accessToken, fingerprintOf } = require('../../dist/nodes/FieldOps/transport/token') as {
	fingerprintOf(client: Client): string;
	accessToken(
		http: () => Promise<never>,
		client: Client,
		request: { stored?: Token; reread?: () => Promise<Token | undefined> },
	): Promise<Token>;
};

/**
 * The credential's token handling: one token for concurrent first use, kept on the credential (where every n8n
 * process finds it), renewal before expiry, recovery after revocation, one token request per run when the token
 * server fails, and the static token. Tokens belong to a client configuration (client, secret, scopes): each test
 * uses its own, so none depends on the ones before it.
 */
describe('OAuth2 token reuse', () => {
	const TTL_SECONDS = 3;
	const sb = useSandbox({ tokenTtl: TTL_SECONDS });
	let harness: N8nHarness;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	const tokenRequests = async () => (await stats()).requests['POST /connect/token'] ?? 0;
	let credentials = 0;

	/** A fresh credential of a sandbox client (all its APIs ticked unless overridden) and Project → Get Many on it. */
	const projectsWith = (clientId: string, overrides: ICredentialDataDecryptedObject = {}) => {
		const id = `token-test-${++credentials}`;
		const data: ICredentialDataDecryptedObject = {
			...sandboxClientData(sb(), clientId),
			useCoreApi: true,
			...overrides,
		};
		harness.setCredential(id, data);
		return {
			id,
			data,
			stored: () => harness.credentialsHelper.stored.get(id) as ICredentialDataDecryptedObject,
			workflow: (continueOnFail = false) =>
				fieldOpsWorkflow(
					{ resource: 'project', operation: 'getAll', returnAll: true },
					{ credentialId: id, continueOnFail },
				),
		};
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		await call(sb().coreUrl, '/__sandbox/faults', { method: 'DELETE' });
		harness.credentialsHelper.preAuthenticationWrites = 0;
	});

	it('fetches one token when 50 items use a fresh credential at the same moment, and n8n stores it once', async () => {
		const credential = projectsWith('fieldops-admin');
		// Five executions of ten items each, all at once (one node runs its items one after another).
		const items = Array.from({ length: 10 }, (_, i) => ({ json: { i } }));
		const results = await Promise.all(
			Array.from(
				{ length: 5 },
				async () => await harness.run(credential.workflow(), { triggerItems: items }),
			),
		);

		for (const result of results) expect(result.error).toBeUndefined();
		const after = await stats();
		expect(after.requests['GET /api/v4/integration/projects']).toBe(50);
		expect(after.tokensIssued).toBe(1);
		expect(after.unauthorized).toBe(0);
		// On the credential (encrypted by n8n), for every n8n process: stored by n8n's preAuthentication, once.
		expect(harness.credentialsHelper.preAuthenticationWrites).toBe(1);
		expect(credential.stored()).toMatchObject({
			accessToken: expect.stringMatching(/^sbx\./),
			accessTokenRenewAt: expect.any(Number),
			accessTokenFor: expect.any(String),
		});
	});

	it('uses the token another n8n process stored on the credential: no token request', async () => {
		const credential = projectsWith('fieldops-admin', { useMachineStateApi: false });
		// What a worker finds after the main (or the n8n before a restart) stored a token.
		const token = await tokenFor(sb(), 'fieldops-admin');
		Object.assign(credential.stored(), {
			accessToken: token,
			accessTokenRenewAt: Date.now() + 2000,
			accessTokenFor: fingerprintOf({
				identityUrl: sb().identityUrl,
				clientId: 'fieldops-admin',
				clientSecret: String(credential.data.clientSecret),
				scope: 'serviceapiv3 reportingapiv1',
			}),
		});
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });

		const result = await harness.run(credential.workflow());

		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		expect(await tokenRequests()).toBe(0);
		expect((await stats()).unauthorized).toBe(0);
	});

	it('reads the credential again before renewing: a token another process stored meanwhile is used', async () => {
		// A long execution read the credential before another n8n process renewed the token on it.
		const client = {
			identityUrl: sb().identityUrl,
			clientId: 'nobody',
			clientSecret: 'x',
			scope: 'serviceapiv3',
		};
		const renewedElsewhere = { value: 'from-another-process', renewAt: Date.now() + 60_000, shared: true };
		const noTokenServer = async () => {
			throw new Error('the token server was asked');
		};
		const token = await accessToken(noTokenServer, client, {
			stored: { value: 'read-at-the-start', renewAt: Date.now() - 1, shared: true },
			reread: async () => renewedElsewhere,
		});
		expect(token.value).toBe('from-another-process');
	});

	it('does not use a stored token issued before the credential was changed (another scope list)', async () => {
		const credential = projectsWith('fieldops-user', { useReportingApi: false });
		await harness.run(credential.workflow());
		const before = credential.stored().accessToken;
		// The user ticks another API: the stored token lacks its scope.
		credential.stored().useReportingApi = true;
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });

		const result = await harness.run(credential.workflow());

		expect(result.error).toBeUndefined();
		expect(await tokenRequests()).toBe(1);
		expect(credential.stored().accessToken).not.toBe(before);
	});

	it('renews the token before it expires, so steady use never meets a 401', async () => {
		const credential = projectsWith('fieldops-user');
		const started = Date.now();
		let executions = 0;
		while (Date.now() - started < 3.5 * TTL_SECONDS * 1000) {
			const result = await harness.run(credential.workflow(), { triggerItems: [{ json: {} }, { json: {} }] });
			expect(result.error).toBeUndefined();
			executions++;
		}
		const elapsedSeconds = (Date.now() - started) / 1000;
		const after = await stats();
		expect(after.unauthorized).toBe(0);
		expect(after.requests['GET /api/v4/integration/projects']).toBe(2 * executions);
		// A renewal about every 80 % of the lifetime: never one per request.
		expect(after.tokensIssued).toBeGreaterThanOrEqual(Math.floor(elapsedSeconds / TTL_SECONDS));
		expect(after.tokensIssued).toBeLessThanOrEqual(Math.ceil(elapsedSeconds / (0.8 * TTL_SECONDS)) + 1);
	});

	it('recovers when the service revokes the stored token: one 401, one new token, the request succeeds', async () => {
		const credential = projectsWith('fieldops-subsidiary');
		await harness.run(credential.workflow());
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });

		const result = await harness.run(credential.workflow());

		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		const after = await stats();
		expect(after.unauthorized).toBe(1);
		expect(after.tokensIssued).toBe(1);
	});

	it('asks a failing token server once per run: 3 items, 1 token request, each item fails with its answer', async () => {
		const credential = projectsWith('fieldops-other');
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/connect/token', status: 500, body: { error: 'server_error' }, times: 20 },
		});
		const items = [{ json: { i: 1 } }, { json: { i: 2 } }, { json: { i: 3 } }];

		const result = await harness.run(credential.workflow(true), { triggerItems: items });

		expect(await tokenRequests()).toBe(1);
		expect(result.items['Field Ops'].map((item) => item.json.error)).toEqual([
			expect.stringMatching(/token server answered 500/),
			expect.stringMatching(/token server answered 500/),
			expect.stringMatching(/token server answered 500/),
		]);
		expect((await stats()).requests['GET /api/v4/integration/projects']).toBeUndefined();

		// The next run tries again, and gets its token once the token server is back.
		await call(sb().coreUrl, '/__sandbox/faults', { method: 'DELETE' });
		const next = await harness.run(credential.workflow(true), { triggerItems: items });
		expect(await tokenRequests()).toBe(2);
		expect(next.items['Field Ops'].some((item) => item.json.error)).toBe(false);
	});

	it('runs with an administrator’s static token (no token server), and says so when it is revoked', async () => {
		const { token } = (
			await call(sb().coreUrl, '/__sandbox/static-tokens', {
				method: 'POST',
				json: { clientId: 'fieldops-admin' },
			})
		).body as { token: string };
		const credential = projectsWith('fieldops-admin', {
			authentication: 'staticToken',
			staticToken: token,
			clientId: '',
			clientSecret: '',
			identityUrl: '',
		});

		const result = await harness.run(credential.workflow());

		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		expect(await tokenRequests()).toBe(0);
		expect(credential.stored().accessToken).toBeUndefined();

		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });
		const revoked = await harness.run(credential.workflow());
		expect(revoked.error?.message).toMatch(/did not accept the static token/);
		expect((revoked.error as { description?: string }).description).toMatch(/Check the Static Token/);
		expect(await tokenRequests()).toBe(0);
		expect((await stats()).unauthorized).toBe(1);
	});
});
