/**
 * The trigger's cursor in a long soak against the simulated feed, one poll at a time as poll.ts runs it: field
 * traffic, late writes (at most one re-read window late), writes tied to the cursor's millisecond, edits while
 * pages are read; polls that fail part way (a dropped connection, a token that cannot be renewed, retries run out
 * on 429/5xx: nothing is stored), capped polls, and answers dated years off (a proxy with a wrong clock). Then a
 * burst of rows within one second (several rows per record for images), drained the same way.
 *
 * Judged against the feed's ground truth: duplicates, gaps, wrong labels, versions the cursor passed without
 * emitting them, records still waiting after a poll said it was caught up, executions over the cap other than
 * one millisecond's records, pages read ÷ pages needed after the burst (needed: each poll's emissions in pages
 * of its cap) and the largest state. The same driver runs in the suite (soak-sim.test.ts) and in the benchmark
 * (bench/trigger.ts).
 */
import { applyRead, beginPoll } from '../../nodes/FieldOpsTrigger/apply';
import { checkClock } from '../../nodes/FieldOpsTrigger/clock';
import { fingerprintOf } from '../../nodes/FieldOpsTrigger/hashing';
import { planRead } from '../../nodes/FieldOpsTrigger/plan';
import {
	startState,
	type CursorOptions,
	type CursorState,
	type Feed,
	type Poll,
	type ReadResult,
	type TriggerEvent,
} from '../../nodes/FieldOpsTrigger/state';
import {
	imageFeed,
	recordFeed,
	RefusedError,
	seededRandom,
	SimulatedFeed,
	untimedFeed,
	type FeedShape,
	type Rec,
} from './simulated-feed';

export interface SoakKind {
	name: string;
	feed: Feed<Rec>;
	shape: FeedShape;
	/** Records of the burst (rows: × `shape.rows`). */
	burstRecords: number;
	tombstones: boolean;
	/** The service cannot split a backlog by time (no ModifiedBefore): the cap does not bind then. */
	whole?: boolean;
}

export interface SoakFigures {
	kind: string;
	records: number;
	versions: number;
	polls: number;
	failedPolls: number;
	duplicates: number;
	gaps: number;
	/** Versions labelled otherwise than the first emission of a record created after the start (new) or not. */
	wrongLabels: number;
	waiting: number;
	/** Versions current at a poll that emitted less than its cap, before its stored cursor, and not emitted by it. */
	passedOver: number;
	overCap: number;
	burstRows: number;
	burstPolls: number;
	pagesRead: number;
	pagesNeeded: number;
	rowsRead: number;
	rowsEmitted: number;
	reread: number;
	largestState: number;
	problems: string[];
}

const T0 = Date.UTC(2026, 10, 23, 6, 0, 0);
const MINUTE = 60_000;
const ALL: TriggerEvent[] = ['new', 'changed', 'deleted'];
const WRONG_DATES = [Date.UTC(2031, 0, 1), Date.UTC(2020, 0, 1)];

class PollFailed extends Error {}

interface Fault {
	/** The poll fails before this page (0: the first). */
	failAt?: number;
	/** Its answers are dated so (a proxy with a wrong clock). */
	date?: number;
	/** Field work goes on while its pages are read. */
	busy?: boolean;
}

