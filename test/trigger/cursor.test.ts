import { applyRead, beginPoll } from '../../nodes/FieldOpsTrigger/apply';
import { fingerprintOf, parseTimestamp, tokenOf } from '../../nodes/FieldOpsTrigger/hashing';
import { identityCapacity } from '../../nodes/FieldOpsTrigger/memory';
import { planRead, queryOf } from '../../nodes/FieldOpsTrigger/plan';
import {
	DEFAULT_OVERLAP_MS,
	IDENTITY_MEMORY,
	startState,
	type CursorOptions,
	type CursorState,
	type Feed,
	type Poll,
	type TriggerEvent,
} from '../../nodes/FieldOpsTrigger/state';
import { readState } from '../../nodes/FieldOpsTrigger/stored';
import { newestForTest } from '../../nodes/FieldOpsTrigger/versions';
import {
	bareFeed,
	deepFreeze,
	iso,
	recordFeed,
	runPoll,
	SimulatedFeed,
	unorderedFeed,
	untimedFeed,
	type Rec,
} from './simulated-feed';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);
const s = (seconds: number) => T0 + seconds * 1000;
const ALL: TriggerEvent[] = ['new', 'changed', 'deleted'];
const options = (overrides: Partial<CursorOptions> = {}): CursorOptions => ({
	events: ALL,
	maxPerPoll: 100,
	overlapMs: 0,
	...overrides,
});

function rec(id: string, modifiedSec: number, extra: Partial<Rec> = {}): Rec {
	return {
		id,
		createdDateTime: iso(s(modifiedSec)),
		modifiedDateTime: iso(s(modifiedSec)),
		rev: 0,
		note: '',
		...extra,
	};
}

/**
 * One read of these records as the whole poll, with the state and records deep-frozen: the module must neither
 * mutate them nor depend on it. The service's Date header says `serverTime`.
 */
function poll<T>(
	state: CursorState,
	records: T[],
	opts: CursorOptions = options(),
	now = s(10_000),
	feed: Feed<T> = recordFeed as unknown as Feed<T>,
	serverTime = now,
): Poll<T> {
	const before = JSON.stringify(state);
	const recordsBefore = JSON.stringify(records);
	const started = beginPoll<T>({ feed, options: opts }, deepFreeze(state));
	const plan = planRead(started, now);
	const result = applyRead(started, plan, { records: deepFreeze(records), complete: true, serverTime }, now);
	expect(JSON.stringify(state)).toBe(before);
	expect(JSON.stringify(records)).toBe(recordsBefore);
	// The state lives in n8n's static data: it must survive JSON unchanged.
	expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state);
	return result;
}

/** Polls served by a simulated feed, dated by its clock; n8n's clock is `skewMs` off. */
const pollFeed = (
	state: CursorState,
	feed: SimulatedFeed,
	opts: CursorOptions,
	def: Feed<Rec> = recordFeed,
	skewMs = 0,
) =>
	runPoll(
		state,
		(plan) => feed.serve(plan),
		def,
		opts,
		() => feed.clock + skewMs,
	);

const summary = (result: Poll<Rec>) =>
	result.emit.map(({ event, record }) => `${event}:${record.id}@${record.rev}`);
const fromDate = (seconds: number, opts = options()) =>
	startState(recordFeed, { from: 'date', date: s(seconds) }, s(99_999), opts);
const since = (state: CursorState, opts = options(), feed: Feed<Rec> = recordFeed) =>
	queryOf(planRead(beginPoll<Rec>({ feed, options: opts }, state), s(10_000))).ModifiedSince;
const versionCount = (state: CursorState) =>
	state.seen.reduce((count, [, versions]) => count + versions.length / 16, 0);

describe('timestamps and fingerprints', () => {
	test('parseTimestamp reads UTC, offsets, 7 fractional digits and treats a missing zone as UTC', () => {
		expect(parseTimestamp('2026-11-22T08:00:00Z')).toBe(T0);
		expect(parseTimestamp('2026-11-22T08:00:00.1234567Z')).toBe(T0 + 123);
		expect(parseTimestamp('2026-11-22T08:00:00')).toBe(T0);
		expect(parseTimestamp('2026-11-22T10:00:00+02:00')).toBe(T0);
		expect(parseTimestamp('2026-11-22')).toBe(Date.UTC(2026, 10, 22));
		expect(parseTimestamp(T0)).toBe(T0);
		for (const bad of ['', 'yesterday', null, undefined, {}, Number.NaN])
			expect(parseTimestamp(bad)).toBeUndefined();
	});

	test('fingerprintOf ignores key order and undefined fields, and changes with any content', () => {
		const a = fingerprintOf({ id: '1', nested: { x: 1, y: [1, 'two', null] } });
		expect(a).toMatch(/^[0-9a-f]{16}$/);
		expect(fingerprintOf({ nested: { y: [1, 'two', null], x: 1 }, id: '1', gone: undefined })).toBe(a);
		expect(fingerprintOf({ id: '1', nested: { x: 1, y: [1, 'two', false] } })).not.toBe(a);
		expect(fingerprintOf({ id: '1', nested: { x: 2, y: [1, 'two', null] } })).not.toBe(a);
		expect(fingerprintOf({ id: '2', nested: { x: 1, y: [1, 'two', null] } })).not.toBe(a);
		expect(fingerprintOf(['a', 'b'])).not.toBe(fingerprintOf(['b', 'a']));
		const many = new Set(Array.from({ length: 5000 }, (_, i) => fingerprintOf({ id: 'x', rev: i })));
		expect(many.size).toBe(5000);
	});
});

