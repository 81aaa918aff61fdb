/**
 * 6. Create or Update, in a real n8n: a nightly HR sync of 1,000 employees of which 10 changed. Employee → Create or
 * Update (Only Write What Changed, the default) against the workflow a user builds today: Employee → Get by number
 * (On Error: Continue), an IF on "found" (n8n-nodes-base's IF node), Employee → Update on one branch and Create on
 * the other. Items come from the webhook body through Split Out; the sandbox counts the requests; every run checks
 * that the 10 changes arrived.
 */
import { figure, webhookWorkflow, type Figure, type Section, withSandboxAndN8n } from './lib';

const EMPLOYEES = 1_000;
const CHANGED = 10;
const NUMBER = (i: number) => `HR-${String(i).padStart(4, '0')}`;

/** Each employee's job title as the HR system has it now; each run changes 10 of them. */
const titles = Array.from({ length: EMPLOYEES }, () => 'Anleggsarbeider');

/** The HR system's 1,000 rows after run `run` changed the job title of 10 employees (none for run -1). */
function rows(run: number) {
	if (run >= 0)
		for (let k = 0; k < CHANGED; k++) titles[((run * CHANGED + k) * 37) % EMPLOYEES] = `Run ${run}`;
	return Array.from({ length: EMPLOYEES }, (_, i) => ({
		number: NUMBER(i),
		firstName: `Fornavn ${i}`,
		lastName: `Etternavn ${i % 97}`,
		phone: `+4791${String(i).padStart(6, '0')}`,
		birthDate: `19${60 + (i % 40)}-0${1 + (i % 9)}-1${i % 10}`,
		startDate: '2025-01-06',
		email: `ansatt${i}@example.com`,
		workTitle: titles[i],
	}));
}

const fromItem = (field: string) => `={{ $('Items').item.json.${field} }}`;
const PROFILE = (value: (field: string) => string) => ({
	firstName: value('firstName'),
	lastName: value('lastName'),
	phone: value('phone'),
	birthDate: value('birthDate'),
});

