/**
 * Cursor of the Field Ops Trigger: for one poll of one reporting feed, which reads to make (ModifiedSince,
 * ModifiedBefore, page size), which records to emit (new / changed / deleted, oldest first, at most
 * `maxPerPoll`) and the next state.
 *
 * Pure: no I/O, no clock. The caller loops `planRead` → read the pages → `applyRead` until the poll is `done`,
 * passing n8n's clock (`now`) and the service's (each read's HTTP `Date` header), and stores the state only
 * after the last read, so a failed poll leaves the stored state exactly as it was.
 *
 * Rules:
 * - Everything modified before `cursor` has been handled. Mode 'modified' (the records show their modification
 *   time): the cursor is the newest time handled, never a clock. Mode 'polled' (they do not): the cursor is the
 *   end of the last `ModifiedBefore` window read whole, or the service's time (the Date header of the read's
 *   first answer) for a read to the present; never n8n's clock, so a skew between the two cannot duplicate or
 *   drop records. Without a Date header n8n's clock stands in (then the re-read window must cover the skew).
 * - Late writes: reads start at `horizon`, one re-read window (`overlapMs`) before the cursor, so a record
 *   stamped before it became visible is still caught if it is at most that late; later writes are missed. A
 *   polled window that closed a re-read window before the service's time needs no re-read but its last
 *   millisecond. `seen` holds every version handled at or above the horizon (48-bit hashes of identity and
 *   content), so a re-read emits nothing and a record edited again is emitted again as `changed`.
 * - Boundaries: modified mode sends ModifiedSince 1 ms early and ignores what is older than the horizon; polled
 *   windows overlap by 1 ms and `seen` dedupes it; so neither an exclusive ModifiedSince nor an inclusive
 *   ModifiedBefore can skip or repeat a record.
 * - Backlogs are read once. Feeds whose pages come in modification order (`ordered`) stop reading once they hold
 *   the cap plus what the re-read returns, and the cursor stops at the last record read. The others read
 *   ModifiedBefore windows sized from the records per millisecond of the last one, to hold about 80 % of what
 *   the poll may still emit; several per poll. A window found too full after its first page is dropped unread
 *   and halved (while the density is unknown, e.g. "Everything", that page is an eighth of the cap). A window of
 *   one millisecond cannot shrink: it is read whole and worked through over several polls, as is a window the
 *   cap or `holdBack` cut. Records sharing one millisecond (or, ordered, one time) beyond the cap are read again
 *   on each poll until all are emitted.
 * - Events: a tombstone (`isDeleted`) is `deleted`; a record in `seen` is `changed`. Otherwise, with a created
 *   time, `new` when created at or after the horizon; a record modified before activation (the service's time
 *   at the first read, minus the re-read window) was never emitted, so it is `new` when created at or after the
 *   start. Every record dropped from `seen` was created before the horizon, which only moves on: a record
 *   emitted as `new` is never `new` again. The price: a record never emitted, created before the horizon and
 *   first read after it (edited before the trigger reached it) is `changed`. Without a created time a record
 *   is `new` the first time its identity is seen; `ids` remembers the last IDENTITY_MEMORY identities seen
 *   (32 KB), so a record changed again after more than that many others may be `new` again.
 * - Unselected events advance the cursor like emitted ones and do not count against the cap.
 */

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
const MAX_READS_PER_POLL = 32;
/** Identities remembered for records without a created time (8 characters each: 32 KB). */
export const IDENTITY_MEMORY = 4096;
/** A window is sized to hold this share of the records the poll may still emit. */
const FILL = 0.8;
/** While the density is unknown a window is probed with a page of 1/PROBE of the records allowed. */
const PROBE = 8;
/** Records a window needs before its density is trusted. */
const MIN_SAMPLE = 16;
/** A window is at most this many times longer than the last (a sample that straddled a quiet spell misleads). */
const GROWTH = 2;
const SHRINK = 8;
/** A windowed poll ends once less than this share of the cap is left. */
const MIN_LEFT = 0.25;
const MAX_CHUNK_LIMIT = 10_000;

interface Version<T> {
	record: T;
	id: string;
	fp: string;
	at: number;
	created?: number;
	index: number;
}

