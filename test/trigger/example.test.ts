import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';

import type { IDataObject } from 'n8n-workflow';

import type { WorkflowJson } from '../harness';
import { N8nHarness } from '../harness';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { useSandboxCredential } from '../helpers/workflows';
import { fakeNowClock, later } from './clocks';

const EXAMPLE = join(__dirname, '../../examples/new-incident-notify.json');

/**
 * A service whose incident records show neither `createdDateTime` nor `modifiedDateTime` (the spec does not
 * show their shape): the sandbox behind a proxy on 127.0.0.1 that strips both, Date header kept.
 */
async function withoutTimes(target: string): Promise<{ url: string; close(): Promise<void> }> {
	const server = createServer((req, res) => {
		void (async () => {
			const upstream = await fetch(new URL(req.url ?? '/', target), {
				method: req.method,
				headers: { authorization: req.headers.authorization ?? '' },
			});
			let body = Buffer.from(await upstream.arrayBuffer());
			const type = upstream.headers.get('content-type') ?? 'application/octet-stream';
			if (type.includes('json') && req.url?.startsWith('/v1/incident-registrations')) {
				const page = JSON.parse(body.toString('utf8')) as { data?: IDataObject[] };
				for (const record of page.data ?? []) {
					delete record.createdDateTime;
					delete record.modifiedDateTime;
				}
				body = Buffer.from(JSON.stringify(page));
			}
			res.writeHead(upstream.status, { 'content-type': type, date: upstream.headers.get('date') ?? '' });
			res.end(body);
		})().catch(() => res.destroy());
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
		close: () => new Promise((resolve) => server.close(() => resolve())),
	};
}

describe('example: New incident → notify', () => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const workflow = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as WorkflowJson;
	const trigger = workflow.nodes.find((node) => node.type === 'n8n-nodes-fieldops.fieldOpsTrigger');
	const message = workflow.nodes.find((node) => node.type === 'n8n-nodes-base.emailSend');

	let proxy: Awaited<ReturnType<typeof withoutTimes>>;

	beforeAll(async () => {
		fakeNowClock();
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
		proxy = await withoutTimes(sb().reportingUrl);
	});
	afterAll(async () => {
		jest.useRealTimers();
		await proxy.close();
	});

	it('is a trigger on new incident registrations every minute, connected to the message node', () => {
		// Trigger 1.1 with Simplify (its default): the message reads the readable columns.
		expect(trigger?.typeVersion).toBe(1.1);
		expect(trigger?.parameters).toMatchObject({
			feed: 'incidentRegistrations',
			events: ['new'],
			pollTimes: { item: [{ mode: 'everyMinute' }] },
		});
		expect(trigger?.parameters).not.toHaveProperty('simplify');
		expect(trigger?.credentials).toEqual({
			fieldOpsOAuth2Api: { id: 'fieldops-sandbox', name: 'Field Ops account' },
		});
		expect(workflow.connections[trigger?.name ?? '']).toEqual({
			main: [[{ node: message?.name, type: 'main', index: 0 }]],
		});
	});

	// Issue #15: the spec shows createdDateTime only on images and machine registrations; new must fire anyway.
	it.each([
		['as the sandbox serves them', false],
		['without createdDateTime and modifiedDateTime', true],
	])('emits a new incident once, with every field the message uses (records %s)', async (_how, stripped) => {
		useSandboxCredential(harness, stripped ? { ...sb(), reportingUrl: proxy.url } : sb());
		// Other tests' incidents out of the re-read window: this activation starts with nothing to emit.
		await later(sb().coreUrl, 120);
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

		// Every `$json.field` and `$json['Field']` the message node reads is filled in on the emitted item.
		const incident = next.items[0].json as IDataObject;
		const fields = [...JSON.stringify(message?.parameters).matchAll(/\$json(?:\.(\w+)|\['([^']+)'\])/g)].map(
			(match) => match[1] ?? match[2],
		);
		expect(fields).toEqual(
			expect.arrayContaining(['Title', 'Severity', 'Project Number', 'Reported By', 'id']),
		);
		// [C4] createdDateTime only where the service sends it (the message falls back to now): read what it serves.
		const since = new Date(Date.now() - 86_400_000).toISOString();
		const servedNow = (await readFeed(sb(), '/v1/incident-registrations', { ModifiedSince: since })).find(
			(record) => record.id === id,
		);
		const timed = !stripped && servedNow?.createdDateTime !== undefined;
		expect(servedNow).toBeDefined();
		for (const field of new Set(fields)) {
			if (!timed && field === 'Created') continue;
			expect([field, incident[field] ?? null]).not.toEqual([field, null]);
		}
		// Created in the workflow's time zone where the service sends it; empty (the message says so) where not.
		if (timed) expect(incident.Created).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d$/);
		else expect(incident.Created).toBeNull();

		// An edit is not new again.
		await call(sb().coreUrl, '/__sandbox/activity', {
			method: 'POST',
			json: { kind: 'incident-registrations', action: 'update', ids: [id] },
		});
		const edited = await harness.poll(polled, name, { staticData: next.staticData });
		expect(edited.items).toEqual([]);
	});
});
