import { tokenOf } from './hashing';

export type TriggerEvent = 'new' | 'changed' | 'deleted';

export type StartFrom = { from: 'now' } | { from: 'date'; date: number } | { from: 'everything' };

/** How to read one feed's records; times are epoch milliseconds (see parseTimestamp). */
export interface Feed<T> {
	/** Stable identity: `id`, or `id|collectionRef|idRef` for image rows. */
	identity: (record: T) => string;
	/** Leave out for feeds whose records carry no modification time: the poll-clock mode is used. */
	modifiedAt?: (record: T) => number | undefined;
	/** The pages of one read come in `modifiedAt` order, across all pages: a read may stop early. */
	ordered?: boolean;
	createdAt?: (record: T) => number | undefined;
	isDeleted?: (record: T) => boolean;
	/** Content fingerprint; defaults to a hash of the record's canonical JSON. */
	fingerprint?: (record: T) => string;
	/**
	 * True to hold a record back (e.g. an image still waiting for its road reference): it and everything
	 * after it wait for a later poll, as with the cap, so nothing is skipped or reordered.
	 */
	holdBack?: (record: T) => boolean;
}

export interface CursorOptions {
	/** Events the user selected; the others are handled silently. */
	events: readonly TriggerEvent[];
	/** At most this many records emitted per poll; the rest follow on the next polls, oldest first. */
	maxPerPoll: number;
	overlapMs?: number;
}

/** [time, versions]: 16 characters per version, the hashes of its identity and of its content (8 each). */
export type SeenGroup = [number, string];

export interface CursorState {
	version: 2;
	/** 'modified': cursor from the records' modification times; 'polled': from the service's clock. */
	mode: 'modified' | 'polled';
	cursor: number;
	/** Reads start here; `seen` holds what was handled above it; nothing created before it is new again. */
	horizon: number;
	/** The chosen start: nothing older is ever requested. */
	floor: number;
	/** The service's time at the first read (the floor when it sent no Date). */
	activatedAt?: number;
	seen: SeenGroup[];
	/** Windowed reads: the next window's length (ms); `guess`: not measured, so probed with a small page. */
	span?: number;
	guess?: true;
	/** Windowed reads: a window ending here held too many; the next ones halve the way to it. */
	ceiling?: number;
	/** Identities (8 characters each) of records without a created time, least recently seen first. */
	ids?: string;
	/** The service's clock minus n8n's at the last read, to plan windows before the first answer. */
	offset?: number;
}

/** One read: its pages until the last, or until `stopAfter` records arrived. */
export interface ReadPlan {
	since: number;
	before?: number;
	chunkLimit: number;
	stopAfter?: number;
	/** A read stopped early is still used; otherwise its records are dropped and the window halved. */
	partial: boolean;
}

export interface ReadResult<T> {
	records: readonly T[];
	/** The last page read had no continuation token. */
	complete: boolean;
	/** The Date headers of the first and the last answer (epoch ms). */
	serverTime?: number;
	lastServerTime?: number;
}

export interface Emitted<T> {
	event: TriggerEvent;
	record: T;
}

export interface Poll<T> {
	state: CursorState;
	emit: Array<Emitted<T>>;
	reads: number;
	/** No further read in this poll: caught up, cap reached, held back, or the read budget spent. */
	done: boolean;
	caughtUp: boolean;
}

export const DEFAULT_OVERLAP_MS = 60_000;
/** Reads per poll at most (window searches, dropped windows); the next poll goes on from the state. */
export const MAX_READS_PER_POLL = 32;
/** Identities remembered for records without a created time (8 characters each: 32 KB). */
export const IDENTITY_MEMORY = 4096;
/** A window is sized to hold this share of the records the poll may still emit. */
export const FILL = 0.8;
/** While the density is unknown a window is probed with a page of 1/PROBE of the records allowed. */
export const PROBE = 8;
/** Records a window needs before its density is trusted. */
export const MIN_SAMPLE = 16;
/** A window is at most this many times longer than the last (a sample that straddled a quiet spell misleads). */
export const GROWTH = 2;
export const SHRINK = 8;
/** A windowed poll ends once less than this share of the cap is left. */
export const MIN_LEFT = 0.25;
export const MAX_CHUNK_LIMIT = 10_000;

export interface Version<T> {
	record: T;
	id: string;
	fp: string;
	at: number;
	created?: number;
	index: number;
}

export interface Memory {
	seen: Map<string, { fp: string; at: number }>;
	ids: Set<string>;
}