describe('first activation and the requested ModifiedSince', () => {
	test('"now" starts one overlap before the service\'s time, a date at the date, "everything" at the epoch', () => {
		const opts = options({ overlapMs: 30_000 });
		const now = startState(recordFeed, { from: 'now' }, s(100), opts);
		expect(now).toEqual({
			version: 4,
			mode: 'modified',
			cursor: s(70),
			horizon: s(70),
			floor: s(70),
			seen: [],
		});
		expect(since(now, opts)).toBe(iso(s(70) - 1));
		expect(since(fromDate(50, opts), opts)).toBe(iso(s(50) - 1));
		const everything = startState(recordFeed, { from: 'everything' }, s(100), opts);
		expect(since(everything, opts)).toBe('1970-01-01T00:00:00.000Z');
		expect(startState(untimedFeed, { from: 'everything' }, s(100), opts).mode).toBe('polled');
	});

	test('the default overlap applies when none is given', () => {
		const opts = { events: ALL, maxPerPoll: 10 };
		expect(startState(recordFeed, { from: 'now' }, s(1000), opts).floor).toBe(s(1000) - DEFAULT_OVERLAP_MS);
	});

	test("ModifiedSince is one re-read window before the service's time, never below the start or past the cursor", () => {
		const opts = options({ overlapMs: 20_000 });
		const first = poll(fromDate(100, opts), [rec('a', 110)], opts, s(111)).state;
		expect(since(first, opts)).toBe(iso(s(100) - 1));
		const second = poll(first, [rec('b', 150)], opts, s(151)).state;
		expect(since(second, opts)).toBe(iso(s(131) - 1));
		// Long after: nothing before the cursor is re-read (it was visible when it was read).
		const later = poll(second, [], opts, s(5000)).state;
		expect(since(later, opts)).toBe(iso(s(150)));
	});

	test('records older than the chosen date are never emitted, even if the server returns them', () => {
		const result = poll(fromDate(100), [rec('old', 99), rec('edge', 100), rec('after', 101)]);
		expect(summary(result)).toEqual(['new:edge@0', 'new:after@0']);
	});

	test('readState accepts its own JSON and rejects other versions, other modes and garbage', () => {
		const opts = options();
		const state = poll(fromDate(0), [rec('a', 5)]).state;
		const stored = JSON.parse(JSON.stringify(state));
		expect(readState(stored, recordFeed, opts)).toEqual(state);
		expect(readState(stored, untimedFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, version: 5 }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, cursor: 'soon' }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, seen: [[5, 'short']] }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, ids: [[5, 'odd']] }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, passed: [[5]] }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, settled: 'soon' }, recordFeed, opts)).toBeUndefined();
		const idSet = { bits: 30, count: 1, data: 'AAAB', until: 5 };
		expect(readState({ ...stored, idSet }, recordFeed, opts)).toEqual({ ...state, idSet });
		expect(readState({ ...stored, idSet: { ...idSet, bits: 60 } }, recordFeed, opts)).toBeUndefined();
		expect(readState({ ...stored, idSet: { ...idSet, data: 'a b' } }, recordFeed, opts)).toBeUndefined();
		for (const garbage of [undefined, null, 'x', 42, [], {}])
			expect(readState(garbage, recordFeed, opts)).toBeUndefined();
	});

	test('a state stored by version 1 goes on where it was: nothing it emitted comes again', () => {
		const opts = options({ overlapMs: 10_000 });
		const a = rec('a', 100);
		const v1 = {
			version: 1,
			mode: 'modified',
			cursor: s(100),
			floor: 0,
			newFrom: s(90),
			seen: [['a', fingerprintOf(a), s(100)]],
		};
		const state = readState(v1, recordFeed, opts) as CursorState;
		expect(state).toMatchObject({ version: 4, cursor: s(100), horizon: s(90), floor: 0 });
		expect(since(state, opts)).toBe(iso(s(90) - 1));
		expect(summary(poll(state, [a, rec('b', 101)], opts))).toEqual(['new:b@0']);
		expect(readState({ ...v1, newFrom: undefined }, recordFeed, opts)).toBeUndefined();
	});
});

describe('cursor from the records, ties at the boundary', () => {
	test("the cursor is just past the newest modification time read, whatever n8n's clock says", () => {
		const records = [rec('a', 10), rec('b', 30), rec('c', 20)];
		for (const now of [s(-5000), s(25), s(1e6)]) {
			const result = poll(fromDate(0), records, options(), now);
			expect(result.state.cursor).toBe(s(30) + 1);
			expect(summary(result)).toEqual(['new:a@0', 'new:c@0', 'new:b@0']);
		}
	});

	test('re-reading the boundary (inclusive ModifiedSince) emits nothing', () => {
		// Read in the boundary's own second: more records may still get its time, so they are remembered.
		const first = poll(fromDate(0), [rec('a', 10), rec('b', 20), rec('c', 20)], options(), s(20));
		expect(first.state.seen.map(([at, versions]) => [at, versions.length])).toEqual([[s(20), 32]]);
		const reread = poll(first.state, [rec('b', 20), rec('c', 20)], options(), s(20));
		expect(reread.emit).toEqual([]);
		expect(reread.state).toEqual(first.state);
		// Once the service's clock is past it, nothing is remembered and the boundary is not asked for again.
		const settled = poll(first.state, [rec('b', 20), rec('c', 20)], options(), s(22));
		expect(settled.emit).toEqual([]);
		expect(settled.state.seen).toEqual([]);
		expect(since(settled.state)).toBe(iso(s(20)));
	});

	test('a record at the boundary edited again is emitted as changed: later, or within the same millisecond', () => {
		const at = (time: number, records: Rec[]) => [records, options(), s(time), recordFeed] as const;
		const first = poll(fromDate(0), ...at(20, [rec('a', 20, { createdDateTime: iso(s(5)) }), rec('b', 20)]));
		const sameTime = poll(
			first.state,
			...at(20, [rec('a', 20, { rev: 1, createdDateTime: iso(s(5)) }), rec('b', 20)]),
		);
		expect(summary(sameTime)).toEqual(['changed:a@1']);
		const later = poll(sameTime.state, ...at(25, [rec('a', 25, { rev: 2, createdDateTime: iso(s(5)) })]));
		expect(summary(later)).toEqual(['changed:a@2']);
		expect(later.state.seen).toEqual([[s(25), expect.stringMatching(/^[\w-]{16}$/)]]);
	});

	test('ties split by the cap arrive on the next polls, each once, with an inclusive or exclusive server', () => {
		for (const exclusive of [false, true]) {
			const feed = new SimulatedFeed(s(10));
			feed.create();
			feed.tick(5000);
			for (let i = 0; i < 5; i++) feed.create(); // five records sharing one timestamp
			const opts = options({ maxPerPoll: 2 });
			let state = fromDate(0, opts);
			const emitted: string[] = [];
			for (let i = 0; i < 5; i++) {
				const result = runPoll(
					state,
					(plan) => feed.serve(plan, { exclusive }),
					recordFeed,
					opts,
					() => feed.clock,
				);
				emitted.push(...summary(result));
				expect(result.caughtUp).toBe(i >= 2);
				state = result.state;
			}
			expect(emitted).toEqual(
				['r0001', 'r0002', 'r0003', 'r0004', 'r0005', 'r0006'].map((id) => `new:${id}@0`),
			);
		}
	});

	test('an exclusive server still returns the held-back rest of a tie group', () => {
		const feed = new SimulatedFeed(s(10));
		for (let i = 0; i < 3; i++) feed.create();
		const opts = options({ maxPerPoll: 1 });
		const first = runPoll(
			fromDate(0, opts),
			(plan) => feed.serve(plan, { exclusive: true }),
			recordFeed,
			opts,
			() => feed.clock,
		);
		expect(first.state.cursor).toBe(s(10));
		const rest = feed.read(since(first.state, opts), { exclusive: true });
		expect(rest.map((record) => record.id)).toEqual(['r0001', 'r0002', 'r0003']);
		// The rest of the time goes out together: a millisecond is never split where the read holds all of it.
		expect(summary(poll(first.state, rest, opts))).toEqual(['new:r0002@0', 'new:r0003@0']);
	});

	test('a read stops once it holds the cap plus what the re-read returns, and the next goes on from there', () => {
		const feed = new SimulatedFeed(s(0));
		for (let i = 0; i < 50; i++) {
			feed.tick(1000);
			feed.create();
		}
		const opts = options({ maxPerPoll: 10, overlapMs: 3000 });
		let state = fromDate(0, opts);
		let read = 0;
		const emitted: string[] = [];
		for (let i = 0; i < 5; i++) {
			const result = runPoll(
				state,
				(plan) => {
					const served = feed.serve(plan);
					read += served.records.length;
					return served;
				},
				recordFeed,
				opts,
				() => feed.clock,
			);
			emitted.push(...result.emit.map(({ record }) => record.id));
			state = result.state;
		}
		expect(emitted).toEqual(feed.ids());
		// Each poll read its ten and the records inside the re-read window (three at one a second).
		expect(read).toBeLessThanOrEqual(50 + 4 * 4);
	});
});

