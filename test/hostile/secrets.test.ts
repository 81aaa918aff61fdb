import {
	ACCESS_TOKEN,
	CLIENT_SECRET,
	closedPort,
	drop,
	echo,
	json,
	PAGE,
	redirect,
	text,
	type FakeFieldOps,
	type Reply,
} from './fake';
import { expectNoSecrets } from './no-secrets';
import { ROUTES, projectGet, type Route } from './request-routes';
import { useFakeFieldOps } from './setup';

/**
 * Rule 2: no secret leaves the node. Every failure mode on every route, with and without Continue On Fail: the
 * client secret and the access token are nowhere in the execution data, the output or the error, even when a
 * hostile server echoes them back; token server failures name the token server and the credential field.
 */
interface Mode {
	name: string;
	/** Breaks the route: answers (or refuses) its main request or the token request. */
	apply(
		fake: FakeFieldOps,
		route: Route,
	): Promise<Record<string, string> | void> | Record<string, string> | void;
	/** What the user is told. */
	message: RegExp | ((route: Route) => RegExp);
	/** Where to look, when it is about a credential field. */
	description?: RegExp;
}

const onMain = (reply: Reply) => (fake: FakeFieldOps, route: Route) =>
	void fake.on(route.main.host, route.main.method, route.main.path, reply);
/** The request's own headers (the bearer token) in a body that looks like an API message. */
const echoToken =
	(status: number): Reply =>
	(request, res) => {
		res.writeHead(status, { 'content-type': 'application/json', 'retry-after': '0' });
		res.end(
			JSON.stringify({
				message: `Bearer ${ACCESS_TOKEN} was refused`,
				errors: [{ field: 'authorization', message: String(request.headers.authorization) }],
			}),
		);
	};

const MODES: Mode[] = [
	{
		name: 'token server 500 echoing the form (the secret)',
		apply: (fake) => void fake.on('identity', 'POST', '/connect/token', echo(500)),
		message: /token server answered 500/,
		description: /Token Server URL/,
	},
	{
		name: 'token server 400 echoing the form',
		apply: (fake) => void fake.on('identity', 'POST', '/connect/token', echo(400)),
		message: /token server answered 400/,
		description: /Token Server URL, Client ID and Client Secret/,
	},
	{
		name: 'token server 200 without a token, echoing the form',
		apply: (fake) =>
			void fake.on('identity', 'POST', '/connect/token', (request, res) =>
				text(200, `{"debug": "${request.body}"}`, 'application/json')(request, res),
			),
		message: /token server answered without an access token/,
		description: /Token Server URL/,
	},
	{
		name: 'token server refuses the connection',
		apply: async () => ({ identityUrl: await closedPort() }),
		message: /Could not reach the Field Ops token server at 127\.0\.0\.1:\d+ \(connection refused\)/,
		description: /Token Server URL/,
	},
	{
		name: 'API 401 echoing the token',
		apply: onMain(echoToken(401)),
		message: /did not accept the access token \(401\)/,
	},
	{
		name: 'API 403 echoing the token',
		apply: onMain(echoToken(403)),
		message: /No access/,
	},
	{
		name: 'API 500 web page holding the token',
		apply: onMain((request, res) =>
			text(500, PAGE.replace('Sign in', String(request.headers.authorization)), 'text/html', {
				'retry-after': '0',
			})(request, res),
		),
		message: /Field Ops answered 500$/,
	},
	{
		name: 'API drops the connection',
		apply: onMain(drop()),
		message: /Could not reach Field Ops at 127\.0\.0\.1:\d+ \(connection dropped\)/,
	},
	{
		name: 'API redirects elsewhere, which echoes the request',
		apply: (fake, route) => {
			fake.on(
				route.main.host,
				route.main.method,
				route.main.path,
				redirect(307, `${fake.urls.elsewhere}/echo`),
			);
			fake.on('elsewhere', route.main.method, '/echo', echo(400));
		},
		// A read follows without the token (the echo shows what arrived); a write is not sent there at all.
		message: (route) =>
			route.write
				? /redirect .* the request was not sent there/
				: /refused the request: request — GET \/echo \{/,
	},
];

describe('Rule 2 — secrets never leave the node', () => {
	const env = useFakeFieldOps();

	describe.each(ROUTES.map((route) => [route.name, route] as const))('%s', (_name, route) => {
		const variants = route.items ? [false, true] : [false];
		const cases = MODES.flatMap((mode) =>
			variants.map(
				(continueOnFail) =>
					[`${mode.name}${continueOnFail ? ', Continue On Fail' : ''}`, mode, continueOnFail] as const,
			),
		);

		it.each(cases)('%s', async (_case, mode, continueOnFail) => {
			route.serve(env.fake);
			const overrides = (await mode.apply(env.fake, route)) ?? {};
			const outcome = await route.run(env, {
				credential: env.credential(overrides),
				continueOnFail,
			});

			expectNoSecrets(outcome);
			expect(outcome.message).toMatch(
				typeof mode.message === 'function' ? mode.message(route) : mode.message,
			);
			if (mode.description) expect(outcome.description).toMatch(mode.description);
			if (continueOnFail) expect(outcome.items[0]?.json.error).toBe(outcome.message);
		});
	});

	it('cleans an answer that echoes the token and the secret before it becomes output', async () => {
		env.fake.on('core', 'GET', projectGet.main.path, (request, res) =>
			json(200, { id: 'p-1', seen: request.headers.authorization, form: `client_secret=${CLIENT_SECRET}` })(
				request,
				res,
			),
		);
		const outcome = await projectGet.run(env);
		expect(outcome.items[0].json).toEqual({
			id: 'p-1',
			seen: 'Bearer [hidden]',
			form: 'client_secret=[hidden]',
		});
		expectNoSecrets(outcome);
	});

	it('finds a secret wherever it hides (the check itself can fail)', () => {
		const error = new Error('failed');
		Object.defineProperty(error, 'cause', {
			value: { request: { body: `client_secret=${CLIENT_SECRET}` } },
			enumerable: false,
		});
		expect(() => expectNoSecrets({ items: [], error })).toThrow();
		expect(() => expectNoSecrets({ items: [{ json: { note: `Bearer ${ACCESS_TOKEN}` } }] })).toThrow();
	});
});
