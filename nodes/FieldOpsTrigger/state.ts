import { MAX_CHUNK_LIMIT } from '../FieldOps/reporting/feeds';

/** The trigger's state as stored, the feed's facts it reads by (the seam), the user's options, and its limits. */
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
	/** Rows that share a parent (image rows): ChunkLimit counts parents, so pages are sized by rows per parent. */
	parentOf?: (record: T) => string;
	/** The spec lists no ModifiedBefore for this feed: whether the service honours it is asked once, first. */
	beforeUnlisted?: boolean;
}

export interface CursorOptions {
	/** Events the user selected; the others are handled silently. */
	events: readonly TriggerEvent[];
	/** At most this many records emitted per poll; the rest follow on the next polls, oldest first. */
	maxPerPoll: number;
	overlapMs?: number;
}

/** [time, versions]: 16 characters per version (seen: identity and content hashes) or 8 (ids: identity). */
export type Group = [number, string];

export interface CursorState {
	version: 4;
	/** 'modified': cursor from the records' modification times; 'polled': from the service's clock. */
	mode: 'modified' | 'polled';
	/** Everything modified before it has been handled. */
	cursor: number;
	/** Reads start here; `seen` holds what was handled at or above it. */
	horizon: number;
	/** The chosen start: nothing older is ever requested; nothing created before it is new. */
	floor: number;
	/** The service's time at the first read (the floor when it sent no Date). */
	activatedAt?: number;
	/** Versions handled at or above the horizon, by (latest possible) modification time. */
	seen: Group[];
	/** Identities handled, by the service's time of the read that handled them (oldest first). */
	ids?: Group[];
	/** Identities handled before those in `ids` (a compact set), and the newest read among them. */
	idSet?: { bits: number; count: number; data: string; until: number };
	/** Every identity handled at or after this service time is in `ids` or `idSet` (absent: every one ever). */
	idsFrom?: number;
	/**
	 * The service's time when the last poll that caught up began: every record visible then has been handled,
	 * so one created at least a re-read window before it is not new.
	 */
	settled?: number;
	/**
	 * The last read that handled a record without a creation time (for a state of an earlier version: its
	 * cursor): identities handled up to it are kept one by one, as long as they fit (labels.ts).
	 */
	firstSeen?: number;
	/**
	 * [the cursor after a read, the service's time of that read's first answer and of the end of its last
	 * answer's second], ascending: when it read past each time (everything before the cursor handled).
	 */
	passed?: Array<[number, number, number]>;
	/** Windowed reads: milliseconds per record to size the next window; `guess`: not measured (a small page). */
	span?: number;
	guess?: true;
	/** Windowed reads: a window ending here held too many; the next ones search below it (`up`: near it). */
	ceiling?: number;
	up?: true;
	/** Windowed reads: what the last read to the present found, when it was caught up. */
	usual?: number;
	/** The service's clock minus n8n's at the last read, to plan windows before the first answer. */
	offset?: number;
	/** Modified mode: versions handled at the millisecond before the horizon (an inclusive read returns them). */
	tail?: number;
	/** Rows per parent record (image rows) in the last read. */
	fanout?: number;
	/** Records in order only within each of several sources (image rows): the most sources a whole read showed. */
	sources?: number;
	/** Poll clock, where the spec lists no ModifiedBefore: whether the service honours it (asked once). */
	before?: boolean;
}

/** One read: its pages until the last, or until `stopAfter` records arrived. */
export interface ReadPlan {
	since: number;
	before?: number;
	chunkLimit: number;
	stopAfter?: number;
	/** A read stopped early is still used; otherwise its records are dropped and the window halved. */
	partial: boolean;
	/** The records the window was sized for. */
	target?: number;
	/** One millisecond: read whole and handled whole, whatever the cap. */
	tie?: true;
	/** Only asks whether the service honours ModifiedBefore (a window before any record). */
	probe?: true;
	/** Poll clock without ModifiedBefore: every page, then a second read to tell which records are recent. */
	whole?: true;
	recent?: true;
}

export interface ReadResult<T> {
	records: readonly T[];
	/** The last page read had no continuation token. */
	complete: boolean;
	/** The Date headers of the first and the last answer (epoch ms). */
	serverTime?: number;
	lastServerTime?: number;
	/** The service refused the read's parameters (a probe only). */
	refused?: boolean;
}