describe('clock skew and late writes', () => {
	test('a record written late, older than the cursor but inside the overlap, is emitted once', () => {
		const opts = options({ overlapMs: 30_000 });
		const first = poll(fromDate(0, opts), [rec('a', 100)], opts, s(101));
		const late = rec('late', 80); // visible at 105: 25 s late
		const second = poll(first.state, [late, rec('a', 100)], opts, s(105));
		expect(summary(second)).toEqual(['new:late@0']);
		expect(second.state.cursor).toBe(s(100) + 1); // never moved back by the late record
		expect(poll(second.state, [late, rec('a', 100)], opts, s(106)).emit).toEqual([]);
	});

	test('a record written later than the overlap is the documented loss', () => {
		const opts = options({ overlapMs: 30_000 });
		const first = poll(fromDate(0, opts), [rec('a', 100)], opts, s(101));
		expect(poll(first.state, [rec('tooLate', 60), rec('a', 100)], opts, s(102)).emit).toEqual([]);
		// The same once the service's clock has moved a window past the cursor: 80 is then 35 s late.
		const next = poll(first.state, [rec('a', 100)], opts, s(115)).state;
		expect(poll(next, [rec('late', 80), rec('a', 100)], opts, s(115)).emit).toEqual([]);
	});

	test('the cap cutting at a late record keeps the cursor where it was', () => {
		const opts = options({ overlapMs: 30_000, maxPerPoll: 1 });
		const first = poll(fromDate(0, opts), [rec('a', 100)], opts, s(101));
		const late = [rec('late1', 80), rec('late2', 90), rec('a', 100)];
		const second = poll(first.state, late, opts, s(102));
		expect(summary(second)).toEqual(['new:late1@0']);
		expect(second.state.cursor).toBe(s(100) + 1);
		const third = poll(second.state, late, opts, s(103));
		expect(summary(third)).toEqual(['new:late2@0']);
	});

	test("the cap cutting at a late record never lets the horizon pass it, whatever the service's time", () => {
		const opts = options({ overlapMs: 30_000, maxPerPoll: 1 });
		const first = poll(fromDate(0, opts), [rec('a', 100)], opts, s(101));
		// Written late (22 s and 18 s), read by a poll long after: the re-read window starts at 90 by then.
		const late = [rec('late1', 80), rec('late2', 85), rec('a', 100)];
		const second = poll(first.state, late, opts, s(120));
		expect(summary(second)).toEqual(['new:late1@0']);
		expect(second.state.horizon).toBeLessThanOrEqual(s(85));
		expect(summary(poll(second.state, late, opts, s(121)))).toEqual(['new:late2@0']);
	});

	test('"from now" starts from the service\'s time and gets records it stamped just before it', () => {
		const opts = options({ overlapMs: 60_000 });
		const state = startState(recordFeed, { from: 'now' }, s(1000), opts);
		// n8n's own clock (the `now` of the read) is an hour ahead: it changes nothing.
		const result = poll(
			state,
			[rec('early', 900), rec('stampedBehind', 970)],
			opts,
			s(4600),
			recordFeed,
			s(1000),
		);
		expect(summary(result)).toEqual(['new:stampedBehind@0']);
	});
});

