/**
 * Randomized, seeded and bounded: a feed is created, edited and deleted at random between polls and while a
 * poll pages (with late writes inside the overlap, inclusive or exclusive ModifiedSince and ModifiedBefore,
 * short pages, random caps, failed polls, and n8n's clock minutes ahead of or behind the service's), and the
 * emitted stream is compared with the feed's ground truth.
 */
import { fingerprintOf } from '../../nodes/FieldOpsTrigger/hashing';
import {
	IDENTITY_MEMORY,
	startState,
	type CursorOptions,
	type CursorState,
	type Feed,
	type TriggerEvent,
} from '../../nodes/FieldOpsTrigger/state';
import {
	bareFeed,
	deepFreeze,
	recordFeed,
	runPoll,
	seededRandom,
	SimulatedFeed,
	unorderedFeed,
	untimedFeed,
	type Rec,
} from './simulated-feed';

const T0 = Date.UTC(2026, 10, 22, 8, 0, 0);

interface Emission {
	event: TriggerEvent;
	record: Rec;
	poll: number;
}

interface Scenario {
	seed: number;
	feed: Feed<Rec>;
	events: TriggerEvent[];
	exclusive: boolean;
	inclusiveBefore?: boolean;
	overlapMs: number;
	/** Late writes are stamped up to this long before they become visible. */
	maxLagMs: number;
	/** n8n's clock minus the service's. */
	skewMs: number;
}

const versionCount = (state: CursorState) =>
	state.seen.reduce((count, [, versions]) => count + versions.length / 16, 0);

function simulate(scenario: Scenario) {
	const random = seededRandom(scenario.seed);
	const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
	const feed = new SimulatedFeed(T0);
	const lag = () => (random() < 0.2 ? between(0, scenario.maxLagMs) : 0);

	function mutate(): void {
		// Small or no ticks: many records share one timestamp.
		feed.tick(random() < 0.4 ? 0 : between(1, 1500));
		const live = feed.live();
		const roll = random();
		if (roll < 0.45 || live.length === 0) feed.create(lag(), `n${between(0, 9)}`);
		else if (roll < 0.85) feed.edit(live[between(0, live.length - 1)], lag(), `e${between(0, 99)}`);
		else feed.remove(live[between(0, live.length - 1)]);
	}

	for (let i = between(0, 40); i > 0; i--) mutate(); // a backlog before activation
	const baseOptions = { events: scenario.events, overlapMs: scenario.overlapMs };
	const activation = { ...baseOptions, maxPerPoll: 1 };
	let state: CursorState = startState(scenario.feed, { from: 'everything' }, feed.clock, activation);
	const emissions: Emission[] = [];
	const caughtUpAfter: boolean[] = [];
	let largestState = 0;

	function pollOnce(pollNumber: number, busy: boolean): boolean {
		if (busy) for (let i = between(0, 8); i > 0; i--) mutate();
		const options: CursorOptions = { ...baseOptions, maxPerPoll: random() < 0.15 ? Infinity : between(1, 6) };
		const serve = {
			exclusive: scenario.exclusive,
			inclusiveBefore: scenario.inclusiveBefore,
			pageSize: between(1, 8),
		};
		const poll = runPoll(
			deepFreeze(state),
			(plan) => feed.serve(plan, { ...serve, betweenPages: () => busy && random() < 0.3 && mutate() }),
			scenario.feed,
			options,
			() => feed.clock + scenario.skewMs,
		);
		if (busy && random() < 0.1) return false; // the poll failed: its result is never stored
		// The cap is exceeded only by the records of one millisecond, which never goes out in parts (with the poll
		// clock, a 1 ms window also holds what was written late within the re-read window: times unknown).
		if (poll.emit.length > options.maxPerPoll && scenario.feed.modifiedAt)
			expect(new Set(poll.emit.map(({ record }) => record.modifiedDateTime)).size).toBe(1);
		state = JSON.parse(JSON.stringify(poll.state)); // as n8n's static data would hand it back
		for (const { event, record } of poll.emit) emissions.push({ event, record, poll: pollNumber });
		caughtUpAfter[pollNumber] = poll.caughtUp;
		largestState = Math.max(largestState, versionCount(state));
		if (scenario.feed.modifiedAt) {
			// Bounded by the records inside the re-read window (just the boundary ties without an overlap).
			expect(versionCount(state)).toBeLessThanOrEqual(
				feed.ids().filter((id) => feed.modifiedAt(id) >= state.horizon).length,
			);
		}
		return poll.caughtUp;
	}

	let pollNumber = 0;
	for (; pollNumber < 60; pollNumber++) {
		pollOnce(pollNumber, true);
		feed.tick(between(0, 20_000));
	}
	// Quiet feed: drain the backlog, then make sure nothing more comes.
	let quietCaughtUp = 0;
	for (; quietCaughtUp < 3; pollNumber++) {
		feed.tick(between(0, 20_000));
		quietCaughtUp = pollOnce(pollNumber, false) ? quietCaughtUp + 1 : 0;
		if (pollNumber > 2000) throw new Error('the backlog never drained');
	}
	return {
		feed,
		emissions,
		caughtUpAfter,
		largestState,
		polls: pollNumber,
	};
}