export const overlapOf = (options: CursorOptions) => Math.max(0, options.overlapMs ?? DEFAULT_OVERLAP_MS);
export const capOf = (options: CursorOptions) =>
	options.maxPerPoll >= 1 ? Math.floor(options.maxPerPoll) : 1;
export const modeOf = <T>(feed: Feed<T>) => (feed.modifiedAt ? 'modified' : 'polled');
export const chunk = (records: number) => Math.min(Math.max(1, Math.ceil(records)), MAX_CHUNK_LIMIT);
export const windowed = <T>(state: CursorState, feed: Feed<T>) => state.mode === 'polled' || !feed.ordered;

/**
 * State for a first activation. "From now" starts one overlap before the service's time (`serviceNow`: the
 * caller asks the service first), for records stamped just before they became visible.
 */
export function startState<T>(
	feed: Feed<T>,
	start: StartFrom,
	serviceNow: number,
	options: CursorOptions,
): CursorState {
	const floor =
		start.from === 'everything' ? 0 : start.from === 'date' ? start.date : serviceNow - overlapOf(options);
	const state: CursorState = {
		version: 2,
		mode: modeOf(feed),
		cursor: floor,
		horizon: floor,
		floor,
		seen: [],
	};
	if (start.from !== 'now') state.guess = true;
	return state;
}

/** The stored state if it is one this version understands for this feed, else undefined (start afresh). */
export function readState<T>(raw: unknown, feed: Feed<T>, options: CursorOptions): CursorState | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const state = raw as Record<string, unknown>;
	const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
	const optional = (value: unknown) => value === undefined || finite(value);
	if (
		state.mode !== modeOf(feed) ||
		!finite(state.cursor) ||
		!finite(state.floor) ||
		!Array.isArray(state.seen)
	) {
		return undefined;
	}
	if (state.version === 1) return fromVersion1(state, options);
	const valid =
		state.version === 2 &&
		finite(state.horizon) &&
		[state.activatedAt, state.span, state.ceiling, state.offset].every(optional) &&
		(state.guess === undefined || state.guess === true) &&
		(state.ids === undefined || (typeof state.ids === 'string' && state.ids.length % 8 === 0)) &&
		state.seen.every(
			(group) =>
				Array.isArray(group) &&
				group.length === 2 &&
				finite(group[0]) &&
				typeof group[1] === 'string' &&
				group[1].length % 16 === 0,
		);
	return valid ? (state as unknown as CursorState) : undefined;
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
	const memory: Memory = { seen: new Map(), ids: new Set() };
	// Version 1 stamped polled versions with the poll's start and kept them one overlap longer.
	const later = mode === 'polled' ? overlapOf(options) : 0;
	for (const [identity, fingerprint, at] of seen as Array<[string, string, number]>) {
		memory.seen.set(tokenOf(identity), { fp: tokenOf(fingerprint), at: at + later });
	}
	const horizon = Math.max(floor, cursor - overlapOf(options));
	return { version: 2, mode, cursor, horizon, floor, ...remember(memory, horizon) };
}

/** Versions in `seen` a read returns again: those above the horizon (all: also those on it). */
export function rereads(state: CursorState, all: boolean): number {
	let count = 0;
	for (const [at, versions] of state.seen) {
		if (all || at > state.horizon || state.mode === 'modified') count += versions.length / 16;
	}
	return count;
}

export function recall(state: CursorState): Memory {
	const memory: Memory = { seen: new Map(), ids: new Set() };
	for (const [at, versions] of state.seen) {
		for (let i = 0; i < versions.length; i += 16) {
			memory.seen.set(versions.slice(i, i + 8), { fp: versions.slice(i + 8, i + 16), at });
		}
	}
	for (let i = 0; i < (state.ids?.length ?? 0); i += 8) memory.ids.add((state.ids as string).slice(i, i + 8));
	return memory;
}

/** `seen` above the horizon, grouped by time, and the newest IDENTITY_MEMORY identities. */
export function remember(memory: Memory, horizon: number): Pick<CursorState, 'seen' | 'ids'> {
	const groups = new Map<number, string[]>();
	for (const [id, { fp, at }] of memory.seen) {
		if (at < horizon) continue;
		const group = groups.get(at);
		if (group) group.push(id + fp);
		else groups.set(at, [id + fp]);
	}
	const seen = [...groups]
		.sort(([a], [b]) => a - b)
		.map(([at, versions]): SeenGroup => [at, versions.join('')]);
	const ids = [...memory.ids].slice(-IDENTITY_MEMORY).join('');
	return ids ? { seen, ids } : { seen };
}