/** A read as the cursor weighs it: what was asked, what came back, and the service's times of it. */
export interface Read<T> {
	plan: ReadPlan;
	result: ReadResult<T>;
	/** The Date of its first answer (n8n's clock without one). */
	at: number;
	/** When the versions it handles were read: `at`, or for the recent read after a whole one, that one's. */
	readAt: number;
	/** The end of its last answer's second: records written up to then may be among those read. */
	until: number;
	/** The latest modification time a version read can have (a polled version is stamped with it). */
	latest: number;
	/** Where the re-read window starts: records from then on may still turn up late. */
	fresh: number;
	/** The end of the span in which it read past its times (see `passed`). */
	passedUntil: number;
}

/** The versions a read brought: one per identity, oldest first, and those not handled before. */
export interface Batch<T> {
	versions: Array<Version<T>>;
	pending: Array<Version<T>>;
	/** Versions read again (`seen` holds them). */
	reread: number;
	/** After a whole read: recent ones too many to remember wait until they are older than the re-read window. */
	settling: boolean;
}

/** What handling a read's pending versions came to. */
export interface Handled<T> {
	/** The poll's emissions, this read's included. */
	emit: Array<Emitted<T>>;
	/** Versions handled (emitted or passed over as unselected events) and the newest time among them. */
	count: number;
	until: number;
	/** The time of the first run left for later, if one was. */
	stopAt?: number;
	/** Stopped by a hold (road reference) or by the memory's room, not by the cap. */
	waiting: boolean;
}

export interface Emitted<T> {
	event: TriggerEvent;
	record: T;
}

/** What every poll of one trigger reads with: the feed's facts and the user's options. */
export interface Trigger<T> {
	feed: Feed<T>;
	options: CursorOptions;
}

/** One poll: where it stands, what it has emitted so far and whether it is done. */
export interface Poll<T> extends Trigger<T> {
	state: CursorState;
	emit: Array<Emitted<T>>;
	reads: number;
	/** No further read in this poll: caught up, cap reached, held back, or the read budget spent. */
	done: boolean;
	caughtUp: boolean;
	/** The service's time of the poll's first read. */
	startedAt?: number;
	/** A whole read waiting for the read that tells its recent records (poll clock without ModifiedBefore). */
	held?: { records: readonly T[]; serverTime: number };
	/** A read of this poll has handled everything from the horizon to the cursor (the re-read window). */
	covered?: true;
	/** Versions read that `seen` already held (a re-read), for the soak's figures. */
	reread: number;
}

export const DEFAULT_OVERLAP_MS = 60_000;
/** Reads per poll at most (window searches, dropped windows, polled windows within `seen`): the next poll goes on. */
export const MAX_READS_PER_POLL = 100;
/** Identities remembered one by one for labels at least (8 characters each: 16 KB). */
export const IDENTITY_MEMORY = 2000;
/** `seen` and the identities together at most about this many bytes (the identities take what `seen` leaves). */
export const MEMORY_BYTES = 58 * 1024;
/** `seen` in the stored state at most about this many bytes; recent records beyond it wait to settle. */
export const SEEN_BYTES = 36 * 1024;
/** Entries of `passed` kept (the oldest are merged). */
export const PASSED_MEMORY = 48;
/** A window is sized to hold this share of the records the poll may still emit. */
export const FILL = 0.8;
/** While the density is unknown a window is probed with a page of 1/PROBE of the records allowed. */
export const PROBE = 8;
/** Records a window needs before its density is trusted. */
export const MIN_SAMPLE = 16;
/** A window is at most this many times longer than the last (a sample that straddled a quiet spell misleads). */
export const GROWTH = 2;
export const SHRINK = 8;
/** A window found too full is followed by one this many times shorter. */
export const BISECT = 4;
/** A window whose records stop this many times their mean spacing before its end saw a burst end. */
export const ENDED = 16;
/** A poll ends once less than this share of the cap is left (another read would mostly fetch what waits). */
export const MIN_LEFT = 0.3;

export interface Version<T> {
	record: T;
	id: string;
	fp: string;
	at: number;
	created?: number;
	index: number;
}

export const overlapOf = (options: CursorOptions) => Math.max(0, options.overlapMs ?? DEFAULT_OVERLAP_MS);
export const capOf = (options: CursorOptions) =>
	options.maxPerPoll >= 1 ? Math.floor(options.maxPerPoll) : 1;
export const modeOf = <T>(feed: Feed<T>) => (feed.modifiedAt ? 'modified' : 'polled');
/** The reporting API's one page-size ceiling, for the planner. */
export { MAX_CHUNK_LIMIT };

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
		version: 4,
		mode: modeOf(feed),
		cursor: floor,
		horizon: floor,
		floor,
		seen: [],
	};
	if (start.from !== 'now') state.guess = true;
	return state;
}
