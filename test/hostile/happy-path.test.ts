import { expectNoSecrets } from './no-secrets';
import { ROUTES } from './request-routes';
import { useFakeFieldOps } from './setup';

describe('hostile routes: happy path', () => {
	const env = useFakeFieldOps();

	it.each(ROUTES.map((r) => [r.name, r]))(
		'%s succeeds against the env.fake servers',
		async (_name, route) => {
			route.serve(env.fake);
			const outcome = await route.run(env);
			expect(outcome.message).toBeUndefined();
			expect(outcome.items.length).toBeGreaterThan(0);
			expect(env.fake.requests(route.main.host, route.main.method).map((e) => e.path)).toContain(
				route.main.path,
			);
			expectNoSecrets(outcome);
		},
	);
});
