/**
 * A workflow's life across an upgrade: field work on a simulated feed, polled by one version of the trigger's core
 * for `UPGRADE_AT` polls (capped, so a backlog is left half-worked), then by another from the state the first one
 * stored. The field work depends only on the seed, never on what was emitted, so both halves see the same feed.
 * `upgrade.test.ts` runs the second half from states that main's code wrote (fixtures/states-47e9026.json, made
 * by `npx tsx test/trigger/fixtures/make-states.ts`).
 */
import { fingerprintOf, tokenOf } from '../../nodes/FieldOpsTrigger/hashing';
import type { CursorOptions, Feed, TriggerEvent } from '../../nodes/FieldOpsTrigger/state';
import {
	imageFeed,
	recordFeed,
	seededRandom,
	SimulatedFeed,
	untimedFeed,
	type FeedShape,
	type Rec,
} from './simulated-feed';

export const UPGRADE_AT = 24;
export const UPGRADE_POLLS = 60;
const T0 = Date.UTC(2026, 10, 24, 7, 0, 0);
const ALL: TriggerEvent[] = ['new', 'changed', 'deleted'];

export interface UpgradeKind {
	name: string;
	feed: Feed<Rec>;
	shape: FeedShape;
	tombstones: boolean;
}

export const UPGRADE_KINDS: UpgradeKind[] = [
	{ name: 'record time', feed: recordFeed, shape: {}, tombstones: true },
	{ name: 'images', feed: imageFeed, shape: { rows: () => 2, sources: 3 }, tombstones: false },
	{ name: 'poll clock', feed: untimedFeed, shape: {}, tombstones: true },
];

/** The feed before activation, and the field work before poll `i` (a burst before poll 18, worked off by 26). */
export function upgradeFeed(kind: UpgradeKind, seed = 5) {
	const random = seededRandom(seed);
	const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));
	const feed = new SimulatedFeed(T0, kind.shape);
	const work = (creates: number, edits: number, deletes: number) => {
		for (let i = 0; i < creates; i++) feed.create(random() < 0.1 ? between(0, 30_000) : 0);
		const live = feed.live();
		for (let i = 0; i < edits && live.length; i++) feed.edit(live[between(0, live.length - 1)]);
		for (let i = 0; i < deletes && kind.tombstones && live.length; i++)
			feed.remove(live[between(0, live.length - 1)]);
	};
	for (let i = 0; i < 20; i++) {
		feed.tick(60_000);
		work(4, 2, 1);
	}
	const before = (i: number) => {
		feed.tick(between(40, 80) * 1000);
		if (i === 18) {
			for (let j = 0; j < 1000; j++) {
				if (j % 10 === 0) feed.tick(1);
				feed.create();
			}
		}
		work(between(2, 8), between(1, 6), between(0, 2));
	};
	/** The options of poll `i`: capped, so the burst takes several polls. */
	const options = (i: number): CursorOptions => ({
		events: ALL,
		maxPerPoll: i % 5 === 2 ? 3 + ((i * 7) % 18) : 150,
		overlapMs: 60_000,
	});
	return { feed, before, options };
}

/** Every record's current version in one token: the feed is the same when this is. */
export const feedToken = (feed: SimulatedFeed) =>
	tokenOf(
		feed
			.ids()
			.map((id) => `${id}:${fingerprintOf(feed.current(id))}`)
			.join(),
	);

/** A version as the fixtures hold it: identity and content in 8 characters. */
export const versionToken = (feed: Feed<Rec>, row: Rec) =>
	tokenOf(`${feed.identity(row)}|${fingerprintOf(row)}`);
