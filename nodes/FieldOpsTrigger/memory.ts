/**
 * What is remembered of emitted records between polls, in and out of its compact stored form: the versions
 * handled within the re-read window (`seen`), the identities handled most recently (`ids`), and when the
 * trigger read past each time (`passed`).
 */
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
	/** Identity → the service's time of the read that handled it last. */
	ids: Map<string, number>;
	/** Versions `seen` may still take in the stored state, about (see roomOf). */
	room: number;
}

/** The state's memory, unpacked; `seen` has room for versions from `from` on (older ones are let go). */
export function recall(state: CursorState, from: number): Memory {
	const memory: Memory = { seen: new Map(), ids: new Map(), room: roomOf(state, from) };
	for (const [at, versions] of state.seen) {
		for (let i = 0; i < versions.length; i += 16) {
			memory.seen.set(versions.slice(i, i + 8), { fp: versions.slice(i + 8, i + 16), at });
		}
	}
	for (const [at, ids] of state.ids ?? []) {
		for (let i = 0; i < ids.length; i += 8) memory.ids.set(ids.slice(i, i + 8), at);
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

/** Identities the state keeps next to a `seen` of this many bytes (8 characters each, and their groups). */
export const identityCapacity = (seenBytes: number) =>
	Math.max(IDENTITY_MEMORY, Math.floor((MEMORY_BYTES - seenBytes) / 8.5));

/**
 * `seen` above the horizon, grouped by time; `ids`: the identities handled most recently (at least
 * IDENTITY_MEMORY), grouped by the read that handled them, and from when on none was forgotten.
 */
export function remember(
	memory: Memory,
	horizon: number,
	idsFrom: number | undefined,
): Pick<CursorState, 'seen' | 'ids' | 'idsFrom'> {
	const seen = grouped(
		[...memory.seen].filter(([, { at }]) => at >= horizon),
		({ at }) => at,
		(id, { fp }) => id + fp,
	);
	// Least recently handled first (recall and handling keep that order): the oldest are forgotten. They may
	// use what `seen` leaves of MEMORY_BYTES (a backlog being worked through needs little of it).
	const entries = [...memory.ids];
	const capacity = identityCapacity(JSON.stringify(seen).length);
	const forgotten = entries.slice(0, Math.max(0, entries.length - capacity));
	let from = idsFrom;
	for (const [, at] of forgotten) from = Math.max(from ?? -Infinity, at + 1);
	const ids = grouped(
		entries.slice(forgotten.length),
		(at) => at,
		(id) => id,
	);
	return { seen, ids: ids.length > 0 ? ids : undefined, idsFrom: from };
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
