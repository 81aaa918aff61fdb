import type { IDataObject } from 'n8n-workflow';

import { fingerprintOf } from '../../nodes/FieldOpsTrigger/hashing';
import { N8nHarness } from '../harness';
import { call, useSandbox } from '../helpers/sandbox';
import { TRIGGER, triggerWorkflow, useSandboxCredential } from '../helpers/workflows';
import { fakeNowClock } from './clocks';

/**
 * Poll-clock mode (incident registrations: no modification time in the records) with the service's clock
 * five minutes ahead of n8n's, or behind it. With a re-read window shorter than that the trigger cannot tell a
 * wrong clock from a right one: the poll stops with a message and nothing moves. With a window above the skew,
 * time passes on both sides between polls (n8n's `Date` is faked, the sandbox's clock moved), so `seen` forgets
 * what it may; the emitted stream must match the sandbox's ground truth exactly.
 */

const KIND = 'incident-registrations';
const workflow = triggerWorkflow({ feed: 'incidentRegistrations', options: { overlapSeconds: 360 } });

/** A record without what only the ground truth (tombstone fields, company) or the trigger (`_event`) adds. */
const content = ({ _event: _e, companyId: _c, isDeleted: _d, deletedDateTime: _t, ...record }: IDataObject) =>
	record;

describe.each([
	['ahead of', 300],
	['behind', -300],
])('Field Ops Trigger with the service clock five minutes %s n8n', (_where, skewSeconds) => {
	const sb = useSandbox({ scale: 20 });
	let harness: N8nHarness;
	const control = async (path: string, json?: unknown) => {
		const res = await call(sb().coreUrl, `/__sandbox${path}`, { method: 'POST', json });
		if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
		return res.body;
	};
	/** Seconds pass for both clocks alike. */
	const later = async (seconds: number) => {
		jest.setSystemTime(Date.now() + seconds * 1000);
		await control('/clock', { advanceSeconds: seconds });
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
		fakeNowClock();
		await control('/clock', { advanceSeconds: skewSeconds });
	});
	afterAll(() => jest.useRealTimers());

	it('stops, moving nothing, while the difference is beyond the Re-Read Window', async () => {
		const narrow = triggerWorkflow({ feed: 'incidentRegistrations', options: { overlapSeconds: 5 } });
		await expect(harness.poll(narrow, TRIGGER, { staticData: {} })).rejects.toThrow(
			`5 min ${skewSeconds > 0 ? 'ahead of' : 'behind'} n8n's clock`,
		);
		const staticData = (await harness.poll(workflow, TRIGGER, { staticData: {} })).staticData;
		const before = JSON.stringify(staticData);
		await later(70);
		await control('/activity', { kind: KIND, action: 'create', count: 3 });
		await expect(harness.poll(narrow, TRIGGER, { staticData })).rejects.toThrow("n8n's clock");
		expect(JSON.stringify(staticData)).toBe(before);
	});

	it('emits every version once and every final state; a record emitted as new is never new again', async () => {
		let staticData: IDataObject = {};
		const emitted: Array<{ event: string; record: IDataObject }> = [];
		const poll = async () => {
			const result = await harness.poll(workflow, TRIGGER, { staticData });
			staticData = result.staticData;
			for (const item of result.items) emitted.push({ event: String(item.json._event), record: item.json });
			return result.items.length;
		};
		const activity = (action: string, count: number) => control('/activity', { kind: KIND, action, count });

		await later(400); // the first test's incidents out of the re-read window
		expect(await poll()).toBe(0);
		const activatedAt = Date.parse((await call(sb().coreUrl, '/__sandbox/clock')).body.now) - 1000;
		// A burst larger than Max Records per Execution (1000), then edits and more records, minutes apart.
		await later(2);
		await activity('create', 2500);
		for (let round = 0; round < 6; round++) {
			await later(70);
			await poll();
			await activity('update', 40);
			await activity('create', 30);
			if (round % 2 === 0) await activity('delete', 5);
		}
		for (let quiet = 0, i = 0; quiet < 2 && i < 20; i++) {
			await later(70);
			quiet = (await poll()) === 0 ? quiet + 1 : 0;
		}

		const truth = (await call(sb().coreUrl, `/__sandbox/records/${KIND}`)).body.records as IDataObject[];
		const own = new Set([
			sb().clients[0].companyId,
			...sb().sandbox.world.companyTree(sb().clients[0].companyId),
		]);
		const touched = truth.filter(
			(record) =>
				own.has(String(record.companyId)) &&
				record.isDeleted !== true &&
				Date.parse(String(record.modifiedDateTime)) >= activatedAt,
		);
		expect(touched.length).toBeGreaterThan(2500);
		console.log(`skew ${skewSeconds} s: ${touched.length} records, ${emitted.length} versions emitted`);
		const versions = emitted.map(({ record }) => `${String(record.id)}|${fingerprintOf(content(record))}`);
		expect(versions.length - new Set(versions).size).toBe(0);
		const last = new Map(emitted.map((entry) => [String(entry.record.id), entry.record]));
		const gaps = touched.filter((record) => {
			const got = last.get(String(record.id));
			return !got || fingerprintOf(content(got)) !== fingerprintOf(content(record));
		});
		expect(gaps.map((record) => record.id)).toEqual([]);
		const news = emitted.filter(({ event }) => event === 'new').map(({ record }) => String(record.id));
		expect(news.length - new Set(news).size).toBe(0);
		expect(new Set(news).size).toBeGreaterThanOrEqual(2500);
	}, 120_000);
});
