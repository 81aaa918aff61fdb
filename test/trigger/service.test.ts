import type { IDataObject } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { TRIGGER, triggerWorkflow, useSandboxCredential } from '../helpers/workflows';
import { serviceProxy, type ServiceProxy } from './proxy';

/**
 * The trigger against services that differ from the sandbox where the spec leaves room (through n8n's engine,
 * the sandbox behind a proxy): ModifiedBefore refused or ignored where the spec does not list it, a proxy
 * whose Date is years off, and "Fetch Test Event" reading one small page per look-back.
 */

const INCIDENTS = /^\/v1\/incident-registrations$/;

describe('Field Ops Trigger against other services', () => {
	const sb = useSandbox({ scale: 60 });
	let harness: N8nHarness;
	let proxy: ServiceProxy | undefined;

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});
	afterEach(async () => {
		await proxy?.close();
		proxy = undefined;
	});

	const through = async (behaviour: Parameters<typeof serviceProxy>[1]) => {
		proxy = await serviceProxy(sb().reportingUrl, behaviour);
		useSandboxCredential(harness, { ...sb(), reportingUrl: proxy.url });
		return proxy;
	};
	const visibleIncidents = async () => {
		const truth = (await call(sb().coreUrl, '/__sandbox/records/incident-registrations')).body
			.records as IDataObject[];
		const own = new Set([
			sb().clients[0].companyId,
			...sb().sandbox.world.companyTree(sb().clients[0].companyId),
		]);
		return truth.filter((record) => record.isDeleted !== true && own.has(String(record.companyId)));
	};

	// #24: the spec lists no ModifiedBefore for checklists and incidents ("Standard filters incl. ProjectId,
	// ModifiedSince, ContinuationToken"), and docs/assumptions.md R3 says what the trigger does there.
	describe.each([
		['refuses', { refuse: { parameter: 'ModifiedBefore', paths: INCIDENTS } }],
		['ignores', { ignore: { parameter: 'ModifiedBefore', paths: INCIDENTS } }],
		['honours', {}],
	] as const)('a service that %s ModifiedBefore on incident registrations', (how, behaviour) => {
		it('works a backlog from "Everything" off in a few polls, each incident once and new', async () => {
			const service = await through(behaviour);
			const workflow = triggerWorkflow({
				feed: 'incidentRegistrations',
				startFrom: 'everything',
				options: { maxPerPoll: 10 },
			});
			let staticData: IDataObject = {};
			const emitted: Array<[string, string]> = [];
			let polls = 0;
			for (let quiet = 0; quiet < 2 && polls < 30; polls++) {
				const result = await harness.poll(workflow, TRIGGER, { staticData });
				staticData = result.staticData;
				for (const item of result.items) emitted.push([String(item.json._event), String(item.json.id)]);
				quiet = result.items.length === 0 ? quiet + 1 : 0;
			}
			const expected = (await visibleIncidents()).map((record) => String(record.id));
			expect(expected.length).toBeGreaterThan(20);
			expect(emitted.map(([, id]) => id).sort()).toEqual([...expected].sort());
			expect(emitted.every(([event]) => event === 'new')).toBe(true);
			// Asked once whether the service honours it (a window before any record); then used only if it does.
			const windows = service.requests.filter(
				(request) => INCIDENTS.test(request.path) && request.query.has('ModifiedBefore'),
			);
			expect(windows[0]?.query.get('ModifiedBefore')).toBe('1970-01-01T00:00:00.001Z');
			if (how === 'honours') expect(windows.length).toBeGreaterThan(1);
			else expect(windows).toHaveLength(1);
			// Where it cannot split the backlog by time, it reads it whole, once (and what changed since).
			expect(polls).toBeLessThan(how === 'honours' ? 20 : 5);
		});
	});

	// The trigger takes the service's time from the Date header; a Date years off (a proxy with a wrong clock)
	// never moves the cursor.
	describe.each([
		['2031', 'Wed, 01 Jan 2031 00:00:00 GMT'],
		['2020', 'Wed, 01 Jan 2020 00:00:00 GMT'],
	])('a proxy that dates its answers %s', (_year, date) => {
		const workflow = (feed: string) => triggerWorkflow({ feed });

		it('stops a poll-clock feed with a message and leaves its state as it was', async () => {
			let wrong = false;
			await through({ date: () => (wrong ? date : undefined) });
			const first = await harness.poll(workflow('incidentRegistrations'), TRIGGER, { staticData: {} });
			const before = JSON.stringify(first.staticData);
			await call(sb().coreUrl, '/__sandbox/activity', {
				method: 'POST',
				json: { kind: 'incident-registrations', action: 'create', count: 2 },
			});
			wrong = true;
			await expect(
				harness.poll(workflow('incidentRegistrations'), TRIGGER, { staticData: first.staticData }),
			).rejects.toThrow(/min (ahead of|behind) n8n's clock/);
			expect(JSON.stringify(first.staticData)).toBe(before);
			// The clock right again: the incidents arrive, once.
			wrong = false;
			const next = await harness.poll(workflow('incidentRegistrations'), TRIGGER, {
				staticData: first.staticData,
			});
			expect(next.items).toHaveLength(2);
		});

		it('keeps a record-time feed going by its records, the cursor never at the wrong Date', async () => {
			let wrong = false;
			await through({ date: () => (wrong ? date : undefined) });
			const first = await harness.poll(workflow('machineRegistrations'), TRIGGER, { staticData: {} });
			const created = (
				await call(sb().coreUrl, '/__sandbox/activity', {
					method: 'POST',
					json: { kind: 'machine-registrations', action: 'create', count: 2 },
				})
			).body.ids as string[];
			wrong = true;
			const poll = harness.poll(workflow('machineRegistrations'), TRIGGER, { staticData: first.staticData });
			if (date.includes('2020')) {
				// Far behind: as likely the service's own clock as a proxy's, so it stops (nothing moves).
				const before = JSON.stringify(first.staticData);
				await expect(poll).rejects.toThrow(/behind n8n's clock/);
				expect(JSON.stringify(first.staticData)).toBe(before);
				return;
			}
			const next = await poll;
			expect(next.items.map((item) => item.json.id).sort()).toEqual([...created].sort());
			const cursor = (next.staticData['node:Field Ops Trigger'] as IDataObject).cursor as IDataObject;
			expect(Number(cursor.cursor)).toBeLessThan(Date.now() + 60_000);
			expect(Number(cursor.horizon)).toBeLessThan(Date.now() + 60_000);
		});
	});

	it('"Fetch Test Event" reads one small page per look-back, and never the state', async () => {
		const service = await through({});
		const manual = { mode: 'manual' as const, staticData: {} };
		const found = await harness.poll(triggerWorkflow({ feed: 'machineRegistrations' }), TRIGGER, manual);
		expect(found.items.length).toBeGreaterThan(0);
		expect(service.requests).toHaveLength(1);
		expect(Number(service.requests[0].query.get('ChunkLimit'))).toBeLessThanOrEqual(100);
		// No deletion in a year (incidents report none): one page for each of the four look-backs, then the message.
		service.requests.length = 0;
		const nothing = triggerWorkflow({ feed: 'incidentRegistrations', events: ['deleted'] });
		await expect(harness.poll(nothing, TRIGGER, manual)).rejects.toThrow('No deleted incident registrations');
		expect(service.requests).toHaveLength(4);
		for (const request of service.requests)
			expect(Number(request.query.get('ChunkLimit'))).toBeLessThanOrEqual(100);
		expect(JSON.stringify(manual.staticData)).toBe('{}');
	});
});