interface Memory {
	seen: Map<string, { fp: string; at: number }>;
	ids: Set<string>;
}

const overlapOf = (options: CursorOptions) => Math.max(0, options.overlapMs ?? DEFAULT_OVERLAP_MS);
const capOf = (options: CursorOptions) => (options.maxPerPoll >= 1 ? Math.floor(options.maxPerPoll) : 1);
const modeOf = <T>(feed: Feed<T>) => (feed.modifiedAt ? 'modified' : 'polled');
const chunk = (records: number) => Math.min(Math.max(1, Math.ceil(records)), MAX_CHUNK_LIMIT);
const windowed = <T>(state: CursorState, feed: Feed<T>) => state.mode === 'polled' || !feed.ordered;

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

export function beginPoll<T>(state: CursorState): Poll<T> {
	return { state, emit: [], reads: 0, done: false, caughtUp: false };
}

/** The next read of a poll that is not `done`. `now` is n8n's clock, only used to guess the service's. */
export function planRead<T>(poll: Poll<T>, feed: Feed<T>, options: CursorOptions, now: number): ReadPlan {
	const { state } = poll;
	const cap = capOf(options);
	const left = cap - poll.emit.length;
	// Records the read returns again: what `seen` holds above the horizon; a partial read counts all of it.
	const all = left + rereads(state, true);
	if (!windowed(state, feed)) {
		return { since: Math.max(0, state.horizon - 1), chunkLimit: chunk(all), stopAfter: all, partial: true };
	}
	const since = state.mode === 'modified' ? Math.max(0, state.horizon - 1) : state.horizon;
	const serviceNow = now + (state.offset ?? 0);
	const from = state.cursor;
	let before: number | undefined;
	if (state.ceiling !== undefined && state.ceiling > from) {
		before = from + Math.max(1, Math.floor((state.ceiling - from) / 2));
	} else if (state.span !== undefined) {
		const share = state.guess || !Number.isFinite(cap) ? 1 : left / cap;
		before = from + Math.max(1, Math.round(state.span * share));
		if (before >= serviceNow) before = undefined;
	}
	if ((before ?? serviceNow) - from <= 1) {
		return { since, before, chunkLimit: chunk(all + 1), stopAfter: all + 1, partial: true };
	}
	const again = rereads(state, false);
	const size = state.guess ? chunk(again + left / PROBE + 1) : chunk(again + left + 1);
	return {
		since,
		before,
		chunkLimit: size,
		stopAfter: state.guess ? size : again + left + 1,
		partial: false,
	};
}