export function runSoak(kind: SoakKind, seed: number, overlapMs = MINUTE): SoakFigures {
	const random = seededRandom(seed);
	const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
	const feed = new SimulatedFeed(T0 - 3_600_000, kind.shape);
	const figures: SoakFigures = {
		...{ kind: kind.name, records: 0, versions: 0, polls: 0, failedPolls: 0, duplicates: 0, gaps: 0 },
		...{ wrongLabels: 0, waiting: 0, passedOver: 0, overCap: 0, burstRows: 0, burstPolls: 0 },
		...{
			pagesRead: 0,
			pagesNeeded: 0,
			rowsRead: 0,
			rowsEmitted: 0,
			reread: 0,
			largestState: 0,
			problems: [],
		},
	};
	const emitted: Array<{ event: TriggerEvent; record: Rec; at: number }> = [];
	const done = new Set<string>();
	const key = (record: Rec) => `${kind.feed.identity(record)}|${fingerprintOf(record)}`;
	// The keys of a version's rows, once per version (the ground truth keeps every version ever written).
	const rowKeys = new WeakMap<Rec, string[]>();
	const keysOf = (record: Rec) => {
		let keys = rowKeys.get(record);
		if (!keys) rowKeys.set(record, (keys = feed.rowsOf(record).map(key)));
		return keys;
	};
	const rowsPerPage = (cap: number) => Math.min(cap, 10_000 * (kind.shape.rows?.('') ?? 1));

	const traffic = (creates: number, edits: number, deletes: number, lagMs = 0) => {
		for (let i = 0; i < creates; i++) feed.create(random() < 0.1 ? between(0, lagMs) : 0, `n${i}`);
		const live = feed.live();
		for (let i = 0; i < edits && live.length; i++)
			feed.edit(live[between(0, live.length - 1)], random() < 0.1 ? between(0, lagMs) : 0, `e${i}`);
		for (let i = 0; i < deletes && kind.tombstones && live.length; i++)
			feed.remove(live[between(0, live.length - 1)]);
	};

	// An hour of history, then activation ("from now": the service's time from its first answer).
	for (let i = 0; i < 60; i++) {
		feed.tick(MINUTE);
		traffic(5, 3, 1);
	}
	const activation: CursorOptions = { events: ALL, maxPerPoll: 1000, overlapMs };
	let state: CursorState = startState(kind.feed, { from: 'now' }, feed.clock, activation);
	const floor = state.floor;

	/** When the poll that stored the current cursor began. */
	let movedAt = -Infinity;

	/** One poll; a fault ends it as a failed poll (nothing stored). */
	const poll = (cap: number, fault: Fault = {}) => {
		const opts: CursorOptions = { events: ALL, maxPerPoll: cap, overlapMs };
		let current: Poll<Rec> = beginPoll({ feed: kind.feed, options: opts }, state);
		let pages = 0;
		let rows = 0;
		const started = feed.clock;
		const page = () => {
			if (fault.failAt !== undefined && pages >= fault.failAt) throw new PollFailed();
			pages++;
		};
		figures.polls++;
		const cursor0 = state.cursor;
		unemittedNow();
		const writes = feed.written.length;
		try {
			while (!current.done) {
				const plan = planRead(current, feed.clock);
				page();
				let served: ReadResult<Rec>;
				try {
					served = feed.serve(plan, {
						betweenPages: () => {
							if (fault.busy && random() < 0.3) traffic(2, 2, 0);
							page();
						},
					});
				} catch (error) {
					if (!(error instanceof RefusedError) || !plan.probe) throw error;
					served = { records: [], complete: true, refused: true };
				}
				rows += served.records.length;
				if (fault.date !== undefined) served.serverTime = served.lastServerTime = fault.date;
				const checked = checkClock(served, feed.clock, feed.clock, current);
				// A Date far off stops the poll (with record times, n8n's clock stands in for one ahead).
				if (checked.off !== undefined) throw new PollFailed();
				current = applyRead(current, plan, checked.read, feed.clock);
			}
		} catch (error) {
			if (!(error instanceof PollFailed)) throw error;
			figures.failedPolls++;
			return { emitted: 0, pages, rows, caughtUp: false, failed: true };
		}
		state = JSON.parse(JSON.stringify(current.state)) as CursorState;
		figures.largestState = Math.max(figures.largestState, JSON.stringify(state).length);
		figures.reread += current.reread;
		if (current.emit.length > cap && !kind.whole) {
			const times = new Set(current.emit.map(({ record }) => record.modifiedDateTime));
			if (times.size > 1 && kind.feed.modifiedAt) figures.overCap++;
		}
		for (const { event, record } of current.emit) {
			emitted.push({ event, record, at: feed.clock });
			done.add(key(record));
		}
		if (current.caughtUp) figures.waiting += waitingAfter(started);
		passedOver(writes, started, cursor0);
		movedAt = started;
		return { emitted: current.emit.length, pages, rows, caughtUp: current.caughtUp, failed: false };
	};

	/**
	 * The cursor never passes a version it has not emitted. Versions current throughout a poll (visible when it
	 * began, not replaced while it ran), from the start on and before the cursor it stored, and not emitted by the
	 * end of it; left out only a late write that was behind the cursor already when it appeared (written after
	 * the poll that moved the cursor past its time began: the re-read window's, which the cap may delay, and which
	 * `waiting` counts once a poll says it is caught up).
	 */
	/** Each record's current version, until it is found emitted: id → its index, modification and visible time. */
	const unemitted = new Map<string, { index: number; modified: number; visible: number }>();
	let logged = 0;
	const unemittedNow = () => {
		for (; logged < feed.written.length; logged++) {
			const id = feed.written[logged];
			const index = (feed.history.get(id) ?? []).length - 1;
			const modified = Date.parse((feed.history.get(id) ?? [])[index].modifiedDateTime);
			unemitted.set(id, { index, modified, visible: (feed.visible.get(id) ?? [])[index] });
		}
	};
	const passed = new Set<string>();
	const passedOver = (writes: number, started: number, cursor0: number) => {
		const rewritten = new Set(feed.written.slice(writes));
		unemittedNow();
		for (const [id, { index, modified, visible }] of unemitted) {
			if (modified < floor) unemitted.delete(id);
			if (modified < floor || modified >= state.cursor || visible > started || rewritten.has(id)) continue;
			if (modified < cursor0 && visible > movedAt) continue;
			const left = keysOf((feed.history.get(id) ?? [])[index]).filter((rowKey) => !done.has(rowKey));
			if (left.length === 0) unemitted.delete(id);
			for (const rowKey of left) passed.add(rowKey);
		}
		figures.passedOver = passed.size;
	};

	/** Versions visible before the poll began, from before its Date's second, not emitted although caught up. */
	const waitingAfter = (started: number) => {
		let count = 0;
		for (const id of feed.ids()) {
			const history = feed.history.get(id) ?? [];
			const last = history.length - 1;
			const modified = Date.parse(history[last].modifiedDateTime);
			if ((feed.visible.get(id) ?? [])[last] >= started || modified >= Math.floor(started / 1000) * 1000)
				continue;
			if (modified < floor) continue;
			for (const rowKey of keysOf(history[last])) if (!done.has(rowKey)) count++;
		}
		return count;
	};

	// Two hours of field work with every fault.
	for (let i = 0; i < 120; i++) {
		feed.tick(between(40, 80) * 1000);
		traffic(between(5, 30), between(3, 20), between(0, 4), overlapMs);
		const roll = random();
		poll(roll < 0.2 ? between(5, 40) : roll < 0.3 ? 5000 : 1000, {
			busy: true,
			failAt: random() < 0.12 ? between(0, 2) : undefined,
			date: random() < 0.05 ? WRONG_DATES[between(0, 1)] : undefined,
		});
		// A write tied to the millisecond the cursor stopped at, right after the poll (when that is recent enough
		// to be a late write: at most one re-read window late).
		feed.tick(10);
		if (state.cursor > floor && feed.clock - (state.cursor - 1) <= overlapMs)
			feed.createAt(Math.min(state.cursor - 1, feed.clock), 'tied');
	}

	// The burst, just before a poll; drained at the default cap with some capped and failed polls, field work on.
	feed.tick(MINUTE);
	const burstStart = feed.clock;
	for (let i = 0; i < kind.burstRecords; i++) {
		if (i % Math.ceil(kind.burstRecords / 1000) === 0) feed.tick(1);
		feed.create(0, 'burst');
	}
	figures.burstRows = kind.burstRecords * (kind.shape.rows?.('') ?? 1);
	feed.tick(2000);
	for (let i = 0, quiet = 0; quiet < 2 && i < 400; i++) {
		const cap = i % 7 === 3 ? between(5, 40) : 1000;
		const result = poll(cap, { busy: true, failAt: i % 9 === 4 ? between(0, 1) : undefined });
		figures.burstPolls++;
		figures.pagesRead += result.pages;
		figures.rowsRead += result.rows;
		figures.rowsEmitted += result.emitted;
		if (!result.failed) figures.pagesNeeded += Math.ceil(result.emitted / rowsPerPage(cap));
		quiet = result.caughtUp && feed.clock - burstStart > 2 * overlapMs ? quiet + 1 : 0;
		feed.tick(MINUTE);
		traffic(between(2, 10), between(2, 10), between(0, 2), overlapMs);
	}
	for (let i = 0; i < 3; i++) {
		feed.tick(MINUTE);
		poll(1000);
	}
	judge(kind, feed, emitted, floor, figures);
	return figures;
}

