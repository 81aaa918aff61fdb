import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

/** The harness itself: a workflow really runs our built node against the sandbox over HTTP. */
describe('in-process n8n harness', () => {
	const sb = useSandbox();
	let harness: N8nHarness;

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	beforeEach(async () => {
		useSandboxCredential(harness, sb());
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	});

	it('runs Project → Get Many and returns the projects the sandbox holds for the caller', async () => {
		const result = await harness.run(fieldOpsWorkflow({ resource: 'project', operation: 'getAll', returnAll: true }));

		expect(result.error).toBeUndefined();
		const expected = [...sb().sandbox.world.projects.values()]
			.filter((p) => p.companyId === sb().clients[0].companyId)
			.map((p) => p.projectNumber)
			.sort();
		expect(result.items['Field Ops'].map((item) => item.json.projectNumber).sort()).toEqual(expected);

		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.requests['GET /api/v4/integration/projects']).toBe(1);
		expect(stats.tokensIssued).toBe(1);
	});

	it('keeps the OAuth2 token in the credential and reuses it in the next execution', async () => {
		// A fresh credential (beforeEach): the first execution fetches the token, the second reuses it.
		await harness.run(fieldOpsWorkflow({ resource: 'project', operation: 'getAll', returnAll: true }));
		await harness.run(fieldOpsWorkflow({ resource: 'project', operation: 'getAll', returnAll: true }));

		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.requests['GET /api/v4/integration/projects']).toBe(2);
		expect(stats.tokensIssued).toBe(1);
		expect(harness.credentialsHelper.oauthTokenWrites).toBeGreaterThan(0);
	});
});
