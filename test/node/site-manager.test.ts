/**
 * Issue #16, the editor as a site manager meets it: no company ID typed, lists that show everything reachable,
 * partial saves reported in the user's item numbers, errors that name fields by their labels with an example, the
 * credential's Test naming the field to fix, words instead of raw values (subtitles, node creator), and a Fetch Test
 * Event that says what there is.
 */
import {
	NodeHelpers,
	type ICredentialDataDecryptedObject,
	type INode,
	type INodeParameters,
	type INodeType,
} from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { listSearch as editorList } from '../helpers/editor';
import { call, useSandbox } from '../helpers/sandbox';
import {
	FIELD_OPS_NODE,
	TRIGGER,
	fieldOpsWorkflow,
	triggerWorkflow,
	useSandboxCredential,
} from '../helpers/workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

describe('Field Ops as a site manager meets it (issue #16)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const world = () => sb().sandbox.world;
	const admin = () => sb().clients.find((c) => c.clientId === 'fieldops-admin')!;
	const own = () => admin().companyId;
	const subsidiaryProject = () =>
		[...world().projects.values()].find(
			(p) => p.companyId !== own() && p.active && world().canAccessCompany(own(), p.companyId),
		)!;
	const stats = async () =>
		(await call(sb().coreUrl, '/__sandbox/stats')).body.requests as Record<string, number>;
	const run = async (parameters: INodeParameters, items = 1, continueOnFail = false) =>
		await harness.run(fieldOpsWorkflow(parameters, { continueOnFail }), {
			triggerItems: Array.from({ length: items }, (_, i) => ({ json: { i } })),
		});
	const fieldOps = () => harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType;

	/** The editor's list of a resource locator, as n8n asks for it (a real load-options context). */
	const listSearch = async (method: string, parameters: INodeParameters, filter?: string) =>
		await editorList(harness, method, parameters, filter);

	/** The credential's Test as the editor runs it (n8n-core's real request helper). */
	const testCredential = async (data: ICredentialDataDecryptedObject) => {
		const test = (
			fieldOps().methods?.credentialTest as Record<
				string,
				(this: unknown, c: unknown) => Promise<{ status: string; message: string }>
			>
		).testFieldOpsCredential;
		return await test.call(new core.CredentialTestContext(), {
			id: 'test',
			name: 'test',
			type: 'fieldOpsOAuth2Api',
			data,
		});
	};
	const credentialData = (
		overrides: ICredentialDataDecryptedObject = {},
	): ICredentialDataDecryptedObject => ({
		coreUrl: sb().coreUrl,
		reportingUrl: sb().reportingUrl,
		identityUrl: sb().identityUrl,
		machineStateUrl: sb().machineStateUrl,
		clientId: admin().clientId,
		clientSecret: admin().clientSecret,
		useCoreApi: true,
		useReportingApi: true,
		useMachineStateApi: false,
		...overrides,
	});

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	describe('company from context, never a bare ID', () => {
		it('creates work orders in a subsidiary’s project with its company, looking the project up once for all items', async () => {
			const project = subsidiaryProject();
			await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
			const result = await run(
				{
					resource: 'workOrder',
					operation: 'create',
					project: rl('list', project.id),
					externalId: '={{ "SM-WO-" + $json.i }}',
					name: 'Grøft',
				},
				3,
			);

			expect(result.error).toBeUndefined();
			const created = [...world().tasks.values()].filter((t) => t.externalId.startsWith('SM-WO-'));
			expect(created.map((t) => [t.externalId, t.companyId, t.projectId, t.name, t.active]).sort()).toEqual(
				[0, 1, 2].map((i) => [`SM-WO-${i}`, project.companyId, project.id, 'Grøft', true]),
			);
			expect((await stats())['GET /api/v4/integration/projects/{id}']).toBe(1);
		});

		it('creates an inactive work order when Active is off, and never a nameless one', async () => {
			const project = subsidiaryProject();
			await run({
				resource: 'workOrder',
				operation: 'create',
				project: rl('projectNumber', project.projectNumber),
				externalId: 'SM-OFF-1',
				name: 'Av',
				active: false,
			});
			expect([...world().tasks.values()].find((t) => t.externalId === 'SM-OFF-1')).toMatchObject({
				name: 'Av',
				active: false,
				companyId: project.companyId,
			});

			// An older workflow's name among the Additional Fields is dropped by n8n: Name is required, so it stops.
			await expect(
				run({
					resource: 'workOrder',
					operation: 'create',
					project: rl('list', project.id),
					externalId: 'SM-OLD-1',
					additionalFields: { name: 'Fra før' },
				}),
			).rejects.toThrow('Parameter "Name" is required');
			// An expression that gives no name is refused by the node itself.
			const empty = await run({
				resource: 'workOrder',
				operation: 'create',
				project: rl('list', project.id),
				externalId: 'SM-OLD-2',
				name: '={{ "" }}',
			});
			expect(empty.nodeErrors['Field Ops']).toMatchObject({
				message: 'Name is empty',
				description: 'Enter the Name, e.g. Trench along the county road.',
			});
			expect([...world().tasks.values()].some((t) => t.externalId === 'SM-OLD-1')).toBe(false);
		});

		it('creates machines, projects and users in the credential’s own company when Company is left empty', async () => {
			const machine = await run(
				{ resource: 'machine', operation: 'createMany', machineNumber: '={{ "SM-M-" + $json.i }}' },
				2,
			);
			expect(machine.error).toBeUndefined();
			const project = await run({ resource: 'project', operation: 'create', projectNumber: 'SM-P-1' });
			expect(project.error).toBeUndefined();
			const user = await run({
				resource: 'user',
				operation: 'create',
				employeeNumber: 'SM-U-1',
				firstName: 'Kari',
				lastName: 'Nordmann',
				mobileWork: '+4790000001',
				birthDate: '1990-04-01',
				employmentStartDate: '2026-01-05',
			});
			expect(user.error).toBeUndefined();

			expect(
				[...world().machines.values()]
					.filter((m) => m.machineNumber.startsWith('SM-M-'))
					.map((m) => m.companyId),
			).toEqual([own(), own()]);
			expect([...world().projects.values()].find((p) => p.projectNumber === 'SM-P-1')?.companyId).toBe(own());
			expect([...world().people.values()].find((p) => p.employeeNumber === 'SM-U-1')?.companyId).toBe(own());
		});

		it('creates a machine in a company picked from the list, and keeps a company ID saved as text by an older workflow', async () => {
			const subsidiary = subsidiaryProject().companyId;
			await run({
				resource: 'machine',
				operation: 'create',
				companyId: rl('list', subsidiary),
				machineNumber: 'SM-M-SUB',
			});
			await run({
				resource: 'machine',
				operation: 'create',
				companyId: subsidiary,
				machineNumber: 'SM-M-TEXT',
			});
			const companyOf = (number: string) =>
				[...world().machines.values()].find((m) => m.machineNumber === number)?.companyId;
			expect([companyOf('SM-M-SUB'), companyOf('SM-M-TEXT')]).toEqual([subsidiary, subsidiary]);
		});

		it('lists the companies the client reaches, its own first, each named by some of its projects', async () => {
			const { results } = await listSearch('searchCompanies', { resource: 'machine', operation: 'create' });
			const reachable = new Set(
				[...world().projects.values()]
					.filter((p) => world().canAccessCompany(own(), p.companyId))
					.map((p) => p.companyId),
			);
			expect(results.map((r) => r.value)).toEqual([own(), ...[...reachable].filter((id) => id !== own())]);
			expect(results[0].name).toMatch(/^Your own company \(projects P1001, /);
			expect(results[1].name).toMatch(/^Company of projects A1001/);
		});
	});

	describe('lists', () => {
		it('lists every reachable project without a search (subsidiaries’ and inactive ones too), in number order', async () => {
			const { results } = await listSearch('searchProjects', { resource: 'workOrder', operation: 'get' });
			const reachable = [...world().projects.values()].filter((p) =>
				world().canAccessCompany(own(), p.companyId),
			);
			expect(results.map((r) => r.value).sort()).toEqual(reachable.map((p) => p.id).sort());
			expect(results.map((r) => r.name)).toContain(
				`${reachable.find((p) => !p.active)!.projectNumber} – ${reachable.find((p) => !p.active)!.name} – (inactive)`,
			);
		});

		it('flags an ID left in a number mode after switching (n8n keeps the value when the mode changes)', () => {
			const { description } = fieldOps();
			const issuesOf = (project: unknown) => {
				const node = {
					id: 'n',
					name: 'Field Ops',
					type: FIELD_OPS_NODE,
					typeVersion: 1,
					position: [0, 0],
					parameters: { resource: 'project', operation: 'get', project },
				} as unknown as INode;
				node.parameters =
					NodeHelpers.getNodeParameters(
						description.properties,
						node.parameters,
						true,
						false,
						node,
						description,
					) ?? {};
				return (
					NodeHelpers.getNodeParametersIssues(description.properties, node, description)?.parameters
						?.project ?? []
				);
			};
			const id = subsidiaryProject().id;
			expect(issuesOf(rl('projectNumber', id))).toEqual([
				'This is an ID, not a project number: enter the project number (e.g. P1001), or switch to By ID',
			]);
			expect(issuesOf(rl('projectNumber', 'A1001'))).toEqual([]);
			expect(issuesOf(rl('id', id))).toEqual([]);
		});

		it('says to choose the project first, rather than an empty work-order list', async () => {
			await expect(
				listSearch('searchWorkOrders', { resource: 'workOrder', operation: 'get', project: rl('list', '') }),
			).rejects.toThrow('Choose the Project first');
			const project = subsidiaryProject();
			const { results } = await listSearch('searchWorkOrders', {
				resource: 'workOrder',
				operation: 'get',
				project: rl('list', project.id),
			});
			expect(results.length).toBeGreaterThan(0);
		});
	});

	describe('partial saves and errors in the user’s words', () => {
		it('stops at a duplicate second item, saying the first was saved (by its external ID), item numbers from 1, and what to do', async () => {
			const project = subsidiaryProject();
			const result = await run(
				{
					resource: 'workOrder',
					operation: 'create',
					project: rl('list', project.id),
					externalId: 'SM-DUP-1',
					name: '={{ "Riving " + $json.i }}',
				},
				2,
			);

			const error = result.nodeErrors['Field Ops'] as Error & { description?: string };
			expect(error.message).toMatch(/External ID SM-DUP-1 is already used .* \[item 2 \(n8n: item 1\)\]$/);
			expect(error.message).not.toMatch(/externalId/);
			// The user's number in words; n8n's own index (from 0) for n8n, also named in the message so that n8n's
			// editor adds no "[item <index>]" of its own.
			expect((error as unknown as { context: { itemIndex: number } }).context.itemIndex).toBe(1);
			expect(error.description).toContain(
				'To change that work order instead, use Work Order → Update with Work Order set to Ext. ID "SM-DUP-1"',
			);
			expect(error.description).toMatch(
				/Item 1 was saved before this failure \(work order SM-DUP-1, ID [\w-]+\); item 2 and the items after it were not sent\./,
			);
			expect(error.description).toMatch(/fix item 2 and run only it and the items after it/);
			expect([...world().tasks.values()].filter((t) => t.externalId === 'SM-DUP-1')).toHaveLength(1);
		});

		it('says nothing of saved items when reading, and with Continue On Fail gives each failed item its own number', async () => {
			const result = await run(
				{
					resource: 'machine',
					operation: 'get',
					machine: rl('machineNumber', '={{ $json.i === 1 ? "NO-SUCH" : "M100" }}'),
				},
				2,
				true,
			);
			const failed = result.items['Field Ops'].find((item) => item.error);
			expect(failed?.json.error).toMatch(/ \[item 2 \(n8n: item 1\)\]$/);
			expect((failed?.error as { description?: string }).description ?? '').not.toMatch(/saved/);
		});

		it('refuses a date typed day first, showing the value it wants', async () => {
			const project = subsidiaryProject();
			const result = await run({
				resource: 'workOrder',
				operation: 'create',
				project: rl('list', project.id),
				externalId: 'SM-DATE-1',
				name: 'Dato',
				additionalFields: { startDate: '24.12.2026' },
			});
			const error = result.nodeErrors['Field Ops'] as Error & { description?: string };
			expect(error.message).toBe(
				'Start Date "24.12.2026" is written day first: Field Ops needs year-month-day, here 2026-12-24',
			);
			expect(error.description).toBe(
				'Write Start Date as 2026-12-24 (year-month-day), or pick it in the date picker.',
			);
		});

		it('refuses a number with a decimal comma, showing it with a point', async () => {
			const project = subsidiaryProject();
			const result = await run({
				resource: 'workOrder',
				operation: 'create',
				project: rl('list', project.id),
				externalId: 'SM-NUM-1',
				name: 'Tall',
				additionalFields: { estimatedHourQty: '12,5' },
			});
			expect((result.nodeErrors['Field Ops'] as Error & { description?: string }).description).toBe(
				'Write Estimated Hours with a decimal point: 12.5.',
			);
		});
	});

	describe('the credential’s Test names the field to fix', () => {
		it('passes, also with the token server given as its whole …/connect/token address, and asks only ticked APIs', async () => {
			expect(await testCredential(credentialData())).toEqual({
				status: 'OK',
				message: 'Connection successful',
			});
			expect(
				(await testCredential(credentialData({ identityUrl: `${sb().identityUrl}/connect/token` }))).status,
			).toBe('OK');
			expect(
				(await testCredential(credentialData({ useReportingApi: false, reportingUrl: '' }))).status,
			).toBe('OK');
		});

		it('a wrong secret: the Client Secret', async () => {
			const { status, message } = await testCredential(credentialData({ clientSecret: 'not-the-secret' }));
			expect(status).toBe('Error');
			expect(message).toMatch(
				/^Check the Client Secret \(and the Client ID\): the token server refused them\./,
			);
		});

		it('a wrong token server address: the Token Server URL', async () => {
			const { message } = await testCredential(
				credentialData({ identityUrl: `${sb().identityUrl}/identity` }),
			);
			expect(message).toBe(
				`Check the Token Server URL: there is no token server at ${sb().identityUrl}/identity/connect/token (HTTP 404). Give the token server's address from your onboarding.`,
			);
		});

		it('an unreachable host: the Token Server URL, in words', async () => {
			const { message } = await testCredential(credentialData({ identityUrl: 'http://127.0.0.1:9' }));
			expect(message).toBe(
				'Check the Token Server URL: could not reach 127.0.0.1:9 (nothing answers at that address and port). Copy the address from your onboarding, and check that this n8n can reach it.',
			);
		});
	});

	describe('words, not raw values', () => {
		it('the node’s subtitle is the operation’s action sentence', () => {
			const subtitle = String(fieldOps().description.subtitle);
			expect(subtitle).toContain('"workOrder:create":"Create a work order"');
			expect(subtitle).not.toContain('$parameter["operation"] + ": "');
		});

		it('the trigger’s actions in the node creator name their record type', () => {
			const trigger = harness.nodeTypes.getByNameAndVersion(
				'n8n-nodes-fieldops.fieldOpsTrigger',
				1,
			) as INodeType;
			// n8n's node creator lists the options of the first property labelled Event(s) or "Trigger On".
			const listed = trigger.description.properties.find((p) =>
				['event', 'events', 'trigger on'].includes(p.displayName.toLowerCase()),
			);
			const actions = (listed?.options ?? []).map((o) => (o as { action?: string }).action);
			// One per record and event (issue #34), as n8n's own triggers name them.
			expect(actions).toContain('On New Incident Registration');
			expect(actions).toContain('On Machine Registration Deleted');
		});

		it('Fetch Test Event with only "Changed" says what there is, not n8n’s "create one"', async () => {
			const poll = harness.poll(
				triggerWorkflow({ feed: 'incidentRegistrations', events: ['changed'] }),
				TRIGGER,
				{ mode: 'manual' },
			);
			await expect(poll).rejects.toThrow('No changed incident registrations to show as a test event');
			await expect(poll).rejects.toMatchObject({
				description: expect.stringMatching(
					/^Field Ops has incident registrations, but the Incident Registrations report does not say when a record was changed/,
				),
			});
		});
	});
});