/** Decides one read: its records, in the order received. */
export function applyRead<T>(
	poll: Poll<T>,
	plan: ReadPlan,
	read: ReadResult<T>,
	feed: Feed<T>,
	options: CursorOptions,
	now: number,
): Poll<T> {
	const { state } = poll;
	const overlap = overlapOf(options);
	const cap = capOf(options);
	const polled = state.mode === 'polled';
	const inWindows = windowed(state, feed);
	const reads = poll.reads + 1;
	const serviceTime = read.serverTime ?? now;
	const next: CursorState = { ...state, activatedAt: state.activatedAt ?? read.serverTime ?? state.floor };
	if (read.serverTime !== undefined) next.offset = read.serverTime - now;

	if (inWindows && !read.complete && !plan.partial) {
		// Too many for one poll: dropped unread, and the next window goes half way to this one's end.
		next.ceiling = Math.max(plan.before ?? serviceTime, state.cursor + 1);
		next.guess = true;
		delete next.span;
		return { ...poll, state: next, reads, done: reads >= MAX_READS_PER_POLL, caughtUp: false };
	}

	// A polled version is stamped with the latest time it can have: its window's end, or the last answer's.
	const latest = Math.min((plan.before ?? Infinity) - 1, (read.lastServerTime ?? serviceTime) + 999);
	const versions = latestVersions(read.records, feed, polled ? latest : state.cursor);
	const memory = recall(state);
	const pending = versions.filter((version) => {
		const known = memory.seen.get(version.id);
		if (known?.fp !== version.fp) return polled || version.at >= state.horizon;
		// Read again: a polled version is kept while reads may still return it (an inclusive ModifiedBefore
		// returns it one window later than its stamp says).
		if (polled) known.at = Math.max(known.at, version.at);
		return false;
	});
	const activated = (next.activatedAt as number) - overlap;
	const windowBeforeActivation = plan.before !== undefined && plan.before <= activated;
	const selected = new Set(options.events);
	const emit = [...poll.emit];
	let heldBackAt: number | undefined;
	let waiting = false;
	let handled = 0;
	for (const version of pending) {
		const event = classify(
			version,
			feed,
			memory,
			state,
			polled ? windowBeforeActivation : version.at < activated,
		);
		if (selected.has(event)) {
			waiting = emit.length < cap && feed.holdBack?.(version.record) === true;
			if (emit.length >= cap || waiting) {
				heldBackAt = version.at;
				break;
			}
			emit.push({ event, record: version.record });
		}
		handled++;
		memory.seen.set(version.id, { fp: version.fp, at: version.at });
		if (version.created === undefined) {
			memory.ids.delete(version.id);
			memory.ids.add(version.id);
		}
	}

	const newest = (list: Array<Version<T>>) =>
		list.reduce((time, version) => Math.max(time, version.at), -Infinity);
	const all = heldBackAt === undefined;
	let cursor = state.cursor;
	let caughtUp = false;
	if (!inWindows) {
		// In order: nothing older than the last record read is still unread.
		cursor = Math.max(cursor, all ? newest(read.complete ? pending : versions) : (heldBackAt as number));
		caughtUp = read.complete && all;
	} else if (read.complete && all) {
		caughtUp = plan.before === undefined || plan.before > serviceTime;
		if (polled) cursor = Math.max(cursor, Math.min(plan.before ?? Infinity, serviceTime));
		else cursor = Math.max(cursor, caughtUp ? newest(pending) : (plan.before as number));
	} else if (!polled && read.complete) {
		cursor = Math.max(cursor, heldBackAt as number);
	}
	// Otherwise (polled, cut by the cap or unread pages) the window is read again and `seen` dedupes it.

	if (inWindows) {
		const length = (plan.before === undefined ? Math.max(serviceTime, cursor) : plan.before) - state.cursor;
		if (caughtUp) {
			delete next.span;
			delete next.guess;
			delete next.ceiling;
		} else if ((read.complete && all) || (!all && !waiting)) {
			// Sized from this window's records per millisecond, to hold FILL of a poll's cap. A window with
			// records that fit ends the search below a ceiling; an empty one only narrows it.
			if (pending.length > 0) delete next.ceiling;
			if (pending.length >= Math.min(MIN_SAMPLE, (cap * FILL) / PROBE) || !all) {
				const span = (length * FILL * cap) / Math.max(1, pending.length);
				next.span = Math.min(Math.max(span, length / SHRINK), length * GROWTH);
				delete next.guess;
			} else {
				next.span = Math.max(1, length) * GROWTH;
				next.guess = true;
			}
		}
	}

	next.cursor = cursor;
	next.horizon = Math.max(
		state.horizon,
		polled ? Math.min(cursor - 1, serviceTime - overlap) : cursor - overlap,
		state.floor,
	);
	Object.assign(next, remember(memory, next.horizon));
	if (next.ids === undefined) delete next.ids;

	const progressed = cursor > state.cursor || handled > 0;
	let done = reads >= MAX_READS_PER_POLL || caughtUp || waiting || emit.length >= cap || !progressed;
	if (inWindows && emit.length > poll.emit.length && cap - emit.length < cap * MIN_LEFT) done = true;
	return { state: next, emit, reads, done, caughtUp };
}

/** ModifiedSince and ModifiedBefore of a read, as the API takes them (ISO 8601, UTC). */
export function queryOf(plan: ReadPlan): { ModifiedSince: string; ModifiedBefore?: string } {
	const iso = (time: number) => new Date(time).toISOString();
	return {
		ModifiedSince: iso(plan.since),
		...(plan.before === undefined ? {} : { ModifiedBefore: iso(plan.before) }),
	};
}

