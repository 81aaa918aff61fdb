import { json, redirect, sequence, file, ACCESS_TOKEN, CLIENT_SECRET } from './fake';
import { expectNoSecrets } from './no-secrets';
import {
	READ_ROUTES,
	WRITE_ROUTES,
	documentDelete,
	projectGet,
	reportFiles,
	type Route,
} from './request-routes';
import { useFakeFieldOps } from './setup';

/**
 * Rule 3: the token only ever goes to the credential's four addresses. A redirect to another origin is followed
 * without the token by a read, and refused by a write (its body is never sent elsewhere), on every route.
 */
describe('Rule 3 — redirects', () => {
	const env = useFakeFieldOps();

	/** Nothing that reached the other host carried the token or the secret. */
	const elsewhereGotNoSecrets = () => {
		for (const exchange of env.fake.requests('elsewhere')) {
			expect(exchange.headers.authorization).toBeUndefined();
			expect(JSON.stringify(exchange)).not.toContain(ACCESS_TOKEN);
			expect(JSON.stringify(exchange)).not.toContain(CLIENT_SECRET);
		}
	};
	const redirectMain = (route: Route, status: number) => {
		route.serve(env.fake);
		env.fake.on(
			route.main.host,
			route.main.method,
			route.main.path,
			redirect(status, `${env.fake.urls.elsewhere}/moved${route.main.path}`),
		);
		env.fake.on('elsewhere', route.main.method, `/moved${route.main.path}`, route.reply);
	};

	describe.each(READ_ROUTES.map((route) => [route.name, route] as const))('%s', (_name, route) => {
		it.each([301, 302, 303, 307, 308])('follows a %i to another origin without the token', async (status) => {
			redirectMain(route, status);
			const outcome = await route.run(env);

			expect(outcome.message).toBeUndefined();
			expect(outcome.items.length).toBeGreaterThan(0);
			expect(env.fake.requests('elsewhere').map((e) => `${e.method} ${e.path}`)).toEqual([
				`GET /moved${route.main.path}`,
			]);
			elsewhereGotNoSecrets();
			// The first hop, on the credential's own address, did carry it.
			expect(
				env.fake.requests(route.main.host).find((e) => e.path === route.main.path)?.headers.authorization,
			).toBe(`Bearer ${ACCESS_TOKEN}`);
			expectNoSecrets(outcome);
		});
	});

	describe.each(WRITE_ROUTES.map((route) => [route.name, route] as const))('%s', (_name, route) => {
		it.each([301, 302, 303, 307, 308])(
			'refuses a %i to another origin: nothing is sent there',
			async (status) => {
				redirectMain(route, status);
				const outcome = await route.run(env, {
					continueOnFail: status === 307,
				});

				expect(outcome.message).toMatch(
					/^(Machine of item 1 failed: |"a\.pdf" was not uploaded: )?Field Ops answered with a redirect to 127\.0\.0\.1:\d+; the request was not sent there$/,
				);
				expect(outcome.description).toMatch(/Core API URL/);
				expect(env.fake.requests('elsewhere')).toEqual([]);
				// Sent once, never repeated (a write is not retried).
				expect(
					env.fake.requests(route.main.host, route.main.method).filter((e) => e.path === route.main.path),
				).toHaveLength(1);
				expectNoSecrets(outcome);
			},
		);

		it('follows a 307 to its own address, with the token and the body', async () => {
			route.serve(env.fake);
			env.fake.on(
				route.main.host,
				route.main.method,
				route.main.path,
				redirect(307, `${env.fake.urls.core}/v2${route.main.path}`),
			);
			env.fake.on('core', route.main.method, `/v2${route.main.path}`, route.reply);
			const outcome = await route.run(env);

			expect(outcome.message).toBeUndefined();
			const [first, second] = env.fake
				.requests('core', route.main.method)
				.filter((e) => e.path.endsWith(route.main.path));
			expect(second.path).toBe(`/v2${route.main.path}`);
			expect(second.headers.authorization).toBe(`Bearer ${ACCESS_TOKEN}`);
			expect(second.body).toBe(first.body);
		});
	});

	it('never sends the secret after a redirect of the token server', async () => {
		env.fake.on(
			'identity',
			'POST',
			'/connect/token',
			redirect(307, `${env.fake.urls.elsewhere}/connect/token`),
		);
		env.fake.on(
			'elsewhere',
			'POST',
			'/connect/token',
			json(200, { access_token: 'stolen', expires_in: 3600 }),
		);
		projectGet.serve(env.fake);
		const outcome = await projectGet.run(env);

		expect(outcome.message).toBe(
			'The Field Ops token server answered with a redirect (307); the client secret was not sent on',
		);
		expect(outcome.description).toMatch(/Token Server URL/);
		expect(env.fake.requests('elsewhere')).toEqual([]);
	});

	it('keeps the token off a hop to another origin inside a chain that comes back', async () => {
		projectGet.serve(env.fake);
		env.fake.on('core', 'GET', projectGet.main.path, redirect(302, `${env.fake.urls.elsewhere}/hop`));
		env.fake.on('elsewhere', 'GET', '/hop', redirect(302, `${env.fake.urls.core}/final`));
		env.fake.on('core', 'GET', '/final', projectGet.reply);
		const outcome = await projectGet.run(env);

		expect(outcome.items[0].json).toEqual({ id: 'p-1', name: 'Bridge' });
		elsewhereGotNoSecrets();
		expect(env.fake.requests('core').find((e) => e.path === '/final')?.headers.authorization).toBe(
			`Bearer ${ACCESS_TOKEN}`,
		);
	});

	it('gives up on endless redirects', async () => {
		projectGet.serve(env.fake);
		env.fake.on('core', 'GET', /^\/(api|loop)/, (request, res) =>
			redirect(302, `${env.fake.urls.core}/loop${request.path.length}`)(request, res),
		);
		const outcome = await projectGet.run(env);

		expect(outcome.message).toBe('Field Ops redirected the request too many times');
		expect(env.fake.requests('core')).toHaveLength(6);
	});

	it('Report Download Files: a file link to another origin, or outside the credential’s path, is not fetched', async () => {
		const credential = env.credential({ coreUrl: `${env.fake.urls.core}/tenant-a` });
		env.fake.on('reporting', 'GET', '/v1/incident-registrations', (request, res) =>
			json(200, {
				data: [
					{ id: 'i-1', pdfUrl: `${env.fake.urls.elsewhere}/api/file/f-2` },
					{ id: 'i-2', pdfUrl: `${env.fake.urls.core}/tenant-b/api/file/f-3` },
					{ id: 'i-3', pdfUrl: `${env.fake.urls.core}/tenant-a/api/file/f-4` },
				],
			})(request, res),
		);
		env.fake.on('core', 'GET', '/tenant-a/api/file/f-4', file('%PDF-1 own', 'own.pdf'));
		const outcome = await reportFiles.run(env, { credential });

		expect(outcome.items.map((i) => i.json._file)).toEqual([
			expect.objectContaining({ downloaded: false, url: `${env.fake.urls.elsewhere}/api/file/f-2` }),
			expect.objectContaining({ downloaded: false, url: `${env.fake.urls.core}/tenant-b/api/file/f-3` }),
			{ downloaded: true, property: 'data' },
		]);
		expect(env.fake.requests('elsewhere')).toEqual([]);
		expect(env.fake.requests('core').map((e) => e.path)).toEqual(['/tenant-a/api/file/f-4']);
	});

	it('a write answered 302 by its own address is not taken for a success (Document → Delete)', async () => {
		env.fake.on(
			'core',
			'DELETE',
			documentDelete.main.path,
			sequence(redirect(302, `${env.fake.urls.core}/login`)),
		);
		const outcome = await documentDelete.run(env);
		expect(outcome.message).toMatch(/redirect to 127\.0\.0\.1:\d+; the request was not sent there/);
		expect(env.fake.requests('core').map((e) => e.path)).toEqual([documentDelete.main.path]);
	});
});
