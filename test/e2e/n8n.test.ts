/**
 * The package in a real n8n 2.41.1: installed from the packed tarball the way n8n installs community packages,
 * loaded by n8n's own loader, its credential tested through n8n's REST API, and a workflow run by the n8n server
 * against the sandbox. One n8n for the whole file (it takes 7-9 s to start).
 * Needs `npm run build` and `npx tsx scripts/n8n/install.ts` first (`npm run test:e2e` does both).
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { csvRecords } from '../helpers/csv';
import { call, useSandbox } from '../helpers/sandbox';
import { ROOT } from '../../scripts/n8n/install';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	TOOL_NODE_TYPE,
	startN8n,
	nodeOutput,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';
import {
	administrator,
	callWebhook,
	projectsWorkflow,
	sandboxCredentialData,
	sandboxProjectIds,
} from './fixtures';

const timings: Record<string, number> = {};

describe('real n8n with n8n-nodes-fieldops installed', () => {
	const sb = useSandbox();
	let n8n: N8nInstance;
	// Shared by the last two tests: the credential the server run created and the projects it expected.
	let credentialForCli = '';
	let projectIds: string[] = [];

	const credentialData = (secret?: string) =>
		sandboxCredentialData(sb(), secret ? { clientSecret: secret } : {});

	beforeAll(async () => {
		const started = Date.now();
		n8n = await startN8n();
		await n8n.setupOwner();
		await n8n.createApiKey();
		timings['n8n start (readiness)'] = n8n.startSeconds;
		timings['n8n start + package install + owner + API key'] = (Date.now() - started) / 1000;
	}, 180_000);

	afterAll(async () => {
		await n8n?.stop();
		console.log(`e2e timings (s): ${JSON.stringify(timings)}`);
	});

	const timed = (name: string, fn: () => Promise<void>) =>
		it(name, async () => {
			const started = Date.now();
			try {
				await fn();
			} catch (error) {
				throw new Error(
					`${error instanceof Error ? error.message : String(error)}\n--- n8n log ---\n${n8n?.logTail(30) ?? ''}`,
				);
			} finally {
				timings[name] = (Date.now() - started) / 1000;
			}
		});

	timed('lists the node, its AI tool variant and the credential type', async () => {
		// The editor's page itself is served (the browser test comes later).
		const page = await n8n.get<string>('/');
		expect(page.status).toBe(200);
		expect(page.body).toContain('<div id="app"');

		// What the editor loads: the type files n8n writes at start-up from every loaded package.
		const nodes = await n8n.get<{ name: string }[]>('/types/nodes.json');
		expect(nodes.status).toBe(200);
		const nodeNames = nodes.body.map((n) => n.name);
		expect(nodeNames).toEqual(expect.arrayContaining([NODE_TYPE, TOOL_NODE_TYPE]));

		const credentials = await n8n.get<{ name: string }[]>('/types/credentials.json');
		expect(credentials.status).toBe(200);
		expect(credentials.body.map((c) => c.name)).toContain(CREDENTIAL_TYPE);
	});

	timed('imports every examples/*.json workflow, and each names only node types n8n knows', async () => {
		const dir = join(ROOT, 'examples');
		const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
		const known = new Set((await n8n.get<{ name: string }[]>('/types/nodes.json')).body.map((n) => n.name));
		const credentialId = await n8n.createCredential('Field Ops examples', CREDENTIAL_TYPE, credentialData());
		for (const file of files) {
			const workflow = JSON.parse(readFileSync(join(dir, file), 'utf8')) as WorkflowFile;
			expect({ file, unknown: workflow.nodes.map((n) => n.type).filter((type) => !known.has(type)) }).toEqual(
				{ file, unknown: [] },
			);
			const id = await n8n.importWorkflow(workflow, {
				[CREDENTIAL_TYPE]: { id: credentialId, name: 'Field Ops examples' },
			});
			expect((await n8n.api('GET', `/workflows/${id}`)).body.name).toBe(workflow.name);
		}
	});

	timed('tests the credential: passes with the sandbox client, fails with a wrong secret', async () => {
		const good = await n8n.createCredential('Field Ops (good)', CREDENTIAL_TYPE, credentialData());
		expect(await n8n.testCredential(good, CREDENTIAL_TYPE, credentialData())).toMatchObject({ status: 'OK' });
		// The saved credential as the editor sends it (secret redacted, restored by n8n).
		expect(await n8n.testCredential(good, CREDENTIAL_TYPE)).toMatchObject({ status: 'OK' });

		const wrong = await n8n.createCredential(
			'Field Ops (wrong secret)',
			CREDENTIAL_TYPE,
			credentialData('wrong-secret'),
		);
		const bad = await n8n.testCredential(wrong, CREDENTIAL_TYPE);
		expect(bad.status).toBe('Error');
		console.log(`credential test with a wrong secret: ${bad.message}`);
		// As in the editor: a secret edited in the form (not saved yet) is what gets tested.
		expect((await n8n.testCredential(good, CREDENTIAL_TYPE, credentialData('wrong-secret'))).status).toBe(
			'Error',
		);
	});

	timed(
		'with SSRF protection on (n8n 3.0), a Field Ops address it blocks names the setting to change, in the credential test and the node',
		async () => {
			// The sandbox by its loopback address: in a blocked range, and not the host name the suites allow.
			const loopback = (url: string) => url.replace('//localhost:', '//127.0.0.1:');
			const blocked = {
				...credentialData(),
				coreUrl: loopback(sb().coreUrl),
				reportingUrl: loopback(sb().reportingUrl),
				identityUrl: loopback(sb().identityUrl),
			};
			const id = await n8n.createCredential('Field Ops (blocked address)', CREDENTIAL_TYPE, blocked);
			const tested = await n8n.testCredential(id, CREDENTIAL_TYPE);
			expect(tested.status).toBe('Error');
			expect(tested.message).toMatch(
				/^Check the Token Server URL: n8n's SSRF protection blocked the request to 127\.0\.0\.1.*N8N_SSRF_ALLOWED_HOSTNAMES/s,
			);

			const path = randomUUID();
			const workflowId = await n8n.importWorkflow(
				projectsWorkflow('Field Ops e2e: blocked address', { id, name: 'Field Ops (blocked address)' }, path),
			);
			await n8n.activateWorkflow(workflowId);
			await (await callWebhook(n8n, path)).arrayBuffer();
			const execution = await n8n.latestExecution(workflowId);
			const error = execution.data.resultData.runData['Field Ops'][0].error;
			expect(error.message).toBe(
				"n8n's SSRF protection blocked the request to 127.0.0.1, the Token Server URL of the Field Ops credential",
			);
			expect(error.description).toMatch(/N8N_SSRF_ALLOWED_HOSTNAMES/);
		},
	);

	timed('runs a report with an administrator’s static token (no token server asked)', async () => {
		const { token } = (
			await call(sb().coreUrl, '/__sandbox/static-tokens', {
				method: 'POST',
				json: { clientId: administrator(sb()).clientId },
			})
		).body as { token: string };
		const name = 'Field Ops (static token)';
		const id = await n8n.createCredential(
			name,
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb(), {
				authentication: 'staticToken',
				staticToken: token,
				clientId: '',
				clientSecret: '',
			}),
		);
		expect(await n8n.testCredential(id, CREDENTIAL_TYPE)).toMatchObject({ status: 'OK' });
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });

		const path = randomUUID();
		const workflow = projectsWorkflow('Field Ops e2e: static token', { id, name }, path);
		const report = workflow.nodes.find((node) => node.type === NODE_TYPE);
		report!.typeVersion = 1.1;
		report!.parameters = {
			resource: 'report',
			operation: 'timeRegistrations',
			syncMode: 'window',
			fromDateTime: '={{ $now.minus({ weeks: 2 }).toISO() }}',
			toDateTime: '={{ $now.toISO() }}',
			returnAll: true,
			options: {},
		};
		const workflowId = await n8n.importWorkflow(workflow);
		await n8n.activateWorkflow(workflowId);
		const answer = await callWebhook(n8n, path);
		const text = await answer.text();
		expect({ status: answer.status, text: answer.status === 200 ? '' : text }).toEqual({
			status: 200,
			text: '',
		});
		expect((JSON.parse(text) as unknown[]).length).toBeGreaterThan(0);
		const stats = (await call(sb().coreUrl, '/__sandbox/stats')).body;
		expect(stats.tokensIssued).toBe(0);
		expect(stats.requests['POST /connect/token']).toBeUndefined();
	});

	timed('runs Project → Get Many in the n8n server and returns the company’s projects', async () => {
		const credentialId = await n8n.createCredential('Field Ops e2e', CREDENTIAL_TYPE, credentialData());
		const path = randomUUID();
		const workflowId = await n8n.importWorkflow(
			projectsWorkflow('Field Ops e2e: projects', { id: credentialId, name: 'Field Ops e2e' }, path),
		);
		await n8n.activateWorkflow(workflowId);

		const answer = await callWebhook(n8n, path);
		const text = await answer.text();
		expect({ status: answer.status, text: answer.status === 200 ? '' : text }).toEqual({
			status: 200,
			text: '',
		});
		const returned = JSON.parse(text) as { id: string }[];

		// The same list read directly from the sandbox with the client's token.
		const expected = await sandboxProjectIds(sb());
		expect(expected.length).toBeGreaterThan(0);
		expect(returned.map((p) => p.id).sort()).toEqual(expected);

		// n8n saved the execution with the node's output.
		const execution = await n8n.latestExecution(workflowId);
		expect(
			nodeOutput(execution, 'Field Ops')
				.map((p) => p.id)
				.sort(),
		).toEqual(expected);
		credentialForCli = credentialId;
		projectIds = expected;
	});

	timed('runs the same with a manual trigger through `n8n execute` (how the examples are run)', async () => {
		expect(projectIds.length).toBeGreaterThan(0);
		const workflowId = await n8n.importWorkflow(
			projectsWorkflow('Field Ops e2e: projects (manual)', { id: credentialForCli, name: 'Field Ops e2e' }),
		);
		const run = await n8n.executeWithCli(workflowId);
		expect(
			nodeOutput(run, 'Field Ops')
				.map((p) => p.id)
				.sort(),
		).toEqual(projectIds);
	});

	/** An example started by a webhook in place of its schedule (its output is large for `n8n execute`'s stdout), `replace` maps other nodes. */
	const runScheduledExample = async (
		example: WorkflowFile,
		replace: (node: WorkflowFile['nodes'][number]) => WorkflowFile['nodes'][number] = (node) => node,
	) => {
		const path = randomUUID();
		const nodes = example.nodes.map((node) =>
			node.type === 'n8n-nodes-base.scheduleTrigger'
				? {
						...node,
						type: 'n8n-nodes-base.webhook',
						typeVersion: 2,
						webhookId: path,
						parameters: { httpMethod: 'POST', path, responseMode: 'onReceived' },
					}
				: replace(node),
		);
		const workflowId = await n8n.importWorkflow(
			{ ...example, nodes },
			{ [CREDENTIAL_TYPE]: { id: credentialForCli, name: 'Field Ops e2e' } },
		);
		await n8n.activateWorkflow(workflowId);
		expect((await callWebhook(n8n, path)).status).toBe(200);
		return await n8n.latestExecution(workflowId);
	};

	timed(
		'runs the "Weekly hours to spreadsheet" example: last week’s time registrations, simplified, become one xlsx file written by the node',
		async () => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const execution = await runScheduledExample(require('../../examples/weekly-hours-to-spreadsheet.json'));

			// The Field Ops node writes the .xlsx itself: last week (Period), Simplify's columns, in n8n's zone.
			const [file] = execution.data.resultData.runData["Last week's hours as a spreadsheet"][0].data.main[0];
			expect(file.binary.data).toMatchObject({
				fileName: expect.stringMatching(/^time-registrations-\d{4}-W\d{2}\.xlsx$/),
				mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
			});
			expect(file.json).toMatchObject({
				fileFormat: 'xlsx',
				records: expect.any(Number),
				window: expect.stringMatching(/^Last Week: Monday .* – Sunday .* \(America\/New_York\)$/),
				timeZone: 'America/New_York',
				columns: expect.arrayContaining(['Employee', 'Date', 'Start', 'End', 'Hours']),
			});
			expect(file.json.records).toBeGreaterThan(0);
		},
	);

	timed(
		'runs the "Weekly hours to CSV file" example: the file streams into n8n’s binary data on disk and reaches the e-mail node',
		async () => {
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const example = require('../../examples/weekly-hours-to-csv-file.json') as WorkflowFile;
			// No mail server here: the e-mail node becomes a No-Op that passes the file on.
			const execution = await runScheduledExample(example, (node) =>
				node.type === 'n8n-nodes-base.emailSend'
					? { ...node, type: 'n8n-nodes-base.noOp', typeVersion: 1, parameters: {}, credentials: undefined }
					: node,
			);
			const [file] = execution.data.resultData.runData["Last week's hours as a CSV file"][0].data.main[0];
			expect(file.binary.data).toMatchObject({
				id: expect.stringMatching(/^filesystem/),
				mimeType: 'text/csv',
				fileName: expect.stringMatching(/^time-registrations-\d{4}-W\d{2}\.csv$/),
			});
			expect(file.json.records).toBeGreaterThan(0);
			// The bytes as n8n stored them (filesystem binary data, n8n's default): a BOM, Simplify's header, one row per record.
			const fileId = String(file.binary.data.id).split(':')[1];
			const where = readdirSync(join(n8n.userFolder, '.n8n'), { recursive: true })
				.map(String)
				.find((path) => path.endsWith(fileId));
			// Under the storage folder's n8n 3.0 name (`storage`, not `binaryData`).
			expect(where).toMatch(/^storage\//);
			const stored = readFileSync(join(n8n.userFolder, '.n8n', String(where)), 'utf8');
			expect(
				stored.startsWith(
					'\uFEFFEmployee,Employee Number,Project Number,Project,Work Order,Date,Start,End,Hours,Approved,Comment,Last Changed\r\n',
				),
			).toBe(true);
			expect(csvRecords(stored.slice(1)).records).toHaveLength(file.json.records);
			const [mailed] = execution.data.resultData.runData['Email it to payroll'][0].data.main[0];
			expect(mailed.binary.data.id).toBe(file.binary.data.id);
		},
	);
});
