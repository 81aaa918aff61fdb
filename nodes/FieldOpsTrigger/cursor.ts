/**
 * Cursor of the Field Ops Trigger: for one poll of one reporting feed, the `ModifiedSince` to request, which
 * records to emit (new / changed / deleted, oldest first, at most `maxPerPoll`) and the next state.
 *
 * Pure: no I/O, no clock (the caller passes `now`, the poll's start), inputs never mutated. The caller stores
 * the returned state only after every page was read, so a failed poll leaves the stored state exactly as it was.
 *
 * Rules:
 * - The cursor is the newest modification time found in the records, never n8n's clock: the clock only places
 *   the start of a "from now" activation. Records are handled in modification order; `seen` remembers what was
 *   handled inside the re-read window (identity + content fingerprint), so re-reading it emits nothing while a
 *   record edited again (new content) is emitted again as `changed`.
 * - Late writes and clock skew: every poll re-reads from `cursor - overlapMs`. A record whose modification
 *   time is older than the cursor when it becomes visible (stamped at transaction start, committed later) is
 *   still caught if it is at most `overlapMs` late. Trade-off: a larger overlap catches later writes but
 *   re-reads more and keeps every record of the window in the state; later writes than that are missed.
 * - ModifiedSince is sent 1 ms before the window start, so a server treating it as exclusive still returns
 *   records at the boundary; records older than the window start are ignored (already handled).
 * - Fallback for feeds without a modification time in their records: the cursor becomes the start of the
 *   last poll that emitted everything it read (n8n's clock, the only time we have), ModifiedSince is that minus
 *   the overlap, and `seen` (stamped with the poll time) dedupes what the overlap re-reads. The overlap must
 *   then also cover the skew between the server's clock and n8n's, and be longer than one poll's paging.
 * - Events: a tombstone (`isDeleted`) is `deleted`; a record already in `seen` is `changed`; a record created
 *   at or after `newFrom` (the window start when the trigger was last caught up) is `new`; anything else is
 *   `changed` (it existed before the window, so it was reported or predates the start). While a capped backlog
 *   is worked through, `newFrom` does not move, so every backlog record still counts as new; the price is that
 *   a record emitted early in that backlog, dropped from `seen` and edited again before the backlog ends is
 *   reported as `new` once more. Feeds without a created time report only `changed` and `deleted`.
 * - Unselected events advance the cursor like emitted ones and do not count against the cap.
 */

export type TriggerEvent = 'new' | 'changed' | 'deleted';

export type StartFrom = { from: 'now' } | { from: 'date'; date: number } | { from: 'everything' };

/** How to read one feed's records; times are epoch milliseconds (see parseTimestamp). */
export interface Feed<T> {
	/** Stable identity: `id`, or `id|collectionRef|idRef` for image rows. */
	identity: (record: T) => string;
	/** Leave out for feeds whose records carry no modification time: the poll-clock fallback is used. */
	modifiedAt?: (record: T) => number | undefined;
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

/** [identity, fingerprint, time]: the time is the modification time, or the poll time in fallback mode. */
export type SeenVersion = [string, string, number];

export interface CursorState {
	version: 1;
	/** 'modified': cursor from the records' modification times; 'polled': poll-clock fallback. */
	mode: 'modified' | 'polled';
	cursor: number;
	/** The chosen start: nothing older is ever requested. */
	floor: number;
	newFrom: number;
	seen: SeenVersion[];
}

export interface Emitted<T> {
	event: TriggerEvent;
	record: T;
}

export interface PollResult<T> {
	emit: Array<Emitted<T>>;
	state: CursorState;
	/** False when the cap (or holdBack) kept records back for the next polls. */
	caughtUp: boolean;
}

export const DEFAULT_OVERLAP_MS = 60_000;

interface Version<T> {
	record: T;
	identity: string;
	fingerprint: string;
	at: number;
	index: number;
}

const overlapOf = (options: CursorOptions) => Math.max(0, options.overlapMs ?? DEFAULT_OVERLAP_MS);
const modeOf = <T>(feed: Feed<T>) => (feed.modifiedAt ? 'modified' : 'polled');
const windowStart = (state: CursorState, overlap: number) => Math.max(state.cursor - overlap, state.floor);

/**
 * State for a first activation. "From now" starts one overlap before `now`: trusting n8n's clock exactly
 * would lose records stamped by a server clock running behind it.
 */
export function startState<T>(
	feed: Feed<T>,
	start: StartFrom,
	now: number,
	options: CursorOptions,
): CursorState {
	const floor =
		start.from === 'everything' ? 0 : start.from === 'date' ? start.date : now - overlapOf(options);
	return { version: 1, mode: modeOf(feed), cursor: floor, floor, newFrom: floor, seen: [] };
}

/** The stored state if it is one this version understands for this feed, else undefined (start afresh). */
export function readState<T>(raw: unknown, feed: Feed<T>): CursorState | undefined {
	if (typeof raw !== 'object' || raw === null) return undefined;
	const state = raw as Partial<CursorState>;
	const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);
	const valid =
		state.version === 1 &&
		state.mode === modeOf(feed) &&
		finite(state.cursor) &&
		finite(state.floor) &&
		finite(state.newFrom) &&
		Array.isArray(state.seen) &&
		state.seen.every(
			(entry) =>
				Array.isArray(entry) &&
				typeof entry[0] === 'string' &&
				typeof entry[1] === 'string' &&
				finite(entry[2]),
		);
	return valid ? (state as CursorState) : undefined;
}

