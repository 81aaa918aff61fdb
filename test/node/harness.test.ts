import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';
import { inListScope } from '../sandbox/core/projects';

let credentials = 0;

/** The harness itself: a workflow really runs our built node against the sandbox over HTTP. */
describe('in-process n8n harness', () => {
	const sb = useSandbox();
	let harness: N8nHarness;

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	// Each test its own credential: tokens are kept per credential, so no test depends on the ones before it.
	const getMany = () =>
		fieldOpsWorkflow(
			{ resource: 'project', operation: 'getAll', returnAll: true },
			{ credentialId: `harness-${credentials}` },
		);
	beforeEach(async () => {
		useSandboxCredential(harness, sb(), 'fieldops-admin', `harness-${++credentials}`);
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('runs Project → Get Many and returns the projects the sandbox holds for the caller', async () => {
		const result = await harness.run(getMany());

		expect(result.error).toBeUndefined();
		const expected = [...sb().sandbox.world.projects.values()]
			// [C5] "of the company": the caller's own company, or its whole structure (the alt variant).
			.filter((p) => inListScope(sb().sandbox.world, sb().clients[0].companyId, p.companyId))
			.map((p) => p.projectNumber)
			.sort();
		expect(result.items['Field Ops'].map((item) => item.json.projectNumber).sort()).toEqual(expected);

		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.requests['GET /api/v4/integration/projects']).toBe(1);
		expect(stats.tokensIssued).toBe(1);
	});

	it('reuses the token in the next execution, kept on the credential by n8n’s pre-authentication only', async () => {
		// A fresh credential (beforeEach): the first execution fetches the token, the second reuses it.
		await harness.run(getMany());
		await harness.run(getMany());

		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.requests['GET /api/v4/integration/projects']).toBe(2);
		expect(stats.tokensIssued).toBe(1);
		expect(harness.credentialsHelper.oauthTokenWrites).toBe(0);
		// The hidden, expirable field n8n encrypts with the credential: never OAuth2 token data, never the raw answer.
		const stored = JSON.stringify([...harness.credentialsHelper.stored.values()]);
		expect(stored).not.toMatch(/access_token|oauthTokenData/);
		expect(stored).toMatch(/"accessToken":"sbx\./);
	});
});