const splitOut = {
	name: 'Items',
	type: 'n8n-nodes-base.splitOut',
	typeVersion: 1,
	parameters: { fieldToSplitOut: 'body.items', include: 'noOtherFields', options: {} },
};

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n([], {}, async (sandbox, bench) => {
		const token = await sandbox.token();
		const workTitles = async () => {
			const res = await fetch(`${sandbox.info.coreUrl}/api/v5/integration/employees`, {
				headers: { authorization: `Bearer ${token}` },
			});
			const list = (await res.json()) as { employeeNumber: string; workTitle?: string }[];
			return new Map(list.map((e) => [e.employeeNumber, e.workTitle]));
		};

		const ours = await webhookWorkflow(bench, 'Bench: Employee → Create or Update', [
			splitOut,
			{
				name: 'Field Ops',
				type: 'n8n-nodes-fieldops.fieldOps',
				typeVersion: 1.2,
				parameters: {
					resource: 'employee',
					operation: 'upsert',
					employeeNumber: '={{ $json.number }}',
					...PROFILE((field) => `={{ $json.${field} }}`),
					employment: { details: { startDate: '={{ $json.startDate }}' } },
					additionalFields: { email: '={{ $json.email }}', workTitle: '={{ $json.workTitle }}' },
				},
			},
			{
				name: 'Count',
				type: 'n8n-nodes-base.summarize',
				typeVersion: 1.1,
				parameters: {
					fieldsToSplitBy: 'result',
					fieldsToSummarize: { values: [{ aggregation: 'count', field: 'result' }] },
					options: { outputFormat: 'singleItem' },
				},
			},
		]);

		// What a user builds today: Get by number, IF found, Update (every field: nothing tells what changed) or Create.
		const getUpdateCreate = await webhookWorkflow(
			bench,
			'Bench: Employee → Get + IF + Create/Update',
			[
				splitOut,
				{
					name: 'Get',
					type: 'n8n-nodes-fieldops.fieldOps',
					typeVersion: 1.2,
					onError: 'continueRegularOutput',
					parameters: {
						resource: 'employee',
						operation: 'get',
						employee: { __rl: true, mode: 'employeeNumber', value: '={{ $json.number }}' },
						options: { includeEmployeesFromSubsidiaries: true },
					},
				},
				{
					name: 'Found?',
					type: 'n8n-nodes-base.if',
					typeVersion: 2.2,
					parameters: {
						conditions: {
							options: { caseSensitive: true, leftValue: '', typeValidation: 'loose', version: 2 },
							conditions: [
								{
									id: 'found',
									leftValue: '={{ $json.error }}',
									rightValue: '',
									operator: { type: 'string', operation: 'notExists', singleValue: true },
								},
							],
							combinator: 'and',
						},
						options: {},
					},
				},
				{
					name: 'Update',
					type: 'n8n-nodes-fieldops.fieldOps',
					typeVersion: 1.2,
					parameters: {
						resource: 'employee',
						operation: 'update',
						employee: { __rl: true, mode: 'employeeNumber', value: fromItem('number') },
						updateFields: {
							...PROFILE(fromItem),
							email: fromItem('email'),
							workTitle: fromItem('workTitle'),
						},
					},
				},
				{
					name: 'Create',
					type: 'n8n-nodes-fieldops.fieldOps',
					typeVersion: 1.2,
					parameters: {
						resource: 'employee',
						operation: 'create',
						employeeNumber: fromItem('number'),
						...PROFILE(fromItem),
						employment: { details: { startDate: fromItem('startDate') } },
						additionalFields: { email: fromItem('email'), workTitle: fromItem('workTitle') },
					},
				},
			],
			{
				connections: {
					Webhook: { main: [[{ node: 'Items', type: 'main', index: 0 }]] },
					Items: { main: [[{ node: 'Get', type: 'main', index: 0 }]] },
					Get: { main: [[{ node: 'Found?', type: 'main', index: 0 }]] },
					'Found?': {
						main: [
							[{ node: 'Update', type: 'main', index: 0 }],
							[{ node: 'Create', type: 'main', index: 0 }],
						],
					},
				},
				responseData: 'noData',
			},
		);

		const requests = async () =>
			Object.entries((await sandbox.stats()).requests)
				.filter(([route]) => route !== 'POST /connect/token')
				.reduce((sum, [, n]) => sum + n, 0);
		const measure = async (workflow: typeof ours, run: number) => {
			const items = rows(run);
			await sandbox.resetStats();
			const result = await workflow.run({ items });
			const sent = await requests();
			const held = await workTitles();
			const expected = items.filter((row) => held.get(row.number) !== row.workTitle);
			if (expected.length > 0)
				throw new Error(
					`run ${run}: ${expected.length} employees do not hold the row's values, e.g. ${expected[0].number}`,
				);
			return { ms: result.ms, requests: sent, response: result.response };
		};

		// The first night creates the 1,000 employees (with our operation: one read, 1,000 creates).
		const created = await measure(ours, -1);
		const oursRuns: { ms: number; requests: number }[] = [];
		const theirsRuns: { ms: number; requests: number }[] = [];
		for (let i = 0; i < runs; i++) {
			const mine = await measure(ours, 2 * i);
			const counts = mine.response as {
				created?: { count_result?: number };
				updated?: { count_result?: number };
			};
			if (counts.updated?.count_result !== CHANGED)
				throw new Error(`Create or Update reported ${JSON.stringify(mine.response)}, not ${CHANGED} updated`);
			oursRuns.push(mine);
			theirsRuns.push(await measure(getUpdateCreate, 2 * i + 1));
		}
		const figures: Figure[] = [
			figure('1,000 new employees: requests, Create or Update', 'requests', [created.requests], {
				atMost: EMPLOYEES + 1,
			}),
			figure(
				'1,000 employees, 10 changed: requests, Create or Update',
				'requests',
				oursRuns.map((r) => r.requests),
				{
					atMost: 1 + CHANGED,
				},
			),
			figure(
				'1,000 employees, 10 changed: requests, Get + IF + Create/Update',
				'requests',
				theirsRuns.map((r) => r.requests),
			),
			figure(
				'1,000 employees, 10 changed: Create or Update (execution)',
				'ms',
				oursRuns.map((r) => r.ms),
			),
			figure(
				'1,000 employees, 10 changed: Get + IF + Create/Update (execution)',
				'ms',
				theirsRuns.map((r) => r.ms),
			),
			figure(
				'1,000 employees, 10 changed: Get + IF + Create/Update / Create or Update',
				'ratio',
				theirsRuns.map((r, i) => r.ms / oursRuns[i].ms),
			),
		];
		return {
			id: 'upsert',
			title: 'Create or Update: a nightly sync of 1,000 employees, 10 changed',
			figures,
			facts: { employees: EMPLOYEES, changed: CHANGED, firstNightMs: created.ms },
			notes: [
				'Get + IF + Create/Update writes every found employee (nothing tells it what changed); Create or Update reads the list once and writes the 10.',
			],
		};
	});
}
