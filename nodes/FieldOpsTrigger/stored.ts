/** Reading a stored state: this version's, or an older one moved on to it. */
import { tokenOf } from './hashing';
import { modeOf, overlapOf, type CursorOptions, type CursorState, type Feed } from './state';

const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
const groupsOf = (value: unknown, width: number) =>
	Array.isArray(value) &&
	value.every(
		(group) =>
			Array.isArray(group) &&
			group.length === 2 &&
			finite(group[0]) &&
			typeof group[1] === 'string' &&
			group[1].length % width === 0,
	);

/** The stored state if it is one this version understands for this feed, else undefined (start afresh). */
export function readState<T>(raw: unknown, feed: Feed<T>, options: CursorOptions): CursorState | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const state = raw as Record<string, unknown>;
	if (
		state.mode !== modeOf(feed) ||
		!finite(state.cursor) ||
		!finite(state.floor) ||
		!Array.isArray(state.seen)
	)
		return undefined;
	if (state.version === 1) return fromVersion1(state, options);
	if (state.version === 2) return fromVersion2(state);
	const valid =
		state.version === 3 &&
		finite(state.horizon) &&
		[
			state.activatedAt,
			state.span,
			state.ceiling,
			state.offset,
			state.fanout,
			state.sources,
			state.idsFrom,
			state.tail,
		].every((value) => value === undefined || finite(value)) &&
		(state.guess === undefined || state.guess === true) &&
		(state.up === undefined || state.up === true) &&
		(state.before === undefined || typeof state.before === 'boolean') &&
		groupsOf(state.seen, 16) &&
		(state.ids === undefined || groupsOf(state.ids, 8)) &&
		(state.passed === undefined ||
			(Array.isArray(state.passed) &&
				state.passed.every((entry) => Array.isArray(entry) && entry.length === 3 && entry.every(finite))));
	return valid ? (state as unknown as CursorState) : undefined;
}

/**
 * Version 2 kept the identities of records without a created time in one string, least recent first: they
 * become one group; identities handled from now on are all remembered (`idsFrom`).
 */
function fromVersion2(state: Record<string, unknown>): CursorState | undefined {
	if (!finite(state.horizon) || !groupsOf(state.seen, 16)) return undefined;
	const { ids, ...rest } = state;
	const text = typeof ids === 'string' && ids.length % 8 === 0 ? ids : '';
	const at = (state.activatedAt as number | undefined) ?? (state.floor as number);
	const migrated = { ...rest, version: 3, idsFrom: state.cursor as number } as unknown as CursorState;
	if (text) migrated.ids = [[at, text]];
	return migrated;
}

/** Version 1 kept identities in clear and re-read from cursor − overlap: the same position, hashed. */
function fromVersion1(state: Record<string, unknown>, options: CursorOptions): CursorState | undefined {
	const seen = state.seen as unknown[];
	const valid = seen.every(
		(entry) =>
			Array.isArray(entry) &&
			typeof entry[0] === 'string' &&
			typeof entry[1] === 'string' &&
			typeof entry[2] === 'number',
	);
	if (!valid || typeof state.newFrom !== 'number') return undefined;
	const cursor = state.cursor as number;
	const floor = state.floor as number;
	const mode = state.mode as CursorState['mode'];
	// Version 1 stamped polled versions with the poll's start and kept them one overlap longer.
	const later = mode === 'polled' ? overlapOf(options) : 0;
	const groups = new Map<number, string>();
	for (const [identity, fingerprint, at] of seen as Array<[string, string, number]>) {
		const time = at + later;
		groups.set(time, (groups.get(time) ?? '') + tokenOf(identity) + tokenOf(fingerprint));
	}
	const horizon = Math.max(floor, cursor - overlapOf(options));
	const kept = [...groups].filter(([time]) => time >= horizon).sort(([a], [b]) => a - b);
	return { version: 3, mode, cursor, horizon, floor, seen: kept, idsFrom: cursor };
}
