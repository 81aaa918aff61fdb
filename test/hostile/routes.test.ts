import { FakeFieldOps } from './fake';
import { N8nHarness, ROUTES, expectNoSecrets, fakeCredential } from './routes';

describe('hostile routes: happy path', () => {
	let fake: FakeFieldOps;
	let harness: N8nHarness;
	beforeAll(async () => {
		fake = await FakeFieldOps.start();
		harness = await N8nHarness.load();
	});
	afterAll(async () => await fake.close());
	beforeEach(() => fake.reset());

	it.each(ROUTES.map((r) => [r.name, r]))('%s succeeds against the fake servers', async (_name, route) => {
		route.serve(fake);
		const outcome = await route.run(harness, fake, { credential: fakeCredential(harness, fake) });
		expect(outcome.message).toBeUndefined();
		expect(outcome.items.length).toBeGreaterThan(0);
		expect(fake.requests(route.main.host, route.main.method).map((e) => e.path)).toContain(route.main.path);
		expectNoSecrets(outcome);
	});
});