describe('events', () => {
	const created5 = { createdDateTime: iso(s(5)) };

	test('new when created inside the window, changed when created before it, deleted for tombstones', () => {
		const opts = options({ overlapMs: 10_000 });
		const first = poll(fromDate(50, opts), [rec('old', 60, created5), rec('fresh', 70)], opts);
		expect(summary(first)).toEqual(['changed:old@0', 'new:fresh@0']);
		const second = poll(
			first.state,
			[
				rec('fresh', 80, { rev: 1, createdDateTime: iso(s(70)) }),
				rec('gone', 90, { ...created5, isDeleted: true }),
			],
			opts,
		);
		expect(summary(second)).toEqual(['changed:fresh@1', 'deleted:gone@0']);
	});

	test('unselected events are skipped for good, move the cursor and do not count against the cap', () => {
		const opts = options({ events: ['new', 'changed'], maxPerPoll: 1 });
		const records = [
			rec('gone1', 10, { isDeleted: true }),
			rec('gone2', 11, { isDeleted: true }),
			rec('a', 12),
		];
		const first = poll(fromDate(0, opts), records, opts);
		expect(summary(first)).toEqual(['new:a@0']);
		expect(first.caughtUp).toBe(true);
		expect(first.state.cursor).toBe(s(12) + 1);
		expect(poll(first.state, records, opts).emit).toEqual([]);
	});

	test('past its memory, a record is new if it had moved on before the trigger read past its creation', () => {
		const opts = options();
		// A backlog: the trigger read past 100 (record time) at the service's time 10,000; the identities it
		// handled then are forgotten (idsFrom 20,000), and `seen` holds nothing below the horizon (300).
		const state: CursorState = {
			...fromDate(0, opts),
			cursor: s(300),
			horizon: s(300),
			passed: [[s(101), s(10_000), s(10_000) + 999]],
			idsFrom: s(20_000),
		};
		const created = { createdDateTime: iso(s(90)) };
		const result = poll(
			state,
			[
				// Changed at 400, before that read: it was not at 90 then, so never emitted.
				rec('movedOn', 400, { ...created, rev: 1 }),
				// Changed at 12,000, after it: the version of 90 was emitted then (forgotten since).
				rec('changedAfter', 12_000, { ...created, rev: 1 }),
			],
			opts,
			s(30_000),
		);
		expect(summary(result)).toEqual(['new:movedOn@1', 'changed:changedAfter@1']);
		// Identities handled since that read all remembered (idsFrom before it): one not among them is new.
		const remembered = poll(
			{ ...state, idsFrom: s(9000) },
			[rec('changedAfter', 12_000, { ...created, rev: 1 })],
			opts,
			s(30_000),
		);
		expect(summary(remembered)).toEqual(['new:changedAfter@1']);
	});

	test('deleted only: new and changed records are passed over, tombstones emitted', () => {
		const opts = options({ events: ['deleted'] });
		const first = poll(fromDate(0, opts), [rec('a', 10), rec('b', 11, { isDeleted: true, rev: 3 })], opts);
		expect(summary(first)).toEqual(['deleted:b@3']);
		expect(poll(first.state, [rec('a', 12, { rev: 1 })], opts).emit).toEqual([]);
	});

	test('without created times a record is new when its identity is first seen, then changed', () => {
		const noCreated: Feed<Rec> = { ...recordFeed, createdAt: undefined };
		const opts = options({ overlapMs: 1000 });
		const start = startState(noCreated, { from: 'now' }, s(0), opts);
		const first = poll(start, [rec('a', 10), rec('b', 11, { isDeleted: true })], opts, s(12), noCreated);
		expect(summary(first)).toEqual(['new:a@0', 'deleted:b@0']);
		// Long after `seen` forgot its version, a is still known.
		const later = poll(first.state, [rec('a', 5000, { rev: 1 }), rec('c', 5001)], opts, s(5002), noCreated);
		expect(later.state.seen.every(([at]) => at >= s(4000))).toBe(true);
		expect(summary(later)).toEqual(['changed:a@1', 'new:c@0']);
	});

	test('identities are remembered as far as the state has room, the least recent forgotten first', () => {
		const opts = options({ maxPerPoll: Infinity });
		// With nothing in `seen`, the identities take its room too.
		const capacity = identityCapacity(2);
		expect(capacity).toBeGreaterThan(IDENTITY_MEMORY);
		// Record times without created times: what was read is older than the service's time, so `seen` is empty.
		const noCreated: Feed<Rec> = { ...recordFeed, createdAt: undefined };
		let state = startState(noCreated, { from: 'now' }, s(0), opts);
		const batch = (from: number, count: number, rev = 0) =>
			Array.from({ length: count }, (_, i) => rec(`r${from + i}`, rev ? 9000 : 1, { rev }));
		state = poll(state, batch(0, 10), opts, s(1), noCreated).state;
		state = poll(state, batch(10, capacity - 5), opts, s(2), noCreated).state;
		state = poll(state, [], opts, s(5000), noCreated).state;
		expect(state.seen).toEqual([]);
		// r0…r4 were seen least recently when the memory filled up.
		const result = poll(state, batch(0, 10, 1), opts, s(10_000), noCreated);
		expect(result.emit.map(({ event }) => event)).toEqual([
			...Array(5).fill('new'),
			...Array(5).fill('changed'),
		]);
		const remembered = (result.state.ids ?? []).reduce((count, [, ids]) => count + ids.length / 8, 0);
		expect(remembered).toBe(capacity);
	});

	test('a record edited twice between polls is emitted once, as changed, with the last content', () => {
		const feed = new SimulatedFeed(s(10));
		const opts = options();
		let state = fromDate(0, opts);
		const a = feed.create();
		state = poll(state, feed.read(since(state, opts)), opts).state;
		feed.tick(1000);
		feed.edit(a.id, 0, 'first');
		feed.tick(1000);
		const last = feed.edit(a.id, 0, 'second');
		const result = poll(state, feed.read(since(state, opts)), opts);
		expect(result.emit).toEqual([{ event: 'changed', record: last }]);
	});

	test('a record edited during pagination appears twice in one poll: emitted once, newest content, in its new place', () => {
		const feed = new SimulatedFeed(s(10));
		const ids = Array.from({ length: 6 }, () => {
			feed.tick(1000);
			return feed.create().id;
		});
		let edited = false;
		const records = feed.read(since(fromDate(0)), {
			pageSize: 2,
			betweenPages: () => {
				if (edited) return;
				edited = true;
				feed.tick(10_000);
				feed.edit(ids[0], 0, 'edited while paging');
			},
		});
		expect(records.filter((record) => record.id === ids[0])).toHaveLength(2);
		const result = poll(fromDate(0), records);
		expect(result.emit.map(({ record }) => record.id)).toEqual([...ids.slice(1), ids[0]]);
		expect(result.emit[5]).toEqual({ event: 'new', record: feed.current(ids[0]) });
	});

	test('of two copies with the same time, the later one received wins', () => {
		const result = poll(fromDate(0), [rec('a', 10, { note: 'first' }), rec('a', 10, { note: 'second' })]);
		expect(result.emit.map(({ record }) => record.note)).toEqual(['second']);
	});

	test('a stale copy after a newer one is ignored', () => {
		const result = poll(fromDate(0), [rec('a', 20, { rev: 2 }), rec('a', 10, { rev: 1 })]);
		expect(summary(result)).toEqual(['new:a@2']);
	});

	test('image rows are told apart by their identity triple', () => {
		interface Image {
			id: string;
			collectionRef: string;
			idRef: string;
			parentModifiedDateTime: string;
		}
		const images: Feed<Image> = {
			identity: (image) => `${image.id}|${image.collectionRef}|${image.idRef}`,
			modifiedAt: (image) => parseTimestamp(image.parentModifiedDateTime),
		};
		const at = iso(s(10));
		const rows: Image[] = [
			{ id: 'f1', collectionRef: 'feed', idRef: 'p1', parentModifiedDateTime: at },
			{ id: 'f1', collectionRef: 'checklist', idRef: 'p1', parentModifiedDateTime: at },
			{ id: 'f1', collectionRef: 'feed', idRef: 'p2', parentModifiedDateTime: at },
			{ id: 'f1', collectionRef: 'feed', idRef: 'p1', parentModifiedDateTime: at },
		];
		const result = poll(fromDate(0), rows, options(), s(100), images);
		expect(result.emit).toHaveLength(3);
		expect(poll(result.state, rows, options(), s(100), images).emit).toEqual([]);
	});
});