/** "Fetch Test Event": the newest `count` records (oldest of them first); it has no state to touch. */
export function newestForTest<T>(
	records: readonly T[],
	feed: Feed<T>,
	options: CursorOptions,
	count = 3,
): Array<Emitted<T>> {
	const selected = new Set(options.events);
	const versions = latestVersions(records, feed, 0);
	const picked: Array<Emitted<T>> = [];
	for (let i = versions.length - 1; i >= 0 && picked.length < count; i--) {
		const record = versions[i].record;
		const created = versions[i].created;
		const modified = feed.modifiedAt?.(record);
		// No state: a record never edited since its creation, or of unknown creation (first seen), is new.
		const event: TriggerEvent = feed.isDeleted?.(record)
			? 'deleted'
			: created === undefined || modified === undefined || created >= modified
				? 'new'
				: 'changed';
		if (selected.has(event)) picked.unshift({ event, record });
	}
	return picked;
}

function classify<T>(
	version: Version<T>,
	feed: Feed<T>,
	memory: Memory,
	state: CursorState,
	beforeActivation: boolean,
): TriggerEvent {
	if (feed.isDeleted?.(version.record)) return 'deleted';
	if (memory.seen.has(version.id)) return 'changed';
	if (version.created === undefined)
		return beforeActivation || !memory.ids.has(version.id) ? 'new' : 'changed';
	return version.created >= (beforeActivation ? state.floor : state.horizon) ? 'new' : 'changed';
}

/** Versions in `seen` a read returns again: those above the horizon (all: also those on it). */
function rereads(state: CursorState, all: boolean): number {
	let count = 0;
	for (const [at, versions] of state.seen) {
		if (all || at > state.horizon || state.mode === 'modified') count += versions.length / 16;
	}
	return count;
}

function recall(state: CursorState): Memory {
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
function remember(memory: Memory, horizon: number): Pick<CursorState, 'seen' | 'ids'> {
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

/**
 * One version per identity, oldest first. A record edited while the pages were read shows up twice: the
 * newest copy wins (on equal times, the later one received) and takes its place in the order.
 */
function latestVersions<T>(records: readonly T[], feed: Feed<T>, fallbackAt: number): Array<Version<T>> {
	const byIdentity = new Map<string, Version<T>>();
	records.forEach((record, index) => {
		const identity = feed.identity(record);
		const at = feed.modifiedAt?.(record) ?? fallbackAt;
		const known = byIdentity.get(identity);
		if (known && known.at > at) return;
		const fingerprint = feed.fingerprint ? feed.fingerprint(record) : fingerprintOf(record);
		byIdentity.set(identity, {
			record,
			id: tokenOf(identity),
			fp: tokenOf(fingerprint),
			at,
			created: feed.createdAt?.(record),
			index,
		});
	});
	return [...byIdentity.values()].sort((a, b) => a.at - b.at || a.index - b.index);
}

/** Epoch milliseconds of an API timestamp; a time without a zone is UTC. */
export function parseTimestamp(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value === '') return undefined;
	const zoned = /T.*(Z|[+-]\d\d:?\d\d)$/i.test(value) || !value.includes('T') ? value : `${value}Z`;
	const time = Date.parse(zoned);
	return Number.isNaN(time) ? undefined : time;
}

/** 64-bit content fingerprint (hex): a hash of the canonical JSON. */
export function fingerprintOf(value: unknown): string {
	return hashOf(canonicalJson(value));
}

/** Two FNV-1a lanes (forward and backward) over the text, as 16 hex digits. */
function hashOf(text: string): string {
	const { imul } = Math; // one global lookup, not two per character (slow in sandboxed contexts)
	let forward = 0x811c9dc5;
	let backward = 0x050c5d1f;
	for (let i = 0; i < text.length; i++) {
		forward = imul(forward ^ text.charCodeAt(i), 0x01000193);
		backward = imul(backward ^ text.charCodeAt(text.length - 1 - i), 0x01000193);
	}
	const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
	return hex(forward) + hex(backward);
}

/** 48 bits of a hash, as 8 base64url characters: small enough to keep thousands in n8n's static data. */
function tokenOf(text: string): string {
	return Buffer.from(hashOf(text).slice(0, 12), 'hex').toString('base64url');
}

/** JSON with object keys sorted, so the same content always hashes alike whatever the key order. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
