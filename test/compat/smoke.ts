/**
 * The compatibility smoke test, the same for every n8n line: the packed package installed into that n8n as a
 * community package, then against the sandbox the credential test through n8n's REST API, Project → Get Many, a
 * Report, a document upload, and the trigger activated once. The nodes are at the versions n8n gives a new node
 * (Field Ops 1.3, Trigger 1.1), with what is new in them: the Report's Time Zone from its list, Return All and
 * Simplify on without being set, its summary above the output (an execution hint); the trigger's readable columns.
 * `test/compat/n8n-1.test.ts` runs it on n8n 1.x (`npm run test:compat`), `test/e2e/smoke.test.ts` on n8n 2.x
 * (`npm run test:e2e`).
 */
import { randomUUID } from 'node:crypto';

import type { IDataObject } from 'n8n-workflow';

import { FieldOps } from '../../nodes/FieldOps/FieldOps.node';
import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import { simplifier } from '../../nodes/FieldOps/reporting/simplify';
import { FieldOpsTrigger } from '../../nodes/FieldOpsTrigger/FieldOpsTrigger.node';
import { readFeed } from '../helpers/reporting';
import { call, tokenFor, useSandbox } from '../helpers/sandbox';
import type { N8nRelease } from '../../scripts/n8n/install';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	TRIGGER_NODE_TYPE,
	nodeOutput,
	startN8n,
	webhookChain,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';
import {
	administrator,
	callWebhook,
	projectsWorkflow,
	sandboxCredentialData,
	sandboxProjectIds,
} from '../e2e/fixtures';

const DAY = 86_400_000;
/** The versions n8n gives a new node: what users build with today. */
const NODE_VERSION = new FieldOps().description.defaultVersion;
const TRIGGER_VERSION = new FieldOpsTrigger().description.defaultVersion;

/** A production webhook that answers with every item of `node` (Field Ops). */
const webhookWorkflow = (name: string, path: string, node: Record<string, unknown>) =>
	webhookChain(name, path, [
		{ id: 'field-ops', name: 'Field Ops', type: NODE_TYPE, typeVersion: NODE_VERSION, ...node },
	]);

/** Posts to the webhook and returns the items it answered with (fails with n8n's answer otherwise). */
async function run(n8n: N8nInstance, path: string, body?: string | FormData): Promise<Record<string, any>[]> {
	const answer = await callWebhook(n8n, path, body);
	const text = await answer.text();
	expect({ status: answer.status, text: answer.status === 200 ? '' : text }).toEqual({
		status: 200,
		text: '',
	});
	return JSON.parse(text) as Record<string, any>[];
}

