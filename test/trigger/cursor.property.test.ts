/**
 * Randomized, seeded and bounded: a feed is created, edited and deleted at random between polls and while a
 * poll pages (with late writes inside the overlap, inclusive or exclusive ModifiedSince, random page sizes,
 * random caps and failed polls), and the emitted stream is compared with the feed's ground truth.
 */
import {
	advance,
	fingerprintOf,
	modifiedSince,
	startState,
	type CursorOptions,
	type CursorState,
	type Feed,
	type TriggerEvent,
} from '../../nodes/FieldOpsTrigger/cursor';
import { deepFreeze, recordFeed, seededRandom, SimulatedFeed, untimedFeed, type Rec } from './simulated-feed';

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
	overlapMs: number;
	/** Late writes are stamped up to this long before they become visible. */
	maxLagMs: number;
	/** n8n's clock minus the server's (only the fallback reads n8n's clock after activation). */
	skewMs: number;
}

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
	let state: CursorState = startState(scenario.feed, { from: 'everything' }, feed.clock + scenario.skewMs, {
		...baseOptions,
		maxPerPoll: 1,
	});
	const emissions: Emission[] = [];
	const caughtUpAfter: boolean[] = [];
	let largestState = 0;

	function pollOnce(pollNumber: number, busy: boolean): boolean {
		if (busy) for (let i = between(0, 8); i > 0; i--) mutate();
		const options: CursorOptions = { ...baseOptions, maxPerPoll: random() < 0.15 ? Infinity : between(1, 6) };
		const now = feed.clock + scenario.skewMs;
		const records = feed.read(modifiedSince(state, options), {
			exclusive: scenario.exclusive,
			pageSize: between(1, 8),
			betweenPages: () => {
				if (busy && random() < 0.3) mutate();
			},
		});
		if (busy && random() < 0.1) return false; // the poll failed: its result is never stored
		const frozen = deepFreeze(state);
		const result = advance(frozen, records, scenario.feed, options, now);
		expect(result.emit.length).toBeLessThanOrEqual(options.maxPerPoll);
		for (const { event, record } of result.emit) emissions.push({ event, record, poll: pollNumber });
		caughtUpAfter[pollNumber] = result.caughtUp;
		state = JSON.parse(JSON.stringify(result.state)); // as n8n's static data would hand it back
		largestState = Math.max(largestState, state.seen.length);
		if (scenario.feed.modifiedAt) {
			// Bounded by the records inside the re-read window (just the boundary ties without an overlap).
			const from = Math.max(state.cursor - scenario.overlapMs, state.floor);
			expect(state.seen.length).toBeLessThanOrEqual(feed.ids().filter((id) => feed.modifiedAt(id) >= from).length);
		}
		return result.caughtUp;
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
	return { feed, emissions, caughtUpAfter, largestState, polls: pollNumber };
}

function checkAgainstGroundTruth(scenario: Scenario) {
	const { feed, emissions, caughtUpAfter } = simulate(scenario);
	const selected = new Set(scenario.events);
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
		if (!scenario.events.includes('new') || !scenario.events.includes('changed')) continue;
		// Labels: the first emission of a record is new (the start is "everything"), later ones changed,
		// except the documented case: re-emitted while a capped backlog was being worked through.
		emitted.forEach((emission, index) => {
			if (emission.event === 'deleted') return;
			if (index === 0) expect(emission.event).toBe('new');
			else if (emission.event === 'new') {
				expect(caughtUpAfter.slice(emitted[index - 1].poll, emission.poll)).toContain(false);
			}
		});
	}
	return { records: feed.ids().length, emissions: emissions.length };
}

const seeds = Array.from({ length: 40 }, (_, i) => 1000 + i);

describe('randomized feed against ground truth', () => {
	test.each(seeds)('records with modification times, seed %i', (seed) => {
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

	test.each(seeds.slice(0, 15))('selected events only, seed %i', (seed) => {
		const subsets: TriggerEvent[][] = [['new'], ['changed'], ['deleted'], ['new', 'deleted'], ['changed', 'deleted']];
		checkAgainstGroundTruth({
			seed,
			feed: recordFeed,
			events: subsets[seed % subsets.length],
			exclusive: seed % 2 === 0,
			overlapMs: 5000,
			maxLagMs: 5000,
			skewMs: 0,
		});
	});

	test.each(seeds.slice(0, 20))('fallback without modification times, seed %i', (seed) => {
		checkAgainstGroundTruth({
			seed,
			feed: untimedFeed,
			events: ['new', 'changed', 'deleted'],
			exclusive: seed % 2 === 1,
			overlapMs: 60_000,
			maxLagMs: 20_000,
			skewMs: [0, 10_000, -10_000][seed % 3],
		});
	});

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
