/**
 * The nightly HR example (examples/nightly-employees-from-hr-csv.json), run as users import it, in-process: reading the
 * file, Extract from File and the Summarize nodes are n8n-nodes-base nodes the harness does not load, so the rows come
 * in as Extract from File gives them (every cell text) and the whole workflow runs in test/e2e/upsert.test.ts.
 */
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { HR_COLUMNS, hrRowOf, newHrRow, type HrRow } from '../helpers/hr-csv';
import { useSandbox } from '../helpers/sandbox';
import { results, upsertRunner } from '../helpers/upsert';

/* eslint-disable @typescript-eslint/no-require-imports */
const example = require('../../examples/nightly-employees-from-hr-csv.json') as WorkflowJson;
/* eslint-enable @typescript-eslint/no-require-imports */

const fieldOps = example.nodes.find((node) => node.type === 'n8n-nodes-fieldops.fieldOps')!;
const EMPLOYEES = '/api/v5/integration/employees';

/** The schedule and the Field Ops node only, as in the example. */
const upToFieldOps = (): WorkflowJson => {
	const trigger = example.nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger')!;
	return {
		...example,
		nodes: [trigger, fieldOps],
		connections: { [trigger.name]: { main: [[{ node: fieldOps.name, type: 'main', index: 0 }]] } },
	};
};

describe('examples: nightly employees from the HR system’s CSV file', () => {
	const sb = useSandbox();
	const node = upsertRunner(sb, 'employee');
	const own = () => sb().clients[0].companyId;
	const people = () => [...sb().sandbox.world.people.values()];
	const person = (number: string) => people().find((p) => p.employeeNumber === number);

	/** Both outputs of the Field Ops node: written (created, updated, unchanged) and failed. */
	const outputs = (run: Awaited<ReturnType<typeof node.runWorkflow>>) => {
		const main = run.run.data.resultData.runData[fieldOps.name][0].data?.main ?? [];
		return { written: main[0] ?? [], failed: main[1] ?? [] };
	};
	const items = (rows: HrRow[]): INodeExecutionData[] => rows.map((row) => ({ json: { ...row } }));

	it('reads exactly the columns its note tells the HR system to export', () => {
		const note = example.nodes.find((n) => n.name === 'Note')!;
		expect(String(note.parameters.content)).toContain(HR_COLUMNS.join(', '));
		const read = [...JSON.stringify(fieldOps.parameters).matchAll(/\$json\['([^']+)'\]/g)].map((m) => m[1]);
		expect([...new Set(read)].sort()).toEqual([...HR_COLUMNS].sort());
		expect(fieldOps).toMatchObject({
			typeVersion: 1.2,
			onError: 'continueErrorOutput',
			parameters: { resource: 'employee', operation: 'upsert', onlyChanges: true },
		});
	});

	it('creates the new, updates the changed, leaves the rest and lists the refused rows; the next night writes nothing', async () => {
		const staff = people()
			.filter((p) => p.companyId === own())
			.slice(0, 20);
		const rows: HrRow[] = [
			...staff.map((p, i) =>
				i === 4 ? { ...hrRowOf(p), 'Job Title': 'Formann', Email: 'ny@example.com' } : hrRowOf(p),
			),
			newHrRow('HR-1'),
			newHrRow('HR-2'),
			newHrRow('', { 'First Name': 'Uten nummer' }),
			newHrRow('HR-3', { 'Birth Date': '01.04.1990' }),
			newHrRow('HR-1', { 'First Name': 'Dobbel' }),
		];
		const first = await node.runWorkflow(upToFieldOps(), items(rows));
		expect(first.error).toBeUndefined();
		const { written, failed } = outputs(first);
		const count = (result: string) => written.filter((item) => item.json.result === result).length;
		expect({ created: count('created'), updated: count('updated'), unchanged: count('unchanged') }).toEqual({
			created: 2,
			updated: 1,
			unchanged: 19,
		});
		// Each refused row on the error output, saying why and which employee.
		expect(failed.map((item) => String(item.json.error))).toEqual([
			expect.stringMatching(/^Employee Number to Match On is empty/),
			expect.stringMatching(/^Employee HR-3: Birth Date "01\.04\.1990" is written day first: .*1990-04-01/),
			expect.stringMatching(/^Employee HR-1: the same employee is in item 21 too/),
		]);
		expect(failed.map((item) => (item.json.details as IDataObject).employeeNumber)).toEqual([
			undefined,
			'HR-3',
			'HR-1',
		]);
		expect(person('HR-1')).toMatchObject({ firstName: 'Åse', email: 'hr-1@example.com' });
		expect(person(staff[4].employeeNumber)).toMatchObject({ workTitle: 'Formann', email: 'ny@example.com' });
		expect(await node.requests()).toEqual({
			[`GET ${EMPLOYEES}`]: 1,
			[`POST ${EMPLOYEES}`]: 2,
			[`PATCH ${EMPLOYEES}/{employeeNumber}`]: 1,
		});

		// The next night, the same file: one read, nothing written.
		await node.clear();
		const again = await node.runWorkflow(upToFieldOps(), items(rows.filter((_, i) => i < rows.length - 3)));
		expect(results(again, fieldOps.name)).toEqual(Array(rows.length - 3).fill('unchanged'));
		expect(await node.requests()).toEqual({ [`GET ${EMPLOYEES}`]: 1 });
	});
});
