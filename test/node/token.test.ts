import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

/** The credential's token handling: one token for concurrent first use, renewal before expiry, recovery after revocation. */
describe('OAuth2 token reuse', () => {
	const TTL_SECONDS = 3;
	const sb = useSandbox({ tokenTtl: TTL_SECONDS });
	let harness: N8nHarness;
	const stats = async () => (await call(sb().coreUrl, '/__sandbox/stats')).body;
	// Each test its own credential (tokens are kept per credential), so no test depends on the ones before it.
	let credential = 0;
	let getProjects = fieldOpsWorkflow({ resource: 'project', operation: 'getAll', returnAll: true });

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	beforeEach(async () => {
		const id = `token-test-${++credential}`;
		useSandboxCredential(harness, sb(), 'fieldops-admin', id);
		getProjects = fieldOpsWorkflow(
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{ credentialId: id },
		);
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('fetches one token when 50 items use a fresh credential at the same moment', async () => {
		// Five executions of ten items each, all at once (one node runs its items one after another).
		const items = Array.from({ length: 10 }, (_, i) => ({ json: { i } }));
		const results = await Promise.all(
			Array.from({ length: 5 }, async () => await harness.run(getProjects, { triggerItems: items })),
		);

		for (const result of results) expect(result.error).toBeUndefined();
		const after = await stats();
		expect(after.requests['GET /api/v4/integration/projects']).toBe(50);
		expect(after.tokensIssued).toBe(1);
		expect(after.unauthorized).toBe(0);
	});

	it('renews the token before it expires, so steady use never meets a 401', async () => {
		const started = Date.now();
		let executions = 0;
		while (Date.now() - started < 3.5 * TTL_SECONDS * 1000) {
			const result = await harness.run(getProjects, { triggerItems: [{ json: {} }, { json: {} }] });
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
		await harness.run(getProjects);
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });

		const result = await harness.run(getProjects);

		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		const after = await stats();
		expect(after.unauthorized).toBe(1);
		expect(after.tokensIssued).toBe(1);
	});
});