function checkAgainstGroundTruth(scenario: Scenario) {
	const { feed, emissions } = simulate(scenario);
	const selected = new Set(scenario.events);
	const mislabelled: string[] = [];
	const byId = new Map<string, Emission[]>();
	const versions = new Set<string>();
	for (const emission of emissions) {
		const { id } = emission.record;
		const version = `${id}:${fingerprintOf(emission.record)}`;
		// 0 duplicates: no version emitted twice, and only versions the feed really had.
		expect(versions.has(version)).toBe(false);
		versions.add(version);
		expect(feed.versions.get(id)).toContain(fingerprintOf(emission.record));
		expect(selected.has(emission.event)).toBe(true);
		expect(emission.event === 'deleted').toBe(emission.record.isDeleted === true);
		byId.set(id, [...(byId.get(id) ?? []), emission]);
	}

	for (const id of feed.ids()) {
		const emitted = byId.get(id) ?? [];
		// Per record, versions come in the order they were written.
		const revisions = emitted.map((emission) => emission.record.rev);
		expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
		// 0 gaps: the final version is emitted whenever its event is surely selected.
		const final = feed.current(id);
		if (final.isDeleted ? selected.has('deleted') : selected.has('new') && selected.has('changed')) {
			expect(emitted.at(-1)?.record).toEqual(final);
		}
		// Emitted as new: never new again, whatever the cap did in between.
		expect(emitted.filter((emission) => emission.event === 'new').length).toBeLessThanOrEqual(1);
		if (!scenario.events.includes('new') || !scenario.events.includes('changed')) continue;
		// Seen for the first time: new (the start is "everything", so nothing was created before it).
		const [first, ...later] = emitted.filter((emission) => emission.event !== 'deleted');
		if (!first || (emitted[0] !== first && emitted[0].event === 'deleted')) continue;
		if (first.event !== 'new') mislabelled.push(`${id} ${first.event}`);
		for (const emission of later) expect(emission.event).toBe('changed');
	}
	// Labels from what is known: a record seen for the first time is new (nothing was created before the start).
	expect(mislabelled).toEqual([]);
	return { records: feed.ids().length, emissions: emissions.length };
}

const seeds = Array.from({ length: 40 }, (_, i) => 1000 + i);