describe('empty polls and failed polls', () => {
	test('an empty poll leaves the state as it was and never moves the cursor back', () => {
		const first = poll(fromDate(0), [rec('a', 10)]);
		const empty = poll(first.state, [], options(), s(1e7));
		// Only when it last caught up moves on, and what that lets go of: a record created before is not new.
		const { settled, ids: _ids, idsFrom: _from, ...rest } = empty.state;
		expect({ ...rest, ids: first.state.ids, settled: first.state.settled }).toEqual(first.state);
		expect(settled).toBe(s(1e7));
		expect(first.state.settled).toBe(s(10_000));
		expect(empty.caughtUp).toBe(true);
		const stale = poll(first.state, [rec('older', 5)]);
		expect(stale.emit).toEqual([]);
		expect(stale.state).toEqual(first.state);
	});

	test('a failed poll (the result is simply not stored) replays the same emissions next time', () => {
		const state = fromDate(0);
		const records = [rec('a', 10), rec('b', 11)];
		const failed = poll(state, records);
		const retried = poll(state, records);
		expect(retried.emit).toEqual(failed.emit);
		expect(retried.state).toEqual(failed.state);
	});
});

describe('first activation with a cap across several polls', () => {
	for (const start of ['now', 'date', 'everything'] as const) {
		for (const [mode, def] of [
			['record times', recordFeed],
			['poll clock', untimedFeed],
		] as const) {
			test(`from ${start}, ${mode}: every record exactly once, oldest first`, () => {
				const feed = new SimulatedFeed(s(0));
				const before: string[] = [];
				for (let i = 0; i < 40; i++) {
					feed.tick(i % 3 === 0 ? 0 : 1000); // every third record ties with the previous one
					before.push(feed.create().id);
				}
				feed.tick(10_000);
				const opts = options({ maxPerPoll: 7, overlapMs: 5000 });
				const activation =
					start === 'now'
						? { from: start }
						: start === 'date'
							? { from: start, date: s(20) }
							: { from: start };
				let state = startState(def, activation, feed.clock, opts);
				const emitted: Rec[] = [];
				const after: string[] = [];
				for (let pollNumber = 0; pollNumber < 25; pollNumber++) {
					feed.tick(20_000);
					if (pollNumber < 5) for (let i = 0; i < 3; i++) after.push(feed.create().id);
					const result = pollFeed(state, feed, opts, def);
					expect(result.emit.length).toBeLessThanOrEqual(7);
					emitted.push(...result.emit.map(({ record }) => record));
					state = result.state;
				}
				const expectedBefore =
					start === 'everything'
						? before
						: start === 'date'
							? before.filter((id) => feed.modifiedAt(id) >= s(20))
							: [];
				expect(emitted.map((record) => record.id)).toEqual([...expectedBefore, ...after]);
				const times = emitted.map((record) => Date.parse(record.modifiedDateTime));
				expect(times).toEqual([...times].sort((a, b) => a - b));
			});
		}
	}
});

describe('emitted as new, never new again', () => {
	// Issue #18: Max Records 1; create A, poll; create B and C, poll; edit A, poll, poll: A came back as new.
	test.each([
		['record times', recordFeed],
		['poll clock', untimedFeed],
		['no times at all', bareFeed],
	] as const)('whatever the cap held back in between (%s)', (_mode, def) => {
		const feed = new SimulatedFeed(s(0));
		const opts = options({ maxPerPoll: 1, overlapMs: 60_000 });
		let state = startState(def, { from: 'now' }, feed.clock, opts);
		const events: string[] = [];
		const pollOnce = () => {
			feed.tick(1000);
			const result = pollFeed(state, feed, opts, def);
			events.push(...summary(result));
			state = result.state;
		};
		const a = feed.create();
		pollOnce();
		feed.tick(120_000);
		feed.create();
		feed.create();
		pollOnce();
		feed.tick(1000);
		feed.edit(a.id);
		for (let i = 0; i < 4; i++) pollOnce();
		expect(events).toEqual(['new:r0001@0', 'new:r0002@0', 'new:r0003@0', 'changed:r0001@1']);
	});
});

