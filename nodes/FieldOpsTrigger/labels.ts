import { handledBefore, passTime, type Memory } from './memory';
import { overlapOf, type Poll, type TriggerEvent, type Version } from './state';

/**
 * New, changed or deleted: a version is `new` if no version of its record was handled before (and Field Ops does
 * not say it was created before the trigger's start), `changed` otherwise; a tombstone is `deleted`. Decided by
 * what is certain first, then by what is remembered:
 * - Remembered identities (`ids`, then the compact `idSet`, which may take a record never handled for one that
 *   was: then `changed`, never a record dropped).
 * - Created at or above the horizon: every version handled since is in `seen`, so not remembered means new.
 * - Created a re-read window or more before a poll that caught up began (`settled`): it was visible then, and a
 *   caught-up poll handles every visible record: changed.
 * - Visible before the first read that handled or passed its creation time (`passed`: its time plus a re-read
 *   window at the latest, before that read began): it had moved on, and no read before could reach it: new.
 * - Otherwise remembered or not, where no identity handled since that read was let go (`idsFrom`); beyond that,
 *   new if last modified before that read ended, else changed.
 * A record without a creation time is new the first time its identity is seen.
 */
export function classify<T>(
	version: Version<T>,
	{ feed, state, options }: Poll<T>,
	memory: Memory,
): TriggerEvent {
	if (feed.isDeleted?.(version.record)) return 'deleted';
	if (memory.seen.has(version.id) || memory.ids.has(version.id)) return 'changed';
	const created = version.created;
	const remembered = () => (handledBefore(memory, version.id) ? 'changed' : 'new');
	if (created === undefined) return remembered();
	if (created < state.floor) return 'changed';
	if (created >= state.horizon) return 'new';
	const overlap = overlapOf(options);
	if (state.settled !== undefined && created + overlap <= state.settled) return 'changed';
	const passed = passTime(state, created);
	if (passed === undefined || version.at + overlap <= passed.from) return 'new';
	if ((state.idsFrom ?? -Infinity) <= passed.from) return remembered();
	return version.at < passed.until ? 'new' : 'changed';
}
