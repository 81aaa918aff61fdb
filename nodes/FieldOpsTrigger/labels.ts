import { passTime, type Memory } from './memory';
import type { Poll, TriggerEvent, Version } from './state';

/**
 * New, changed or deleted, from what is known. A tombstone is deleted; a record the trigger remembers handling
 * is changed. Otherwise it is new the first time the trigger sees it, unless Field Ops says it was created before
 * the trigger's start. Handled records are remembered two ways: `seen` (every version at or above the horizon,
 * so a record created there and not in it was never handled) and `ids` (the last IDENTITY_MEMORY identities,
 * none forgotten since `idsFrom`). A record created below the horizon was handled only if a version of it was
 * still there when the trigger first read past its creation (`passed`): one last modified (its time, at the latest)
 * before that read ended had moved on and was never handled (within a Date's second this leans to new). Only a
 * record edited both before and after that time, and forgotten since, is taken for changed although the trigger
 * never emitted it.
 */
export function classify<T>(version: Version<T>, { feed, state }: Poll<T>, memory: Memory): TriggerEvent {
	if (feed.isDeleted?.(version.record)) return 'deleted';
	if (memory.seen.has(version.id) || memory.ids.has(version.id)) return 'changed';
	const created = version.created;
	if (created === undefined) return 'new';
	if (created < state.floor) return 'changed';
	if (created >= state.horizon) return 'new';
	const passed = passTime(state, created);
	if (passed === undefined || version.at < passed.until) return 'new';
	return (state.idsFrom ?? -Infinity) <= passed.from ? 'new' : 'changed';
}
