import type { INodeParameters } from 'n8n-workflow';

import { TRIGGER, triggerWorkflow } from '../helpers/workflows';
import { expectNoSecrets } from './no-secrets';
import { PROJECT_ID } from './request-routes';
import { useFakeFieldOps, listSearch, rl, runNode, type Outcome } from './setup';

/**
 * Rule 1: a path value of `.` or `..` (trimmed), an empty one, or one that cannot be encoded is refused before
 * anything is sent, naming the field: URL parsing would drop dot segments and send the request one level up
 * (Document → Delete with `..` deleting the whole project's documents path, Project → Get with `.` listing all).
 */
describe('Rule 1 — path segments', () => {
	const env = useFakeFieldOps();

	const run = async (parameters: INodeParameters, continueOnFail = false): Promise<Outcome> =>
		await runNode(env, parameters, { continueOnFail });
	/** Nothing reached any server: not the API, not even the token server. */
	const nothingSent = () => expect(env.fake.seen.map((e) => `${e.host} ${e.method} ${e.path}`)).toEqual([]);

	const dots = ['.', '..', ' .. '];

	describe.each([
		[
			'Project → Get (request operation)',
			(v: string) => ({ resource: 'project', operation: 'get', project: rl('id', v) }),
			/^Project "\.{1,2}" is not a valid value/,
		],
		[
			'Project → Get by project number (lookup)',
			(v: string) => ({ resource: 'project', operation: 'get', project: rl('projectNumber', v) }),
			/^Project "\.{1,2}" is not a valid value/,
		],
		[
			'Document → Delete, File Reference ID (code operation)',
			(v: string) => ({
				resource: 'document',
				operation: 'delete',
				project: rl('id', PROJECT_ID),
				fileReferenceId: v,
			}),
			/^File Reference ID "\.{1,2}" is not a valid value/,
		],
		[
			'Document → Delete, Project',
			(v: string) => ({
				resource: 'document',
				operation: 'delete',
				project: rl('id', v),
				fileReferenceId: 'f-1',
			}),
			/^Project "\.{1,2}" is not a valid value/,
		],
		[
			'Employee → Disable',
			(v: string) => ({ resource: 'employee', operation: 'disable', employee: rl('employeeNumber', v) }),
			/^Employee "\.{1,2}" is not a valid value/,
		],
		[
			'User → Get (v4 lookup)',
			(v: string) => ({ resource: 'user', operation: 'get', user: rl('employeeNumber', v) }),
			/^User "\.{1,2}" is not a valid value/,
		],
		[
			'Document → Download (download)',
			(v: string) => ({
				resource: 'document',
				operation: 'download',
				project: rl('id', PROJECT_ID),
				fileReferenceId: v,
			}),
			/^File Reference ID "\.{1,2}" is not a valid value/,
		],
		[
			'Lookup → Download File (download)',
			(v: string) => ({ resource: 'lookup', operation: 'downloadFile', fileReferenceId: v }),
			/^File Reference ID "\.{1,2}" is not a valid value/,
		],
		[
			'Document → List of a work order given by external ID (lookup in a code operation)',
			(v: string) => ({
				resource: 'document',
				operation: 'list',
				documentTarget: 'workOrder',
				project: rl('id', v),
				workOrder: rl('externalId', 'W-1'),
			}),
			/^Project "\.{1,2}" is not a valid value/,
		],
		[
			'Report with a Project filter by number (pages)',
			(v: string) => ({
				resource: 'report',
				operation: 'timeRegistrations',
				syncMode: 'window',
				fromDateTime: '2026-01-01',
				toDateTime: '2026-01-02',
				filters: { project: rl('projectNumber', v) },
			}),
			/^Project "\.{1,2}" is not a valid value/,
		],
	] as const)('%s', (_name, parameters, message) => {
		it.each(dots)('refuses %j before sending', async (value) => {
			const outcome = await run(parameters(value) as INodeParameters);
			expect(outcome.message).toMatch(message);
			nothingSent();
		});

		it('refuses it as an item error with Continue On Fail', async () => {
			const outcome = await run(parameters('..') as INodeParameters, true);
			expect(outcome.items[0].json.error).toMatch(message);
			nothingSent();
			expectNoSecrets(outcome);
		});
	});

	it('refuses an empty value where no field check sees it first (User → Get)', async () => {
		const outcome = await run({ resource: 'user', operation: 'get', user: rl('employeeNumber', '  ') });
		expect(outcome.message).toBe('User is empty');
		nothingSent();
	});

	it('refuses a value that cannot be encoded (a lone UTF-16 surrogate from an expression)', async () => {
		const outcome = await run({
			resource: 'project',
			operation: 'get',
			project: rl('id', '={{ "p-" + String.fromCharCode(0xd800) }}'),
		});
		expect(outcome.message).toBe('Project contains characters that cannot be sent');
		nothingSent();
	});

	it('encodes an ordinary value as one segment (a slash cannot climb either)', async () => {
		env.fake.on(
			'core',
			'GET',
			/^\/api\/v4\/integration\/projects\//,
			(request, res) =>
				void res
					.writeHead(200, { 'content-type': 'application/json' })
					.end(JSON.stringify({ id: request.path })),
		);
		const outcome = await run({ resource: 'project', operation: 'get', project: rl('id', '../../x/..') });
		expect(outcome.items[0].json.id).toBe('/api/v4/integration/projects/..%2F..%2Fx%2F..');
	});

	it('list search: refuses a work order search whose project is ".."', async () => {
		const credential = env.credential();
		await expect(
			listSearch(
				env.harness,
				'searchWorkOrders',
				{ resource: 'workOrder', operation: 'get', project: rl('id', '..') },
				credential,
			),
		).rejects.toThrow(/^Project "\.\." is not a valid value/);
		nothingSent();
	});

	it('trigger: refuses a Project filter number of "." before polling', async () => {
		const workflow = triggerWorkflow({
			feed: 'incidentRegistrations',
			filters: { project: rl('projectNumber', '.') },
		});
		workflow.nodes[0].credentials = {
			fieldOpsOAuth2Api: { id: env.credential(), name: 'Field Ops' },
		};
		await expect(env.harness.poll(workflow, TRIGGER, { staticData: {} })).rejects.toThrow(
			/^Project "\." is not a valid value/,
		);
		nothingSent();
	});
});
