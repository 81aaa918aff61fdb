import type { IDataObject } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { readFeed } from '../helpers/reporting';
import { call, useSandbox } from '../helpers/sandbox';
import { TRIGGER, triggerWorkflow, useSandboxCredential } from '../helpers/workflows';

describe('Field Ops Trigger', () => {
	const sb = useSandbox({ scale: 50 });
	let harness: N8nHarness;
	const activity = async (kind: string, action: string, count = 1, ids?: string[]) =>
		(await call(sb().coreUrl, '/__sandbox/activity', { method: 'POST', json: { kind, action, count, ids } }))
			.body.ids as string[];
	const tick = async (seconds = 2) =>
		call(sb().coreUrl, '/__sandbox/clock', { method: 'POST', json: { advanceSeconds: seconds } });

	// [R1] Time registrations' id field is not shown in the spec: `id`, or (alt) `timeRegistrationId`.
	const idOf = (json: Record<string, unknown>) => json.id ?? json.timeRegistrationId;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	it.each([
		['machine registrations (cursor from modifiedDateTime)', 'machineRegistrations', 'machine-registrations'],
		['incident registrations (poll-clock fallback)', 'incidentRegistrations', 'incident-registrations'],
		['time registrations (id field not shown in the spec)', 'timeRegistrations', 'time-registrations'],
	])('emits new, changed and deleted %s exactly once', async (_what, feed, kind) => {
		const workflow = triggerWorkflow({ feed });
		let staticData: IDataObject = {};
		const poll = async () => {
			const result = await harness.poll(workflow, TRIGGER, { staticData });
			staticData = result.staticData;
			return result.items.map((item) => [item.json._event, idOf(item.json)]);
		};

		expect(await poll()).toEqual([]);
		await tick();
		const created = await activity(kind, 'create', 3);
		const sorted = (pairs: unknown[][]) =>
			[...pairs].sort((a, b) => String(a[1]).localeCompare(String(b[1])));
		expect(sorted(await poll())).toEqual(sorted(created.map((id) => ['new', id])));
		expect(await poll()).toEqual([]);

		await tick();
		// One the test created: a random one may belong to a company the client cannot see.
		const [changed] = await activity(kind, 'update', 1, [created[1]]);
		const afterUpdate = await poll();
		expect(afterUpdate).toContainEqual(['changed', changed]);
		expect(afterUpdate).toHaveLength(1);

		// [R10] A deletion fires where Field Ops reports a tombstone (the spec names two feeds; others may too).
		await tick();
		// A millisecond before now: the deletion may be stamped in the same millisecond as this read of the clock, and
		// the alt variant's ModifiedSince excludes its own instant.
		const now = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now as string);
		const since = new Date(now - 1).toISOString();
		const [deleted] = await activity(kind, 'delete', 1, [created[2]]);
		const tombstones = (await readFeed(sb(), `/v1/${kind}`, { ModifiedSince: since })).filter(
			(record) => record.isDeleted === true,
		);
		if (feed === 'machineRegistrations') expect(tombstones).toHaveLength(1);
		expect(await poll()).toEqual(tombstones.map((record) => ['deleted', idOf(record)]));
		expect(tombstones.map(idOf)).toEqual(tombstones.length ? [deleted] : []);
		expect(await poll()).toEqual([]);
	});

	it('leaves its state untouched when a poll fails', async () => {
		const workflow = triggerWorkflow({ feed: 'machineRegistrations' });
		let { staticData } = await harness.poll(workflow, TRIGGER, { staticData: {} });
		await tick();
		const created = await activity('machine-registrations', 'create', 2);
		const before = JSON.stringify(staticData);
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: '/v1/machine-registrations', status: 403, times: 1 },
		});

		await expect(harness.poll(workflow, TRIGGER, { staticData })).rejects.toThrow();
		expect(JSON.stringify(staticData)).toBe(before);

		const retried = await harness.poll(workflow, TRIGGER, { staticData });
		staticData = retried.staticData;
		expect(retried.items.map((item) => item.json.id).sort()).toEqual([...created].sort());
	});

	it('"Fetch Test Event" returns the newest records and never touches the state', async () => {
		const workflow = triggerWorkflow({ feed: 'machineRegistrations' });
		const staticData: IDataObject = {};
		await tick();
		await activity('machine-registrations', 'create', 4);
		const result = await harness.poll(workflow, TRIGGER, { mode: 'manual', staticData });
		expect(result.items.length).toBeGreaterThan(0);
		expect(result.items.length).toBeLessThanOrEqual(3);
		expect(JSON.stringify(result.staticData)).toBe('{}');
	});

	it('starting from "everything" spreads the backlog over executions, oldest first, each record once', async () => {
		const workflow = triggerWorkflow({
			feed: 'machineRegistrations',
			startFrom: 'everything',
			options: { maxPerPoll: 40 },
		});
		const truth = (await call(sb().coreUrl, '/__sandbox/records/machine-registrations')).body;
		const live = (Array.isArray(truth) ? truth : truth.records) as IDataObject[];
		let staticData: IDataObject = {};
		const seen: string[] = [];
		for (let polls = 0; polls < 50; polls++) {
			const result = await harness.poll(workflow, TRIGGER, { staticData });
			staticData = result.staticData;
			if (result.items.length === 0) break;
			expect(result.items.length).toBeLessThanOrEqual(40);
			seen.push(...result.items.map((item) => String(item.json.id)));
		}
		expect(new Set(seen).size).toBe(seen.length);
		const own = new Set([
			sb().clients[0].companyId,
			...sb().sandbox.world.companyTree(sb().clients[0].companyId),
		]);
		const visible = live
			.filter((record) => record.isDeleted !== true && own.has(String(record.companyId)))
			.map((record) => String(record.id));
		expect(seen).toEqual(expect.arrayContaining(visible));
	});
});