describe('labels through a burst larger than the identities kept one by one', () => {
	// Issue #31: records of a burst edited before the trigger reached them are new, those edited after changed,
	// however many identities were handled in between (the older ones in the compact set).
	test.each([
		['record times', unorderedFeed],
		['poll clock', untimedFeed],
	] as const)('%s: a record is new when first emitted, changed after', (_mode, def) => {
		const feed = new SimulatedFeed(s(0));
		const opts = options({ maxPerPoll: 300, overlapMs: 60_000 });
		let state = startState(def, { from: 'now' }, feed.clock, opts);
		feed.tick(1000);
		const burst: string[] = [];
		for (let i = 0; i < 3000; i++) {
			if (i % 10 === 0) feed.tick(1);
			burst.push(feed.create().id);
		}
		const events = new Map<string, TriggerEvent[]>();
		let compact = 0;
		for (let pollNumber = 0; pollNumber < 30; pollNumber++) {
			feed.tick(60_000);
			const reached = burst.filter((id) => events.has(id));
			const unreached = burst.filter((id) => !events.has(id));
			for (const id of [unreached[7], unreached[400], reached[3], reached[reached.length - 9]])
				if (id) feed.edit(id);
			const result = pollFeed(state, feed, opts, def);
			state = result.state;
			if (state.idSet) compact++;
			for (const { event, record } of result.emit)
				events.set(record.id, [...(events.get(record.id) ?? []), event]);
		}
		expect(compact).toBeGreaterThan(3);
		const wrong = burst.filter((id) => {
			const [first, ...later] = events.get(id) ?? [];
			return first !== 'new' || later.some((event) => event !== 'changed');
		});
		expect(wrong).toEqual([]);
		const edited = burst.filter((id) => (events.get(id) ?? []).length > 1);
		expect(edited.length).toBeGreaterThan(10);
		// Caught up long since: nothing of the burst is remembered one by one any more.
		expect(state.idSet).toBeUndefined();
		expect(state.settled).toBeGreaterThan(s(1000) + 60_000);
	});

	test('caught up since a record was created: changed, though its identity is no longer remembered', () => {
		const opts = options({ overlapMs: 60_000 });
		const created = { createdDateTime: iso(s(100)) };
		const state: CursorState = {
			...startState(recordFeed, { from: 'date', date: s(0) }, s(0), opts),
			cursor: s(500),
			horizon: s(440),
			settled: s(200),
			idsFrom: s(300),
		};
		expect(summary(poll(state, [rec('a', 450, { ...created, rev: 2 })], opts, s(500)))).toEqual([
			'changed:a@2',
		]);
		// Created within the re-read window before the poll that caught up (it may have been invisible then):
		// the identities remembered tell, here all of them since the start.
		const recent: CursorState = { ...state, settled: s(150), idsFrom: undefined };
		expect(summary(poll(recent, [rec('b', 450, { ...created, rev: 1 })], opts, s(500)))).toEqual(['new:b@1']);
		const remembered: CursorState = { ...recent, ids: [[s(120), tokenOf('b')]] };
		expect(summary(poll(remembered, [rec('b', 450, { ...created, rev: 1 })], opts, s(500)))).toEqual([
			'changed:b@1',
		]);
	});
});

describe('state size', () => {
	test("stays bounded by the records within the service's current second (no overlap) over many polls", () => {
		const feed = new SimulatedFeed(s(0));
		const opts = options({ maxPerPoll: 5 });
		let state = fromDate(0, opts);
		let largest = 0;
		for (let pollNumber = 0; pollNumber < 300; pollNumber++) {
			for (let i = 0; i < 4; i++) {
				feed.tick(i === 3 ? 0 : 700);
				feed.create();
			}
			state = pollFeed(state, feed, opts).state;
			largest = Math.max(largest, versionCount(state));
			// The Date header has whole seconds: what the service's clock may not have passed yet is remembered.
			const second = Math.floor(feed.clock / 1000) * 1000;
			expect(state.seen.every(([at]) => at >= second && at < state.cursor)).toBe(true);
		}
		expect(largest).toBeLessThanOrEqual(4);
		expect(JSON.stringify(state.seen).length).toBeLessThan(300);
		// The rest is the labels' memory: IDENTITY_MEMORY identities and PASSED_MEMORY times, both bounded.
		expect(JSON.stringify(state).length).toBeLessThan(20 * 1024);
	});

	test('a burst still inside the re-read window waits for it rather than outgrow the state', () => {
		for (const feed of [recordFeed, unorderedFeed]) {
			const sim = new SimulatedFeed(s(0));
			const opts = options({ maxPerPoll: 50_000, overlapMs: 60_000 });
			let state = startState(feed, { from: 'now' }, sim.clock, opts);
			sim.tick(1000);
			for (let i = 0; i < 10_000; i++) {
				if (i % 10 === 0) sim.tick(1);
				sim.create();
			}
			sim.tick(2000);
			const fresh = pollFeed(state, sim, opts, feed);
			expect(fresh.caughtUp).toBe(false);
			expect(fresh.emit.length).toBeLessThan(10_000);
			expect(JSON.stringify(fresh.state).length).toBeLessThanOrEqual(64 * 1024);
			state = fresh.state;
			// A window later the rest is older than it: out at once, nothing remembered of it.
			sim.tick(61_000);
			const settled = pollFeed(state, sim, opts, feed);
			expect(fresh.emit.length + settled.emit.length).toBe(10_000);
			expect(settled.caughtUp).toBe(true);
			expect(JSON.stringify(settled.state).length).toBeLessThanOrEqual(64 * 1024);
		}
	});

	test('with an overlap it holds the records inside the window only', () => {
		const feed = new SimulatedFeed(s(0));
		const opts = options({ overlapMs: 10_000 });
		let state = fromDate(0, opts);
		for (let pollNumber = 0; pollNumber < 200; pollNumber++) {
			feed.tick(1000);
			feed.create();
			state = pollFeed(state, feed, opts).state;
			expect(versionCount(state)).toBeLessThanOrEqual(11);
		}
	});
});

