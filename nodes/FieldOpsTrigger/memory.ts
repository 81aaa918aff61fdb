/**
 * What is remembered of handled records between polls, in and out of its compact stored form: the versions
 * handled within the re-read window (`seen`), the identities handled (`ids`, the most recent one by one; `idSet`,
 * a compact set of those before them), and when the trigger read past each time (`passed`).
 */
import { decode, fitted, holds, TOKEN_BITS, type CompactSet } from './compactSet';
import {
	IDENTITY_MEMORY,
	MEMORY_BYTES,
	PASSED_MEMORY,
	SEEN_BYTES,
	type CursorState,
	type Group,
} from './state';

export interface Memory {
	/** Identity → content hash and (latest possible) modification time of the version handled last. */
	seen: Map<string, { fp: string; at: number }>;
	/** Identity token → the service's time of the read that handled it last; least recently handled first. */
	ids: Map<string, number>;
	/** The identities handled before those in `ids`, since `idsFrom`: as stored, decoded, and the newest read. */
	set?: CompactSet & { values: number[]; until: number };
	/** The last read that handled a record without a creation time (see `firstSeen`). */
	firstSeen?: number;
	/** Versions `seen` may still take in the stored state, about (see roomOf). */
	room: number;
}

/** Whether the identity was handled before, as far as the memory tells (the compact set may say yes wrongly). */
export const handledBefore = (memory: Memory, id: string) =>
	memory.ids.has(id) || (memory.set !== undefined && holds(memory.set.values, memory.set.bits, id));

/** The last compact set decoded: a poll decodes the same one for each of its reads. */
let decoded: { data: string; values: number[] } | undefined;

/** The state's memory, unpacked; `seen` has room for versions from `from` on (older ones are let go). */
export function recall(state: CursorState, from: number): Memory {
	const memory: Memory = {
		seen: new Map(),
		ids: new Map(),
		firstSeen: state.firstSeen,
		room: roomOf(state, from),
	};
	for (const [at, versions] of state.seen) {
		for (let i = 0; i < versions.length; i += 16)
			memory.seen.set(versions.slice(i, i + 8), { fp: versions.slice(i + 8, i + 16), at });
	}
	for (const [at, ids] of state.ids ?? []) {
		for (let i = 0; i < ids.length; i += 8) memory.ids.set(ids.slice(i, i + 8), at);
	}
	if (state.idSet) {
		const { bits, count, data, until } = state.idSet;
		if (decoded?.data !== data) decoded = { data, values: decode({ bits, count, data }) };
		memory.set = { bits, count, data, values: decoded.values, until };
	}
	return memory;
}

function grouped<V>(
	entries: Iterable<[string, V]>,
	time: (value: V) => number,
	text: (id: string, value: V) => string,
) {
	const groups = new Map<number, string[]>();
	for (const [id, value] of entries) {
		const at = time(value);
		const group = groups.get(at);
		if (group) group.push(text(id, value));
		else groups.set(at, [text(id, value)]);
	}
	return [...groups].sort(([a], [b]) => a - b).map(([at, parts]): Group => [at, parts.join('')]);
}

/** Identities kept one by one next to a `seen` of this many bytes where no compact set takes the others. */
export const identityCapacity = (seenBytes: number) =>
	Math.max(IDENTITY_MEMORY, Math.floor((MEMORY_BYTES - seenBytes) / 8.5));
/** Identities kept one by one where the compact set takes the older ones. */
const RECENT_IDENTITIES = IDENTITY_MEMORY / 4;

/**
 * The memory in its stored form. `seen`: above the horizon, grouped by time. Identities, grouped by the read
 * that handled them: those of records with a creation time are let go once handled before `settled − overlap`
 * (labels.ts tells those from the time alone); the most recent are kept one by one, the older ones in the
 * compact set as far as it fits in what the rest leaves of MEMORY_BYTES. Those handled up to `firstSeen` may be
 * of records without a creation time, whose identity is all that tells they were handled: they are kept one by
 * one as long as they fit. `idsFrom`: from when on none was let go.
 */