function judge(
	kind: SoakKind,
	feed: SimulatedFeed,
	emitted: Array<{ event: TriggerEvent; record: Rec; at: number }>,
	floor: number,
	figures: SoakFigures,
): void {
	const identity = kind.feed.identity;
	const versions = new Set<string>();
	const byIdentity = new Map<string, Array<{ event: TriggerEvent; record: Rec; at: number }>>();
	emitted.forEach((entry) => {
		const version = `${identity(entry.record)}|${fingerprintOf(entry.record)}`;
		if (versions.has(version)) {
			figures.duplicates++;
			if (figures.problems.length < 20) figures.problems.push(`twice: ${version}`);
		}
		versions.add(version);
		byIdentity.set(identity(entry.record), [...(byIdentity.get(identity(entry.record)) ?? []), entry]);
	});
	figures.versions = emitted.length;
	for (const id of feed.ids()) {
		const history = feed.history.get(id) ?? [];
		if (!history.some((record) => Date.parse(record.modifiedDateTime) >= floor)) continue;
		figures.records++;
		const final = history[history.length - 1];
		for (const row of feed.rowsOf(final)) {
			const list = byIdentity.get(identity(row)) ?? [];
			const last = list[list.length - 1];
			const wanted = final.isDeleted
				? last?.event === 'deleted'
				: last !== undefined && fingerprintOf(last.record) === fingerprintOf(row);
			if (!wanted) {
				figures.gaps++;
				if (figures.problems.length < 20) figures.problems.push(`missing: ${identity(row)} rev ${final.rev}`);
			}
			// Seen for the first time: new unless created before the start; then changed; a tombstone deleted.
			let first = true;
			for (const { event, record } of list) {
				const expected: TriggerEvent = record.isDeleted
					? 'deleted'
					: first && Date.parse(record.createdDateTime) >= floor
						? 'new'
						: 'changed';
				if (!record.isDeleted) first = false;
				if (event === expected) continue;
				figures.wrongLabels++;
				if (figures.problems.length < 20)
					figures.problems.push(`${identity(record)} rev ${record.rev}: ${event}, not ${expected}`);
			}
		}
	}
}

/** Issue #26's soak per kind of feed: the suite (soak-sim.test.ts) and the benchmark (bench/trigger.ts) run these. */
export const SOAK_KINDS: SoakKind[] = [
	{
		name: 'images (5 rows per record, 3 sources)',
		feed: imageFeed,
		shape: { rows: () => 5, sources: 3 },
		burstRecords: 4000,
		tombstones: false,
	},
	{
		name: 'record time (pages in order)',
		feed: recordFeed,
		shape: {},
		burstRecords: 20_000,
		tombstones: true,
	},
	{ name: 'poll clock', feed: untimedFeed, shape: {}, burstRecords: 20_000, tombstones: true },
	{
		name: 'poll clock, ModifiedBefore refused',
		feed: { ...untimedFeed, beforeUnlisted: true },
		shape: { before: 'refused' },
		burstRecords: 20_000,
		tombstones: false,
		whole: true,
	},
];