export function smokeTest(release: N8nRelease): void {
	describe(`n8n-nodes-fieldops on n8n ${release.version}`, () => {
		const sb = useSandbox();
		let n8n: N8nInstance;
		let credential: { id: string; name: string };

		beforeAll(async () => {
			n8n = await startN8n({ n8n: release });
			await n8n.setupOwner();
			await n8n.createApiKey();
			const name = 'Field Ops account';
			credential = {
				id: await n8n.createCredential(name, CREDENTIAL_TYPE, sandboxCredentialData(sb())),
				name,
			};
		}, 180_000);

		afterAll(async () => {
			await n8n?.stop();
		});

		/** Adds n8n's own log to a failure, where the cause usually is. */
		const step = (name: string, fn: () => Promise<void>) =>
			it(name, async () => {
				try {
					await fn();
				} catch (error) {
					throw new Error(
						`${error instanceof Error ? error.message : String(error)}\n--- n8n ${release.version} log ---\n${n8n?.logTail(30) ?? ''}`,
					);
				}
			});

		step('is this n8n version, and loads the node, the trigger and the credential', async () => {
			const settings = await n8n.rest<{ versionCli: string }>('GET', '/settings');
			expect(settings.body.versionCli).toBe(release.version);
			const nodes = (await n8n.get<{ name: string; version: number | number[] }[]>('/types/nodes.json')).body;
			const versions = (type: string) => nodes.filter((n) => n.name === type).flatMap((n) => n.version);
			expect(versions(NODE_TYPE)).toContain(1.3);
			expect(NODE_VERSION).toBe(1.3);
			expect(versions(TRIGGER_NODE_TYPE)).toContain(1.1);
			expect(TRIGGER_VERSION).toBe(1.1);
			const credentials = (await n8n.get<{ name: string }[]>('/types/credentials.json')).body.map(
				(c) => c.name,
			);
			expect(credentials).toContain(CREDENTIAL_TYPE);
		});

		step(
			'tests the credential through the REST API: OK with the client, Error with a wrong secret',
			async () => {
				expect(await n8n.testCredential(credential.id, CREDENTIAL_TYPE)).toMatchObject({ status: 'OK' });
				const wrong = await n8n.createCredential(
					'Field Ops (wrong secret)',
					CREDENTIAL_TYPE,
					sandboxCredentialData(sb(), { clientSecret: 'wrong-secret' }),
				);
				expect((await n8n.testCredential(wrong, CREDENTIAL_TYPE)).status).toBe('Error');
			},
		);

		step('Project → Get Many returns the company’s projects', async () => {
			const path = randomUUID();
			const workflow = projectsWorkflow('Smoke: projects', credential, path);
			for (const node of workflow.nodes) if (node.type === NODE_TYPE) node.typeVersion = NODE_VERSION;
			const id = await n8n.importWorkflow(workflow);
			await n8n.activateWorkflow(id);
			const expected = await sandboxProjectIds(sb());
			expect(expected.length).toBeGreaterThan(0);
			expect((await run(n8n, path)).map((p) => p.id).sort()).toEqual(expected);
		});

		step('a Report in a Time Zone from its list: every registration, readable, and a summary', async () => {
			const zone = 'Europe/Oslo';
			const zones = await n8n.rest<{ name: string; value: string }[]>(
				'POST',
				'/dynamic-node-parameters/options',
				{
					path: 'parameters.timeZone',
					methodName: 'getTimeZones',
					nodeTypeAndVersion: { name: NODE_TYPE, version: NODE_VERSION },
					currentNodeParameters: { resource: 'report', operation: 'timeRegistrations' },
					credentials: { [CREDENTIAL_TYPE]: credential },
				},
			);
			expect(zones.status).toBe(200);
			expect(zones.body[0]).toMatchObject({
				value: 'workflow',
				name: expect.stringMatching(/^The workflow’s time zone \(now: .+\)$/),
			});
			expect(zones.body.map((option) => option.value)).toContain(zone);

			const from = new Date(Date.now() - 60 * DAY).toISOString();
			const to = new Date().toISOString();
			const path = randomUUID();
			// Return All and Simplify are left to the node's defaults, as a new node has them.
			const parameters = {
				resource: 'report',
				operation: 'timeRegistrations',
				period: 'custom',
				fromDateTime: from,
				toDateTime: to,
				timeZone: zone,
			};
			const workflow = webhookWorkflow('Smoke: report', path, {
				parameters,
				credentials: { [CREDENTIAL_TYPE]: credential },
			});
			const id = await n8n.importWorkflow(workflow);
			await n8n.activateWorkflow(id);
			const records = await run(n8n, path);
			const expected = await readFeed(sb(), '/v1/time-registrations', { FromDateTime: from, ToDateTime: to });
			// More than the Limit's 50: only Return All, on by default, returns them all.
			expect(expected.length).toBeGreaterThan(50);
			const feed = REPORT_FEEDS.find((candidate) => candidate.value === 'timeRegistrations')!;
			const simplify = simplifier(feed, zone);
			expect(records).toEqual(expected.map((record) => simplify(record as IDataObject)));

			const execution = await n8n.latestExecution(id);
			const hints = (execution.data.resultData.runData['Field Ops'][0].hints ?? []) as { message: string }[];
			expect(hints.map((hint) => hint.message)).toContainEqual(
				expect.stringMatching(new RegExp(`\\(${zone}\\): ${expected.length} time registrations$`)),
			);
		});

		step('uploads a document to a project', async () => {
			const token = await tokenFor(sb(), administrator(sb()).clientId);
			const project = (await call<{ id: string }[]>(sb().coreUrl, '/api/v4/integration/projects', { token }))
				.body[0];
			const path = randomUUID();
			const fileName = `smoke-${release.version}.pdf`;
			const parameters = {
				resource: 'document',
				operation: 'upload',
				documentTarget: 'project',
				project: { __rl: true, mode: 'id', value: project.id },
				binarySource: 'all',
				options: { section: 'Smoke' },
			};
			const workflow = webhookWorkflow('Smoke: upload', path, {
				parameters,
				credentials: { [CREDENTIAL_TYPE]: credential },
			});
			const id = await n8n.importWorkflow(workflow);
			await n8n.activateWorkflow(id);
			const form = new FormData();
			form.append('file', new Blob([`%PDF-1.4 ${release.version}`], { type: 'application/pdf' }), fileName);
			const [result] = await run(n8n, path, form);
			expect(result).toMatchObject({ successful: true, section: 'Smoke' });
			expect(result.files.map((f: { name: string }) => f.name)).toEqual([fileName]);
			// The service lists it on the project's page.
			const pages = await call(sb().coreUrl, `/api/v4/integration/projects/${project.id}/documents`, {
				token,
			});
			expect(JSON.stringify(pages.body)).toContain(fileName);
		});

		step('activates the trigger: its first poll emits every incident once, readable', async () => {
			const workflow: WorkflowFile = {
				name: 'Smoke: trigger',
				nodes: [
					{
						id: 'trigger',
						name: 'New incident',
						type: TRIGGER_NODE_TYPE,
						typeVersion: TRIGGER_VERSION,
						position: [0, 0],
						parameters: {
							pollTimes: { item: [{ mode: 'everyHour' }] },
							// As the node creator's entry On New Incident Registration sets it.
							entry: 'incidentRegistrations.new',
							feed: 'incidentRegistrations',
							events: ['new'],
							startFrom: 'everything',
							options: {},
						},
						credentials: { [CREDENTIAL_TYPE]: credential },
					},
				],
				connections: {},
				settings: { executionOrder: 'v1' },
			};
			const id = await n8n.importWorkflow(workflow);
			// n8n runs one poll when it activates a polling workflow; the next one is an hour away.
			await n8n.activateWorkflow(id);
			const execution = await n8n.latestExecution(id);
			expect(execution.status).toBe('success');
			const items = nodeOutput(execution, 'New incident');
			expect(new Set(items.map((item) => item._event))).toEqual(new Set(['new']));
			const expected = await readFeed(sb(), '/v1/incident-registrations', {
				ModifiedSince: '2000-01-01T00:00:00Z',
			});
			expect(expected.length).toBeGreaterThan(0);
			expect(items.map((item) => item.id).sort()).toEqual(expected.map((r) => r.id).sort());
			// Simplify, on by default: the incident's readable columns instead of the service's IDs.
			const incidents = REPORT_FEEDS.find((candidate) => candidate.value === 'incidentRegistrations')!;
			const readable = simplifier(incidents, 'UTC');
			for (const item of items) {
				const record = readable(expected.find((r) => r.id === item.id) as IDataObject);
				expect(record.Title).toEqual(expect.any(String));
				expect(item).toMatchObject({ Title: record.Title, 'Project Number': record['Project Number'] });
				expect(item).not.toHaveProperty('projectId');
			}
		});
	});
}
