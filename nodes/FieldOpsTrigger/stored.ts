/** Reading a stored state: this version's, or an earlier one moved on to it (saved workflows keep their cursor). */
import { tokenOf } from './hashing';
import { modeOf, overlapOf, type CursorOptions, type CursorState, type Feed, type Group } from './state';

type Raw = Record<string, unknown>;

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

/** The fields versions 3 and 4 share, checked. */
const sharedValid = (state: Raw) =>
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
		state.usual,
	].every((value) => value === undefined || finite(value)) &&
	(state.guess === undefined || state.guess === true) &&
	(state.up === undefined || state.up === true) &&
	(state.before === undefined || typeof state.before === 'boolean') &&
	(state.ids === undefined || groupsOf(state.ids, 8)) &&
	(state.passed === undefined ||
		(Array.isArray(state.passed) &&
			state.passed.every((entry) => Array.isArray(entry) && entry.length === 3 && entry.every(finite))));

const idSetValid = (set: unknown) => {
	if (set === undefined) return true;
	const { bits, count, data, until } = (set ?? {}) as Raw;
	return (
		Number.isInteger(bits) &&
		(bits as number) >= 1 &&
		(bits as number) <= 48 &&
		Number.isInteger(count) &&
		typeof data === 'string' &&
		/^[\w-]*$/.test(data) &&
		finite(until)
	);
};

/** The stored state if it is one this version understands for this feed, else undefined (start afresh). */
export function readState<T>(raw: unknown, feed: Feed<T>, options: CursorOptions): CursorState | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const state = raw as Raw;
	if (
		state.mode !== modeOf(feed) ||
		!finite(state.cursor) ||
		!finite(state.floor) ||
		!Array.isArray(state.seen)
	)
		return undefined;
	if (state.version === 1) return fromVersion3(fromVersion1(state, options));
	if (state.version === 2) return fromVersion3(fromVersion2(state));
	if (state.version === 3) return fromVersion3(state);
	const valid =
		state.version === 4 &&
		sharedValid(state) &&
		groupsOf(state.seen, 16) &&
		idSetValid(state.idSet) &&
		[state.settled, state.firstSeen].every((value) => value === undefined || finite(value));
	return valid ? (state as unknown as CursorState) : undefined;
}

/**
 * Version 4 adds a compact set of identities, the time the trigger last caught up, and `firstSeen`: version 3's
 * identities may be of records without a creation time, so they are kept one by one, as version 3 kept them.
 */
function fromVersion3(state: Raw | undefined): CursorState | undefined {
	if (!state || !sharedValid(state) || !groupsOf(state.seen, 16)) return undefined;
	const reads = ((state.ids as Group[] | undefined) ?? []).map(([at]) => at);
	const firstSeen = Math.max(state.cursor as number, ...reads);
	return { ...state, version: 4, firstSeen } as unknown as CursorState;
}

/**
 * Version 2 kept the identities of records without a created time in one string, least recent first: they
 * become one group; identities handled from now on are all remembered (`idsFrom`).
 */
function fromVersion2(state: Raw): Raw | undefined {
	if (!finite(state.horizon)) return undefined;
	const { ids, ...rest } = state;
	const text = typeof ids === 'string' && ids.length % 8 === 0 ? ids : '';
	const at = (state.activatedAt as number | undefined) ?? (state.floor as number);
	const migrated: Raw = { ...rest, version: 3, idsFrom: state.cursor as number };
	if (text) migrated.ids = [[at, text]];
	return migrated;
}

/** Version 1 kept identities in clear and re-read from cursor − overlap: the same position, hashed. */
function fromVersion1(state: Raw, options: CursorOptions): Raw | undefined {
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
