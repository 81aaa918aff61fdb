import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { CursorState } from '../../nodes/FieldOpsTrigger/state';
import { readState } from '../../nodes/FieldOpsTrigger/stored';
import { runPoll } from './simulated-feed';
import { feedToken, UPGRADE_AT, UPGRADE_KINDS, UPGRADE_POLLS, upgradeFeed, versionToken } from './upgrade';

/**
 * A workflow activated before the upgrade keeps its cursor: states that main's code stored (at 47e9026, half way
 * through a burst) are read, and polling goes on from them without emitting any version a second time, until
 * every record's last version is out.
 */

interface Stored {
	state: CursorState;
	/** The versions main's code emitted, 8 characters each. */
	emitted: string;
	feed: string;
}

const fixture = JSON.parse(readFileSync(join(__dirname, 'fixtures', 'states-47e9026.json'), 'utf8')) as {
	polls: number;
	kinds: Record<string, Stored>;
};

describe('a state stored by main (47e9026)', () => {
	test.each(UPGRADE_KINDS.map((kind) => [kind.name, kind] as const))(
		'%s: read, and polled on',
		(name, kind) => {
			const stored = fixture.kinds[name];
			expect(fixture.polls).toBe(UPGRADE_AT);
			const { feed, before, options } = upgradeFeed(kind);
			for (let i = 0; i < UPGRADE_AT; i++) before(i);
			expect(feedToken(feed)).toBe(stored.feed);

			let state = readState(stored.state, kind.feed, options(UPGRADE_AT)) as CursorState;
			expect(state).toBeDefined();
			expect(state.cursor).toBe(stored.state.cursor);
			const emitted = new Set(stored.emitted.match(/.{8}/g));
			const again: string[] = [];
			for (let i = UPGRADE_AT; i < UPGRADE_POLLS; i++) {
				before(i);
				const poll = runPoll(
					state,
					(plan) => feed.serve(plan),
					kind.feed,
					options(i),
					() => feed.clock,
				);
				state = JSON.parse(JSON.stringify(poll.state)) as CursorState;
				for (const { record } of poll.emit) {
					const version = versionToken(kind.feed, record);
					if (emitted.has(version)) again.push(`${record.id} rev ${record.rev}`);
					emitted.add(version);
				}
			}
			expect(again).toEqual([]);
			const missing = feed
				.ids()
				.flatMap((id) => feed.rowsOf(feed.current(id)))
				.filter((row) => Date.parse(row.modifiedDateTime) >= stored.state.floor)
				.filter((row) => !emitted.has(versionToken(kind.feed, row)));
			expect(missing.map((row) => `${row.id} rev ${row.rev}`)).toEqual([]);
		},
	);
});