describe('poll clock: records without a modification time', () => {
	const opts = options({ overlapMs: 60_000 });
	const untimed = (records: Rec[], state: CursorState, serverTime: number, o = opts, now = serverTime) =>
		poll(state, records, o, now, untimedFeed, serverTime);

	test("the cursor is the service's time (the Date of the first answer), whatever n8n's clock says", () => {
		const state = startState(untimedFeed, { from: 'now' }, s(0), opts);
		for (const now of [s(-3600), s(300), s(7200)]) {
			const result = untimed([rec('a', 10)], state, s(300), opts, now);
			expect(result.state.cursor).toBe(s(300));
			expect(result.state.horizon).toBe(s(240));
			expect(result.state.offset).toBe(s(300) - now);
		}
	});

	test("ModifiedSince is the last read's service time minus the overlap; the re-read emits nothing", () => {
		let state = startState(untimedFeed, { from: 'date', date: s(0) }, s(0), opts);
		expect(since(state, opts, untimedFeed)).toBe(iso(s(0)));
		const first = untimed([rec('a', 10), rec('b', 20)], state, s(300));
		expect(summary(first)).toEqual(['new:a@0', 'new:b@0']);
		state = first.state;
		expect(since(state, opts, untimedFeed)).toBe(iso(s(240)));
		const second = untimed([rec('b', 20), rec('c', 250)], state, s(600));
		expect(summary(second)).toEqual(['new:c@0']);
		const edited = untimed([rec('c', 550, { rev: 1, createdDateTime: iso(s(250)) })], second.state, s(900));
		expect(summary(edited)).toEqual(['changed:c@1']);
	});

	test('keeps received order, and a capped poll re-reads the same window', () => {
		const state = startState(untimedFeed, { from: 'now' }, s(0), opts);
		const records = [rec('z', 10), rec('x', 10), rec('y', 10)];
		const capped = untimed(records, state, s(300), options({ overlapMs: 60_000, maxPerPoll: 2 }));
		expect(summary(capped)).toEqual(['new:z@0', 'new:x@0']);
		expect(capped.caughtUp).toBe(false);
		expect(since(capped.state, opts, untimedFeed)).toBe(since(state, opts, untimedFeed));
		expect(summary(untimed(records, capped.state, s(600)))).toEqual(['new:y@0']);
	});

	test('forgets versions once the window has passed them', () => {
		let state = startState(untimedFeed, { from: 'date', date: s(0) }, s(0), opts);
		state = untimed([rec('a', 10)], state, s(300)).state;
		expect(versionCount(state)).toBe(1);
		expect(untimed([rec('a', 10)], state, s(330)).emit).toEqual([]);
		expect(untimed([], state, s(3000)).state.seen).toEqual([]);
	});

	/**
	 * One poll as poll.ts runs it against the feed, with time passing: each read takes `latency` ms and n8n's clock
	 * moves on between reads (the Date header still says the second the read began in).
	 */
	const timedPoll = (feed: SimulatedFeed, state: CursorState, o: CursorOptions, latency = 5) => {
		let current = beginPoll<Rec>({ feed: untimedFeed, options: o }, state);
		while (!current.done) {
			const plan = planRead(current, feed.clock);
			feed.tick(latency);
			current = applyRead(current, plan, feed.serve(plan), feed.clock);
			feed.tick(3);
		}
		return current;
	};

	// Found by test/trigger/node.test.ts under load: the Date has whole seconds, and a too-full read to the present
	// searched only below its Date; a window ending just past it counted as caught up, so records written earlier
	// in that second waited, unread, behind polls that each said they were caught up.
	test('records written within the Date\'s second before the poll are read by it; none waits behind "caught up"', () => {
		const capped = options({ maxPerPoll: 5, overlapMs: 60_000 });
		// Clock phases within the second and read latencies (the sandbox's clock runs on with real time).
		for (const phase of [0, 150, 400, 868, 999]) {
			for (const latency of [1, 5]) {
				const feed = new SimulatedFeed(s(94) + phase);
				let state = startState(untimedFeed, { from: 'now' }, Math.floor(feed.clock / 1000) * 1000, capped);
				const emitted: string[] = [];
				const run = () => {
					const result = timedPoll(feed, state, capped, latency);
					state = result.state;
					emitted.push(...result.emit.map(({ record }) => record.id));
					return result;
				};
				run();
				// Incidents in four seconds, a capped poll, then the ones it did not reach are edited in the next
				// second and polled within it (as the node test and a user's first executions do).
				const created: string[] = [];
				for (let i = 1; i <= 4; i++) {
					feed.clock = s(94 + i) + ((phase + 30 * i) % 1000);
					for (let j = 0; j < 4; j++) created.push(feed.create().id);
				}
				feed.clock = Math.floor(feed.clock / 1000) * 1000 + 1020;
				run();
				feed.clock = Math.floor(feed.clock / 1000) * 1000 + 1250;
				for (const id of created.filter((id) => !emitted.includes(id)).slice(0, 3)) feed.edit(id);
				const second = Math.floor(feed.clock / 1000);
				for (let quiet = 0; quiet < 2; ) {
					const result = run();
					const unread = created.filter((id) => !emitted.includes(id));
					if (result.caughtUp) expect({ phase, latency, unread }).toEqual({ phase, latency, unread: [] });
					expect(Math.floor(feed.clock / 1000)).toBe(second);
					quiet = result.emit.length === 0 ? quiet + 1 : 0;
				}
				expect({ phase, latency, emitted: [...emitted].sort() }).toEqual({
					phase,
					latency,
					emitted: created,
				});
			}
		}
	});

	test("a cursor within the Date's second still reads to the present in pages of its cap, never all at once", () => {
		const capped = options({ maxPerPoll: 5, overlapMs: 60_000 });
		const feed = new SimulatedFeed(s(100) + 100);
		let state = startState(untimedFeed, { from: 'now' }, s(100), capped);
		state = timedPoll(feed, state, capped).state;
		feed.clock = s(101) + 100;
		for (let i = 0; i < 3; i++) feed.create();
		// Read within the second: the cursor ends past the Date, where n8n's clock puts the service's now.
		const first = timedPoll(feed, state, capped);
		expect(first.emit).toHaveLength(3);
		expect(first.state.cursor).toBeGreaterThan(s(101));
		for (let i = 0; i < 40; i++) {
			feed.tick(1);
			feed.create();
		}
		const next = timedPoll(feed, first.state, capped);
		expect(next.emit.length).toBeGreaterThan(0);
		expect(next.emit.length).toBeLessThanOrEqual(5);
	});

	test('a backlog is read in ModifiedBefore windows, about once, and the state keeps one window at most', () => {
		const feed = new SimulatedFeed(s(0));
		for (let i = 0; i < 3000; i++) {
			feed.tick(5000);
			feed.create();
		}
		feed.tick(600_000);
		const capOpts = options({ maxPerPoll: 100, overlapMs: 60_000 });
		let state = startState(untimedFeed, { from: 'everything' }, feed.clock, capOpts);
		let read = 0;
		const emitted: string[] = [];
		let polls = 0;
		for (; polls < 100 && emitted.length < 3000; polls++) {
			feed.tick(60_000);
			const result = runPoll(
				state,
				(plan) => {
					const served = feed.serve(plan);
					read += served.records.length;
					expect(plan.before === undefined || plan.before > plan.since).toBe(true);
					return served;
				},
				untimedFeed,
				capOpts,
				() => feed.clock,
			);
			emitted.push(...result.emit.map(({ record }) => record.id));
			state = result.state;
			expect(versionCount(state)).toBeLessThanOrEqual(100);
		}
		expect(emitted).toEqual(feed.ids());
		expect(read / 3000).toBeLessThan(1.2);
		expect(polls).toBeLessThan(3000 / 100 / 0.75 + 5);
	});
});

