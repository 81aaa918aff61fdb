/**
 * The CSV weekly-hours example, run as users import it (in-process: the e-mail node after Field Ops is an
 * n8n-nodes-base node the harness does not load, so it is left out here and runs in test/e2e/n8n.test.ts). The
 * spreadsheet example runs whole in report-weeks.test.ts.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { REPORT_FEEDS } from '../../nodes/FieldOps/reporting/feeds';
import type { WorkflowJson } from '../harness';
import { N8nHarness } from '../harness';
import { csvRecords } from '../helpers/csv';
import { useSandbox } from '../helpers/sandbox';
import { useSandboxCredential } from '../helpers/workflows';

/* eslint-disable @typescript-eslint/no-require-imports */
const csvFile = require('../../examples/weekly-hours-to-csv-file.json') as WorkflowJson;
/* eslint-enable @typescript-eslint/no-require-imports */

const LABELS = REPORT_FEEDS.find((feed) => feed.value === 'timeRegistrations')!.columns.map((c) => c.label);
const fieldOpsNode = (workflow: WorkflowJson) =>
	workflow.nodes.find((node) => node.type === 'n8n-nodes-fieldops.fieldOps');

/** The schedule and the Field Ops node only, with the Field Ops node's parameters changed by `change`. */
function upToFieldOps(
	workflow: WorkflowJson,
	change: (parameters: IDataObject) => IDataObject = (p) => p,
): WorkflowJson {
	const fieldOps = fieldOpsNode(workflow);
	if (!fieldOps) throw new Error(`${workflow.name} has no Field Ops node`);
	const nodes = workflow.nodes
		.filter((node) => node.type === 'n8n-nodes-base.scheduleTrigger' || node === fieldOps)
		.map((node) =>
			node === fieldOps
				? {
						...node,
						parameters: change(structuredClone(node.parameters) as IDataObject) as typeof node.parameters,
					}
				: node,
		);
	const trigger = nodes.find((node) => node.type === 'n8n-nodes-base.scheduleTrigger');
	return {
		...workflow,
		nodes,
		connections: { [trigger?.name ?? '']: { main: [[{ node: fieldOps.name, type: 'main', index: 0 }]] } },
	};
}

describe('examples: weekly hours', () => {
	const sb = useSandbox({ scale: 3000 });
	let harness: N8nHarness;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('"Weekly hours to CSV file": one CSV file (BOM, Simplify’s columns) holding the same rows as the items would', async () => {
		const node = fieldOpsNode(csvFile);
		// Node version 1.3: Return All and Simplify by default, the file named by the node (no expression to read).
		expect(node).toMatchObject({
			typeVersion: 1.3,
			parameters: { period: 'lastWeek', output: 'file', fileFormat: 'csv', fileOptions: { addBom: true } },
		});
		expect(JSON.stringify(node?.parameters)).not.toMatch(/\{\{|returnAll|simplify|fileName/);
		const result = await harness.run(upToFieldOps(csvFile));
		expect(result.error).toBeUndefined();
		const [file] = result.items[node?.name ?? ''];
		const binary = file.binary?.data as IBinaryData;
		expect(binary).toMatchObject({
			id: expect.stringMatching(/^filesystem/),
			mimeType: 'text/csv',
			fileName: expect.stringMatching(/^time-registrations-\d{4}-W\d{2}\.csv$/),
		});

		const text = (await harness.binaryBuffer(binary)).toString('utf8');
		expect(text.startsWith('\uFEFF')).toBe(true);
		const { header, records } = csvRecords(text.slice(1));
		expect(header.slice(0, LABELS.length)).toEqual(LABELS);
		expect(file.json).toMatchObject({
			fileName: binary.fileName,
			records: records.length,
			columns: header,
			window: expect.stringMatching(/^Last Week: Monday .* – Sunday .* \(America\/New_York\)$/),
		});

		// The same node with Output: Items, for the same week: the file has exactly those rows.
		const asItems = await harness.run(
			upToFieldOps(csvFile, (parameters) => ({ ...parameters, output: 'items' })),
		);
		const items = asItems.items[node?.name ?? ''].map((item) => item.json);
		expect(items.length).toBeGreaterThan(0);
		const cell = (value: unknown) =>
			value === null ? '' : typeof value === 'boolean' ? (value ? 'TRUE' : 'FALSE') : String(value);
		expect(records).toEqual(
			items.map((item) => Object.fromEntries(header.map((label) => [label, cell(item[label])]))),
		);

		// Every `$json.field` the e-mail node reads is on the item.
		const email = csvFile.nodes.find((candidate) => candidate.type === 'n8n-nodes-base.emailSend');
		const fields = new Set(
			[...JSON.stringify(email?.parameters).matchAll(/\$json\.(\w+)/g)].map((match) => match[1]),
		);
		expect([...fields].sort()).toEqual(['columns', 'fileName', 'note', 'records', 'timeZone', 'window']);
		for (const field of [...fields].filter((name) => name !== 'note')) expect(file.json[field]).toBeDefined();
		expect(email?.parameters).toMatchObject({ options: { attachments: 'data' } });
	});
});