export function remember(
	memory: Memory,
	next: CursorState,
	overlap: number,
): Pick<CursorState, 'seen' | 'ids' | 'idsFrom' | 'idSet' | 'firstSeen'> {
	const seen = grouped(
		[...memory.seen].filter(([, { at }]) => at >= next.horizon),
		({ at }) => at,
		(id, { fp }) => id + fp,
	);
	const seenChars = JSON.stringify(seen).length;
	let from = next.idsFrom;
	const letGo = (at: number) => {
		from = Math.max(from ?? -Infinity, at + 1);
	};
	const undated = memory.firstSeen;
	const byOne = (at: number) => undated !== undefined && at <= undated;
	// Least recently handled first (recall and handling keep that order).
	const entries = [...memory.ids];
	const undatedIds = entries.filter(([, at]) => byOne(at));
	let dated = entries.filter(([, at]) => !byOne(at));
	let set = memory.set;
	if (next.settled !== undefined) {
		const known = next.settled - overlap - 1000;
		for (const [, at] of dated) if (at < known) letGo(at);
		dated = dated.filter(([, at]) => at >= known);
		if (set && set.until < known) {
			letGo(set.until);
			set = undefined;
		}
	}
	const older = dated.slice(0, Math.max(0, dated.length - RECENT_IDENTITIES));
	dated = dated.slice(older.length);
	const kept = set || older.length > 0 ? IDENTITY_MEMORY : identityCapacity(seenChars);
	const forgotten = undatedIds.slice(0, Math.max(0, undatedIds.length - kept));
	for (const [, at] of forgotten) letGo(at);
	const ids = grouped(
		[...undatedIds.slice(forgotten.length), ...dated],
		(at) => at,
		(id) => id,
	);
	let idSet: CursorState['idSet'];
	if (set || older.length > 0) {
		const room = MEMORY_BYTES - seenChars - JSON.stringify(ids).length - 100;
		const added = older.map(([id]) => id);
		const coded =
			set && added.length === 0 && set.data.length <= room
				? { bits: set.bits, count: set.count, data: set.data }
				: fitted(set?.values ?? [], set?.bits ?? TOKEN_BITS, added, room);
		const until = older.reduce((newest, [, at]) => Math.max(newest, at), set?.until ?? -Infinity);
		if (coded) idSet = { ...coded, until };
		else letGo(until);
	}
	return {
		seen,
		ids: ids.length > 0 ? ids : undefined,
		idsFrom: from,
		idSet,
		firstSeen: undatedIds.length > forgotten.length ? undated : undefined,
	};
}

/** Versions `seen` may still take, about, when those from before `from` are gone. */
export function roomOf(state: CursorState, from: number): number {
	let groups = 0;
	let versions = 0;
	for (const [at, text] of state.seen) {
		if (at < from) continue;
		groups++;
		versions += text.length / 16;
	}
	return Math.max(0, Math.floor((SEEN_BYTES - seenBytes(groups, versions)) / 16));
}

/** Bytes `seen` takes in JSON (about): 16 per version and some per time. */
export const seenBytes = (groups: number, versions: number) => groups * 20 + versions * 16;

/** Versions in `seen` a read from `from` on returns again (a polled one's time is an upper bound: about). */
export function rereads(state: CursorState, from: number): number {
	let count = 0;
	for (const [at, versions] of state.seen) if (at >= from) count += versions.length / 16;
	return count;
}

/** When the trigger first read past `time`: the service's time of that read's first and last answer. */
export function passTime(state: CursorState, time: number): { from: number; until: number } | undefined {
	for (const [reach, from, until] of state.passed ?? []) if (reach > time) return { from, until };
	return undefined;
}

/** `passed` with a new reach; the oldest entries merge (a time then looks passed earlier: labels lean to "changed"). */
export function withPassed(
	state: CursorState,
	reach: number,
	from: number,
	until: number,
): CursorState['passed'] {
	const passed = [...(state.passed ?? [])];
	const last = passed[passed.length - 1];
	if (last && reach <= last[0]) return state.passed;
	if (last && last[1] === from) passed[passed.length - 1] = [reach, from, Math.max(until, last[2])];
	else passed.push([reach, from, until]);
	while (passed.length > PASSED_MEMORY) passed.splice(0, 2, [passed[1][0], passed[0][1], passed[0][2]]);
	return passed;
}