describe('randomized feed against ground truth', () => {
	test.each(seeds)('records with modification times, pages in order, seed %i', (seed) => {
		const random = seededRandom(seed * 7);
		const overlapMs = [0, 2000, 30_000][seed % 3];
		const { records, emissions } = checkAgainstGroundTruth({
			seed,
			feed: recordFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: random() < 0.5,
			overlapMs,
			maxLagMs: overlapMs,
			skewMs: Math.floor((random() - 0.5) * 600_000),
		});
		expect(records).toBeGreaterThan(10);
		expect(emissions).toBeGreaterThanOrEqual(records);
	});

	test.each(seeds.slice(0, 20))('records with modification times, read in windows, seed %i', (seed) => {
		const overlapMs = [0, 2000, 30_000][seed % 3];
		checkAgainstGroundTruth({
			seed,
			feed: unorderedFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: seed % 2 === 0,
			inclusiveBefore: seed % 4 < 2,
			overlapMs,
			maxLagMs: overlapMs,
			skewMs: [0, 300_000, -300_000][seed % 3],
		});
	});

	test.each(seeds.slice(0, 15))('selected events only, seed %i', (seed) => {
		const subsets: TriggerEvent[][] = [
			['new'],
			['changed'],
			['deleted'],
			['new', 'deleted'],
			['changed', 'deleted'],
		];
		checkAgainstGroundTruth({
			seed,
			feed: [recordFeed, untimedFeed, bareFeed][seed % 3],
			events: subsets[seed % subsets.length],
			exclusive: seed % 2 === 0,
			overlapMs: 5000,
			maxLagMs: 5000,
			skewMs: 0,
		});
	});

	// The service's clock minutes ahead of n8n's or behind it, with a re-read window far shorter than that.
	test.each(seeds.slice(0, 20))('poll clock, n8n minutes off the service, seed %i', (seed) => {
		checkAgainstGroundTruth({
			seed,
			feed: untimedFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: seed % 2 === 1,
			inclusiveBefore: seed % 4 >= 2,
			overlapMs: [5000, 60_000][seed % 2],
			maxLagMs: 5000,
			skewMs: [0, 300_000, -300_000, 7_200_000][seed % 4],
		});
	});

	test.each(seeds.slice(0, 10))('poll clock without created times (new: first seen), seed %i', (seed) => {
		checkAgainstGroundTruth({
			seed,
			feed: bareFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: seed % 2 === 0,
			overlapMs: 10_000,
			maxLagMs: 10_000,
			skewMs: [300_000, -300_000][seed % 2],
		});
	});

	// Issue #18: "Everything" over a large backlog, default cap, while the feed keeps changing.
	test.each([
		['pages in order', recordFeed, 0],
		['read in windows', unorderedFeed, 300_000],
		['poll clock', untimedFeed, -300_000],
		['poll clock, no created times', bareFeed, 300_000],
	] as const)(
		'a backlog is read about once, each version emitted once, in a small state (%s)',
		(_mode, def, skewMs) => {
			const random = seededRandom(99);
			const feed = new SimulatedFeed(T0);
			const ids: string[] = [];
			for (let i = 0; i < 20_000; i++) {
				feed.tick(Math.floor(random() * 30_000)); // about five days
				ids.push(feed.create().id);
				if (random() < 0.1) feed.edit(ids[Math.floor(random() * ids.length)]);
			}
			const options: CursorOptions = { events: ['new', 'changed', 'deleted'], maxPerPoll: 1000 };
			let state = startState(def, { from: 'everything' }, feed.clock, options);
			let read = 0;
			let polls = 0;
			const emitted = new Map<string, TriggerEvent[]>();
			const problems: string[] = [];
			let largest = 0;
			// Every emission's identity in order, and where each record was emitted as new.
			const order: string[] = [];
			const newAt = new Map<string, number[]>();
			for (let quiet = 0; quiet < 2; polls++) {
				feed.tick(60_000);
				if (polls < 20) {
					// Meanwhile: new records, edits of old ones (some emitted already), deletions, a late write.
					for (let i = 0; i < 20; i++) ids.push(feed.create(i === 0 ? 5000 : 0).id);
					for (let i = 0; i < 10; i++) feed.edit(ids[Math.floor(random() * ids.length)]);
					feed.remove(feed.live()[0]);
				}
				const poll = runPoll(
					state,
					(plan) => {
						const served = feed.serve(plan);
						read += served.records.length;
						return served;
					},
					def,
					options,
					() => feed.clock + skewMs,
				);
				state = JSON.parse(JSON.stringify(poll.state));
				largest = Math.max(largest, JSON.stringify(state).length);
				for (const { event, record } of poll.emit) {
					const version = `${record.id}:${fingerprintOf(record)}`;
					if (emitted.has(version)) problems.push(`${version} twice`);
					emitted.set(version, [event]);
					emitted.set(record.id, [...(emitted.get(record.id) ?? []), event]);
					if (event === 'new') newAt.set(record.id, [...(newAt.get(record.id) ?? []), order.length]);
					order.push(record.id);
				}
				quiet = poll.emit.length === 0 && poll.caughtUp ? quiet + 1 : 0;
				if (polls > 200) throw new Error('the backlog never drained');
			}
			for (const id of feed.ids()) {
				if (!emitted.has(`${id}:${fingerprintOf(feed.current(id))}`))
					problems.push(`${id}: final version missing`);
				const [first, ...again] = newAt.get(id) ?? [];
				// New again: never with created times; without, only after more than IDENTITY_MEMORY others were seen.
				for (const at of again) {
					if (def.createdAt || new Set(order.slice(first + 1, at)).size <= IDENTITY_MEMORY)
						problems.push(`${id}: new again`);
				}
			}
			expect(problems).toEqual([]);
			expect(largest).toBeLessThanOrEqual(64 * 1024);
			expect(read / feed.ids().length).toBeLessThanOrEqual(1.2);
			expect(polls).toBeLessThan(feed.ids().length / 1000 / 0.7);
		},
	);

	test('the state stays small while a busy feed runs for a long time', () => {
		const { largestState, emissions } = simulate({
			seed: 77,
			feed: recordFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: false,
			overlapMs: 0,
			maxLagMs: 0,
			skewMs: 0,
		});
		expect(emissions.length).toBeGreaterThan(100);
		// Bounded by the records sharing the boundary timestamp, not by the feed's size.
		expect(largestState).toBeLessThanOrEqual(8);
	});
});
