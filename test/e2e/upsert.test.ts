/**
 * Issue #32 in a real n8n 2.41.1: the nightly HR example whole (Read/Write Files from Disk, Extract from File, Field
 * Ops Employee → Create or Update, Summarize), started by a webhook in place of its schedule, reading a CSV file from
 * the folder n8n may read (N8N_RESTRICT_FILE_ACCESS_TO, as an administrator sets it), against the sandbox.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { hrCsv, hrRowOf, newHrRow, type HrRow } from '../helpers/hr-csv';
import { useSandbox } from '../helpers/sandbox';
import {
	CREDENTIAL_TYPE,
	nodeOutput,
	startN8n,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';
import { callWebhook, sandboxCredentialData } from './fixtures';

/* eslint-disable @typescript-eslint/no-require-imports */
const example = require('../../examples/nightly-employees-from-hr-csv.json') as WorkflowFile;
/* eslint-enable @typescript-eslint/no-require-imports */

describe('real n8n: the nightly HR example (issue #32)', () => {
	const sb = useSandbox();
	let n8n: N8nInstance;
	let files: string;
	let credential: string;

	beforeAll(async () => {
		files = mkdtempSync(join(tmpdir(), 'fieldops-hr-'));
		n8n = await startN8n({ env: { N8N_RESTRICT_FILE_ACCESS_TO: files } });
		await n8n.setupOwner();
		await n8n.createApiKey();
		credential = await n8n.createCredential(
			'Field Ops (HR example)',
			CREDENTIAL_TYPE,
			sandboxCredentialData(sb()),
		);
	}, 180_000);

	afterAll(async () => {
		await n8n?.stop();
		if (files) rmSync(files, { recursive: true, force: true });
	});

	/** The example as imported, its schedule a webhook answering when the run is done, its file in the allowed folder. */
	const importExample = async (file: string) => {
		const path = randomUUID();
		const nodes = example.nodes.map((node) => {
			if (node.type === 'n8n-nodes-base.scheduleTrigger')
				return {
					...node,
					type: 'n8n-nodes-base.webhook',
					typeVersion: 2,
					webhookId: path,
					parameters: { httpMethod: 'POST', path, responseMode: 'lastNode', responseData: 'allEntries' },
				};
			if (node.type === 'n8n-nodes-base.readWriteFile')
				return { ...node, parameters: { ...(node.parameters as object), fileSelector: file } };
			return node;
		});
		const id = await n8n.importWorkflow(
			{ ...example, nodes },
			{ [CREDENTIAL_TYPE]: { id: credential, name: 'Field Ops (HR example)' } },
		);
		await n8n.activateWorkflow(id);
		return async () => {
			const answer = await callWebhook(n8n, path);
			const text = await answer.text();
			if (answer.status !== 200)
				throw new Error(`the webhook answered ${answer.status}: ${text.slice(0, 500)}`);
			return await n8n.latestExecution(id);
		};
	};
	const summary = (execution: unknown) =>
		Object.fromEntries(nodeOutput(execution, 'Summary').map((row) => [row.result, row.count_result]));

	it('creates, updates and leaves employees as the CSV says, counts them, lists the refused rows; the next night writes nothing', async () => {
		const world = sb().sandbox.world;
		const own = sb().clients.find((c) => c.administrator)?.companyId;
		const staff = [...world.people.values()].filter((p) => p.companyId === own).slice(0, 15);
		const rows: HrRow[] = [
			...staff.map((p, i) => (i === 2 ? { ...hrRowOf(p), 'Last Name': 'Nyberg, Hansen' } : hrRowOf(p))),
			newHrRow('HR-1'),
			newHrRow('HR-2', { 'Job Title': 'Formann "bas"' }),
			newHrRow('', { 'First Name': 'Uten nummer' }),
			newHrRow('HR-3', { Mobile: '12' }),
		];
		const file = join(files, 'employees.csv');
		writeFileSync(file, hrCsv(rows));
		const run = await importExample(file);

		const first = await run();
		expect(first.status).toBe('success');
		expect(summary(first)).toEqual({ unchanged: 14, updated: 1, created: 2 });
		// The row without a number and HR-3, whose mobile Field Ops refuses: counted, HR-3 named.
		expect(nodeOutput(first, 'Failed')).toEqual([
			{ count_error: 2, concatenated_details_employeeNumber: 'HR-3' },
		]);
		const refused = first.data.resultData.runData['Create or update in Field Ops'][0].data.main[1];
		expect(refused.map((item: { json: { error: string } }) => item.json.error)).toEqual([
			expect.stringMatching(/^Employee Number to Match On is empty/),
			expect.stringMatching(/^Employee HR-3: Field Ops refused the request: Phone/),
		]);
		const people = [...world.people.values()];
		expect(people.find((p) => p.employeeNumber === staff[2].employeeNumber)?.lastName).toBe('Nyberg, Hansen');
		expect(people.find((p) => p.employeeNumber === 'HR-2')).toMatchObject({ workTitle: 'Formann "bas"' });
		expect(people.some((p) => p.employeeNumber === 'HR-3')).toBe(false);

		// The next night, the file without its refused rows: one read of the employee list, no write.
		writeFileSync(file, hrCsv(rows.slice(0, -2)));
		await fetch(`${sb().coreUrl}/__sandbox/stats`, { method: 'DELETE' });
		const second = await run();
		expect(summary(second)).toEqual({ unchanged: 17 });
		const { requests } = (await (await fetch(`${sb().coreUrl}/__sandbox/stats`)).json()) as {
			requests: Record<string, number>;
		};
		delete requests['POST /connect/token'];
		expect(requests).toEqual({ 'GET /api/v5/integration/employees': 1 });
	});
});