/** The `ModifiedSince` to request (ISO 8601, UTC). */
export function modifiedSince(state: CursorState, options: CursorOptions): string {
	return new Date(Math.max(0, windowStart(state, overlapOf(options)) - 1)).toISOString();
}

/** Decides one poll from ALL records it read (every page, in the order received). */
export function advance<T>(
	state: CursorState,
	records: readonly T[],
	feed: Feed<T>,
	options: CursorOptions,
	now: number,
): PollResult<T> {
	const overlap = overlapOf(options);
	const from = windowStart(state, overlap);
	const polled = state.mode === 'polled';
	// Without modification times every version is stamped with the poll time (never before the cursor,
	// even if n8n's clock stepped back); a record missing its time sits at the cursor.
	const fallbackAt = polled ? Math.max(now, state.cursor) : state.cursor;
	const seen = new Map(state.seen.map(([identity, fingerprint, at]) => [identity, { fingerprint, at }]));
	const pending = latestVersions(records, feed, fallbackAt).filter(
		(version) =>
			(polled || version.at >= from) && seen.get(version.identity)?.fingerprint !== version.fingerprint,
	);

	const selected = new Set(options.events);
	const cap = options.maxPerPoll >= 1 ? Math.floor(options.maxPerPoll) : 1;
	const emit: Array<Emitted<T>> = [];
	let heldBackAt: number | undefined;
	for (const version of pending) {
		const event = classify(version, feed, seen.has(version.identity), state.newFrom);
		if (selected.has(event)) {
			if (emit.length >= cap || feed.holdBack?.(version.record)) {
				heldBackAt = version.at;
				break;
			}
			emit.push({ event, record: version.record });
		}
		seen.set(version.identity, { fingerprint: version.fingerprint, at: version.at });
	}

	const caughtUp = heldBackAt === undefined;
	let cursor = state.cursor;
	if (polled) {
		// Only a poll that emitted all it read may move the window on; otherwise the same window is re-read.
		if (caughtUp) cursor = Math.max(cursor, now);
	} else {
		// Never back: records handled before this poll may sit between an older time and the cursor.
		const reached = caughtUp ? pending.map((version) => version.at) : [heldBackAt as number];
		cursor = reached.reduce((newest, at) => Math.max(newest, at), cursor);
	}
	const next: CursorState = { ...state, cursor, seen: [] };
	const nextFrom = windowStart(next, overlap);
	next.newFrom = caughtUp ? nextFrom : state.newFrom;
	// A fallback version is stamped with its poll's start but may have been modified while that poll paged:
	// keeping it one more overlap still dedupes it for polls shorter than the overlap.
	const keepFrom = polled ? nextFrom - overlap : nextFrom;
	for (const [identity, { fingerprint, at }] of seen) {
		if (at >= keepFrom) next.seen.push([identity, fingerprint, at]);
	}
	return { emit, state: next, caughtUp };
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
		const created = feed.createdAt?.(record);
		const modified = feed.modifiedAt?.(record);
		// No cursor to compare with: a record never edited since its creation is new.
		const event: TriggerEvent = feed.isDeleted?.(record)
			? 'deleted'
			: created !== undefined && (modified === undefined || created >= modified)
				? 'new'
				: 'changed';
		if (selected.has(event)) picked.unshift({ event, record });
	}
	return picked;
}

function classify<T>(
	version: Version<T>,
	feed: Feed<T>,
	handledBefore: boolean,
	newFrom: number,
): TriggerEvent {
	if (feed.isDeleted?.(version.record)) return 'deleted';
	if (handledBefore) return 'changed';
	const created = feed.createdAt?.(version.record);
	return created !== undefined && created >= newFrom ? 'new' : 'changed';
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
		byIdentity.set(identity, { record, identity, fingerprint, at, index });
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

/** 64-bit content fingerprint: two FNV-1a lanes (forward and backward) over the canonical JSON. */
export function fingerprintOf(value: unknown): string {
	const { imul } = Math; // one global lookup, not two per character (slow in sandboxed contexts)
	const text = canonicalJson(value);
	let forward = 0x811c9dc5;
	let backward = 0x050c5d1f;
	for (let i = 0; i < text.length; i++) {
		forward = imul(forward ^ text.charCodeAt(i), 0x01000193);
		backward = imul(backward ^ text.charCodeAt(text.length - 1 - i), 0x01000193);
	}
	const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
	return hex(forward) + hex(backward);
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
