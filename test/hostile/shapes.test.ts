import type { INodeParameters } from 'n8n-workflow';

import { html, json, PAGE, text } from './fake';
import { expectNoSecrets } from './no-secrets';
import { PROJECT_ID, machineCreateMany, projectGet } from './request-routes';
import { useFakeFieldOps, listSearch, rl, runNode, type Outcome } from './setup';

/**
 * Rule 7: an answer without the shape an operation needs is an error naming the operation and what was expected;
 * a 200 web page says the address does not point at the Field Ops API and which credential field to check; a
 * long web page is never pasted into a message.
 */
describe('Rule 7 — shapes', () => {
	const env = useFakeFieldOps();

	const run = async (parameters: INodeParameters, credential = env.credential()): Promise<Outcome> =>
		await runNode(env, parameters, { credential, continueOnFail: true });
	const quick = { 'retry-after': '0' };

	it.each([
		['an object', json(200, { id: 'p-1' }, quick), 'an object'],
		['text', text(200, '"ok"', 'application/json', quick), 'text'],
		['nothing', text(200, '', 'application/json', quick), 'nothing'],
	])(
		'Project → Get Many answered with %s: an error naming the operation and the list it expects',
		async (_what, reply, kind) => {
			env.fake.on('core', 'GET', '/api/v4/integration/projects', reply);
			const outcome = await run({ resource: 'project', operation: 'getAll', returnAll: true });
			expect(outcome.message).toBe(`Field Ops answered ${kind} where Project → Get Many expects a list`);
			expect(outcome.items).toHaveLength(1);
		},
	);

	it('Work order by external ID: a project answer that is not a list', async () => {
		env.fake.on('core', 'GET', `/api/v4/integration/tasks/project/${PROJECT_ID}`, json(200, { tasks: [] }));
		const outcome = await run({
			resource: 'workOrder',
			operation: 'get',
			project: rl('id', PROJECT_ID),
			workOrder: rl('externalId', 'W-1'),
		});
		expect(outcome.message).toBe('Field Ops answered the work order lookup with something other than a list');
	});

	it('Project by number: a lookup answer that is not a project', async () => {
		env.fake.on('core', 'GET', '/api/v4/integration/projects/by-project-number/P1', json(200, ['p-1']));
		const outcome = await run({ resource: 'project', operation: 'get', project: rl('projectNumber', 'P1') });
		expect(outcome.message).toBe('Field Ops answered the project lookup with something other than a project');
	});

	it('Machine → Create Many: an answer that is not a list of results fails the batch (it does not say each machine was refused)', async () => {
		env.fake.on('core', 'POST', machineCreateMany.main.path, json(200, { created: 1 }));
		const outcome = await run({
			resource: 'machine',
			operation: 'createMany',
			companyId: 'c-1',
			machineNumber: 'M1',
		});
		expect(outcome.message).toBe(
			'Machine of item 1 failed: Field Ops answered an object where Machine → Create Many expects a list of results',
		);
	});

	it('list search: an answer that is not a list', async () => {
		env.fake.on('core', 'GET', '/api/projects', json(200, { projects: [] }));
		await expect(
			listSearch(env.harness, 'searchProjects', { resource: 'project', operation: 'get' }, env.credential()),
		).rejects.toThrow('Field Ops answered the project lookup with something other than a list');
	});

	describe('a 200 web page names the credential field to check', () => {
		it.each([
			[
				'Project → Get',
				'core',
				projectGet.main.path,
				{ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) },
				'Core API URL',
			],
			[
				'Report',
				'reporting',
				'/v1/time-registrations',
				{
					resource: 'report',
					operation: 'timeRegistrations',
					syncMode: 'window',
					fromDateTime: '2026-01-01',
					toDateTime: '2026-01-02',
					returnAll: true,
				},
				'Reporting API URL',
			],
			[
				'Machine-state → Latest Timestamp',
				'machineState',
				/latest-timestamp/,
				{ resource: 'machineState', operation: 'getLatestTimestamp', companyId: 'c', projectId: 'p' },
				'Machine-State API URL',
			],
		] as const)('%s', async (_name, host, path, parameters, field) => {
			env.fake.on(host, 'GET', path, (request, res) =>
				text(200, PAGE, 'text/html', { 'retry-after': '0' })(request, res),
			);
			const outcome = await run(parameters as INodeParameters);
			expect(outcome.message).toMatch(
				/The address does not point at the Field Ops API: it answered with a web page$/,
			);
			expect(outcome.description).toContain(`Check the ${field} of the Field Ops credential`);
			expect(JSON.stringify(outcome.run)).not.toContain('Welcome to the portal');
		});

		it('the token server', async () => {
			env.fake.on('identity', 'POST', '/connect/token', html(200));
			const outcome = await run({ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) });
			expect(outcome.message).toBe('The token server answered without an access token');
			expect(outcome.description).toMatch(/^Check the Token Server URL of the Field Ops credential/);
			expect(JSON.stringify(outcome.run)).not.toContain('Welcome to the portal');
		});
	});

	it.each([
		['a whole page', PAGE],
		['a page without a doctype', `<h1>502 Bad Gateway</h1>${'<p>upstream</p>'.repeat(300)}`],
		['an XML error', `<?xml version="1.0"?><Error><Message>${'x'.repeat(2000)}</Message></Error>`],
	])('an HTML 502 (%s) is never pasted into the message', async (_name, page) => {
		env.fake.on('core', 'GET', projectGet.main.path, text(502, page, 'text/html', { 'retry-after': '0' }));
		const outcome = await run({ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) });
		expect(outcome.message).toBe('Field Ops answered 502');
		expect(outcome.description).toBe('Field Ops is not reachable right now. Try again in a moment.');
		expect(JSON.stringify(outcome.run)).not.toMatch(/Bad Gateway|upstream|Welcome|xxxxxxxx/);
	});

	it('a long error text is cut to a few hundred characters', async () => {
		env.fake.on('core', 'GET', projectGet.main.path, json(400, { message: `Invalid: ${'y'.repeat(5000)}` }));
		const outcome = await run({ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) });
		expect(outcome.message!.length).toBeLessThan(400);
		expect(outcome.message).toMatch(/y…$/);
	});

	it('a credential address that is not a web address names its field', async () => {
		const credential = env.credential({ coreUrl: 'fieldops.example.com' });
		const outcome = await run(
			{ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) },
			credential,
		);
		expect(outcome.message).toBe('The Core API URL of the Field Ops credential is not a web address');
		expect(env.fake.seen).toEqual([]);
		expectNoSecrets(outcome);
	});

	it('a Token Server URL that is not a web address names its field', async () => {
		const credential = env.credential({ identityUrl: 'identity' });
		const outcome = await run(
			{ resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) },
			credential,
		);
		expect(outcome.message).toBe('The Token Server URL of the Field Ops credential is not a web address');
		expect(env.fake.seen).toEqual([]);
	});
});