describe('Fetch Test Event', () => {
	test('returns the newest few, oldest of them first, labelled, honouring the selected events', () => {
		const records = [
			rec('a', 10),
			rec('b', 20, { createdDateTime: iso(s(1)), rev: 1 }),
			rec('c', 30, { isDeleted: true }),
			rec('d', 40),
			rec('a', 50, { rev: 2, createdDateTime: iso(s(10)) }),
		];
		deepFreeze(records);
		expect(
			newestForTest(records, recordFeed, options(), 3).map(({ event, record }) => `${event}:${record.id}`),
		).toEqual(['deleted:c', 'new:d', 'changed:a']);
		expect(
			newestForTest(records, recordFeed, options({ events: ['new'] }), 5).map(({ record }) => record.id),
		).toEqual(['d']);
		expect(newestForTest([], recordFeed, options())).toEqual([]);
		// No created time: nothing tells it was edited, so it is new (first seen).
		expect(newestForTest([rec('a', 10, { rev: 3 })], bareFeed, options()).map(({ event }) => event)).toEqual([
			'new',
		]);
	});
});

describe('holding records back (wait for road reference)', () => {
	interface Image {
		id: string;
		parentModifiedDateTime: string;
		latitude: number | null;
		roadReference: { referenceText: string } | null;
	}
	const image = (
		id: string,
		seconds: number,
		road: string | null,
		latitude: number | null = 59.9,
	): Image => ({
		id,
		parentModifiedDateTime: iso(s(seconds)),
		latitude,
		roadReference: road === null ? null : { referenceText: road },
	});
	const waitingFeed = (now: number, timeoutMs: number): Feed<Image> => ({
		identity: (row) => row.id,
		modifiedAt: (row) => parseTimestamp(row.parentModifiedDateTime),
		holdBack: (row) =>
			row.latitude !== null &&
			row.roadReference === null &&
			now - (parseTimestamp(row.parentModifiedDateTime) ?? 0) < timeoutMs,
	});

	test('an image with coordinates waits for its road reference, and the images after it wait too, in order', () => {
		const opts = options();
		const rows = [
			image('noCoordinates', 10, null, null),
			image('pending', 11, null),
			image('after', 12, 'E6'),
		];
		const first = poll(fromDate(0), rows, opts, s(15), waitingFeed(s(15), 60_000));
		expect(first.emit.map(({ record }) => record.id)).toEqual(['noCoordinates']);
		expect(first.caughtUp).toBe(false);
		const enriched = [rows[0], image('pending', 11, 'E18'), rows[2]];
		const second = poll(first.state, enriched, opts, s(20), waitingFeed(s(20), 60_000));
		expect(second.emit.map(({ record }) => `${record.id}:${record.roadReference?.referenceText}`)).toEqual([
			'pending:E18',
			'after:E6',
		]);
		expect(poll(second.state, enriched, opts, s(25), waitingFeed(s(25), 60_000)).emit).toEqual([]);
	});

	test('an image emitted as new and edited while another waits for its road reference is changed, not new', () => {
		const opts = options({ overlapMs: 60_000 });
		const withCreated = (now: number): Feed<Image> => ({
			...waitingFeed(now, 600_000),
			createdAt: (row) => (row.id === 'a' ? s(10) : parseTimestamp(row.parentModifiedDateTime)),
		});
		const start = startState(withCreated(0), { from: 'now' }, s(0), opts);
		const first = poll(start, [image('a', 10, 'E6')], opts, s(11), withCreated(s(11)));
		expect(first.emit.map(({ event }) => event)).toEqual(['new']);
		// b waits for its road reference for minutes; meanwhile a is edited (its parent modified again).
		let state = first.state;
		for (const now of [s(130), s(250), s(400)]) {
			const result = poll(state, [image('b', 120, null), image('a', 200, 'E6')], opts, now, withCreated(now));
			expect(result.emit).toEqual([]);
			state = result.state;
		}
		const released = poll(
			state,
			[image('b', 120, 'E18'), image('a', 200, 'E6')],
			opts,
			s(500),
			withCreated(s(500)),
		);
		expect(released.emit.map(({ event, record }) => `${event}:${record.id}`)).toEqual(['new:b', 'changed:a']);
	});

	test('after the timeout the image goes out without a road reference, once', () => {
		const rows = [image('pending', 11, null)];
		const held = poll(fromDate(0), rows, options(), s(30), waitingFeed(s(30), 60_000));
		expect(held.emit).toEqual([]);
		const released = poll(held.state, rows, options(), s(80), waitingFeed(s(80), 60_000));
		expect(released.emit.map(({ record }) => record.id)).toEqual(['pending']);
		expect(poll(released.state, rows, options(), s(90), waitingFeed(s(90), 60_000)).emit).toEqual([]);
	});
});