describe('Field Ops Trigger labels after failed and capped polls', () => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const control = async (path: string, json: unknown) =>
		(await call(sb().coreUrl, `/__sandbox/${path}`, { method: 'POST', json })).body;

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	// Issue #26: incidents created while a poll failed or was capped, and edited before the trigger reached them,
	// arrived as "changed": a workflow on "New" never saw them.
	it('emits a record seen for the first time as new, whatever failed or was capped before', async () => {
		const workflow = triggerWorkflow({ feed: 'incidentRegistrations', options: { maxPerPoll: 5 } });
		let staticData: IDataObject = {};
		const emitted: Array<[string, string]> = [];
		const poll = async () => {
			const result = await harness.poll(workflow, TRIGGER, { staticData });
			staticData = result.staticData;
			for (const item of result.items) emitted.push([String(item.json.id), String(item.json._event)]);
			return result.items.length;
		};
		await poll();
		const created: string[] = [];
		for (let i = 0; i < 4; i++) {
			await control('clock', { advanceSeconds: 1 });
			created.push(
				...((await control('activity', { kind: 'incident-registrations', action: 'create', count: 4 }))
					.ids as string[]),
			);
		}
		// A poll that fails (refused, as a server error beyond the retries would), then one capped at 5.
		await control('faults', { path: '/v1/incident-registrations', status: 403, times: 1 });
		await expect(harness.poll(workflow, TRIGGER, { staticData })).rejects.toThrow();
		await poll();
		expect(emitted.length).toBeGreaterThan(0);
		expect(emitted.length).toBeLessThan(created.length);
		// Incidents not emitted yet are edited before the trigger reaches them.
		const waiting = created.filter((id) => !emitted.some(([emittedId]) => emittedId === id));
		await control('clock', { advanceSeconds: 1 });
		await control('activity', { kind: 'incident-registrations', action: 'update', ids: waiting.slice(0, 3) });
		for (let i = 0, quiet = 0; quiet < 2 && i < 30; i++) quiet = (await poll()) === 0 ? quiet + 1 : 0;
		if (emitted.length !== created.length)
			console.log(JSON.stringify({ edited: waiting.slice(0, 3), emitted, state: staticData }).slice(0, 6000));
		expect(emitted.map(([id]) => id).sort()).toEqual([...created].sort());
		expect(emitted.filter(([, event]) => event !== 'new')).toEqual([]);
	});
});
