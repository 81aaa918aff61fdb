import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { useSandboxCredential } from '../helpers/workflows';

const EXAMPLE = join(__dirname, '../../examples/new-incident-notify.json');

describe('example: New incident → notify', () => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const workflow = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-fieldops.fieldOpsTrigger');
	const message = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.emailSend');

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it('is a trigger on new incident registrations every minute, connected to the message node', () => {
		expect(trigger?.parameters).toMatchObject({
			feed: 'incidentRegistrations',
			events: ['new'],
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		});
		expect(trigger?.credentials).toEqual({
			fieldOpsOAuth2Api: { id: 'fieldops-sandbox', name: 'Field Ops account' },
		});
		expect(workflow.connections[trigger?.name ?? '']).toEqual({
			main: [[{ node: message?.name, type: 'main', index: 0 }]],
		});
	});

	it('emits a new incident once, with every field the message uses', async () => {
		const name = trigger?.name ?? '';
		// The harness knows no Send Email node (n8n-nodes-base is not loaded in process); a poll only runs the trigger.
		const polled: WorkflowJson = {
			...workflow,
			nodes: workflow.nodes.filter((node) => node !== message),
			connections: {},
		};
		const first = await harness.poll(polled, name, { staticData: {} });
		expect(first.items).toEqual([]);

		const created = await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'incident-registrations', action: 'create' },
		});
		const [id] = created.body.ids as string[];
		const next = await harness.poll(polled, name, { staticData: first.staticData });
		expect(next.items.map((item) => [item.json._event, item.json.id])).toEqual([['new', id]]);
		expect((await harness.poll(polled, name, { staticData: next.staticData })).items).toEqual([]);

		// Every `$json.field` the message node reads is filled in on the emitted item.
		const incident = next.items[0].json as IDataObject;
		const fields = [...JSON.stringify(message?.parameters).matchAll(/\$json\.(\w+)/g)].map(
			(match) => match[1],
		);
		expect(fields.length).toBeGreaterThan(3);
		for (const field of new Set(fields)) {
			expect([field, incident[field] ?? null]).not.toEqual([field, null]);
		}
		expect(Number.isNaN(Date.parse(String(incident.createdDateTime)))).toBe(false);
	});
});
