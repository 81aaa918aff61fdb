import { Rng } from '../rng';
import type { World } from '../state';

/**
 * One reporting record as the sandbox keeps it: the API fields in `data`, plus the times the sandbox maintains.
 * Times are epoch ms; their ISO strings are rendered when a page is served.
 */
export interface FeedRecord {
	id: string;
	companyId: string;
	projectId: string | null;
	/** The record's own date: the full-mode window and ordering apply to it. */
	dateMs: number;
	createdMs: number;
	modifiedMs: number;
	deletedMs: number | null;
	/** Generated PDF (checklists, incidents, absences): null until submitted. */
	pdfFileId: string | null;
	data: Record<string, unknown>;
	/** The served JSON of feeds without per-caller rendering, dropped whenever the record changes. */
	json?: string;
	/** ISO strings of createdMs/modifiedMs, rendered once per change (serving is the hot path). */
	iso?: { createdMs: number; modifiedMs: number; created: string; modified: string };
}

/** The record's created/modified times as ISO strings, cached until they change. */
export function isoTimes(record: FeedRecord): { created: string; modified: string } {
	const cached = record.iso;
	if (cached && cached.createdMs === record.createdMs && cached.modifiedMs === record.modifiedMs)
		return cached;
	record.iso = {
		createdMs: record.createdMs,
		modifiedMs: record.modifiedMs,
		created: new Date(record.createdMs).toISOString(),
		modified: new Date(record.modifiedMs).toISOString(),
	};
	return record.iso;
}

export interface RecordSeed {
	world: World;
	rng: Rng;
	nowMs: number;
	/** Index of the record being seeded; `undefined` for field activity. */
	index?: number;
	projectId?: string;
	/** Field activity: the registration's hours (time registrations). */
	hours?: number;
}

export interface KindDefinition {
	kind: string;
	path: string;
	/** Deleted records are reported as tombstones in incremental mode. */
	tombstones: boolean;
	/** Records get a PDF when submitted. */
	pdf: boolean;
	/** Pages never split records that share one sort time (machine registrations). */
	groupTies: boolean;
	filters: ReadonlySet<string>;
	create(seed: RecordSeed): FeedRecord;
	/** A field edit, as a person would make it in the app. */
	edit(record: FeedRecord, rng: Rng): void;
	/**
	 * [F1–F42] Where the spec does not show the record's fields: the names the `alt` variant serves instead of the
	 * sandbox's (sandbox name → alt name).
	 */
	altNames?: Record<string, string>;
	/** Extra fields added to the served record (sensitive data, privacy rules…). */
	render?(record: FeedRecord, served: Record<string, unknown>, options: RenderOptions): void;
}

export interface RenderOptions {
	world: World;
	callerCompanyId: string;
	includeSensitiveData: boolean;
}

/** A feed's records, with sort orders cached until the next write. */
export class FeedStore {
	readonly records: FeedRecord[] = [];
	readonly byId = new Map<string, FeedRecord>();
	private byDate: FeedRecord[] | undefined;
	private byModified: FeedRecord[] | undefined;
	/** [R6] Only for a variant whose full-mode window is the creation time. */
	private byCreated: FeedRecord[] | undefined;

	add(record: FeedRecord): void {
		this.records.push(record);
		this.byId.set(record.id, record);
		this.touch();
	}

	/** Call after changing a record's times. */
	touch(): void {
		this.byDate = undefined;
		this.byModified = undefined;
		this.byCreated = undefined;
	}

	sorted(order: 'date' | 'created' | 'modified'): FeedRecord[] {
		const compare = (key: 'dateMs' | 'createdMs' | 'modifiedMs') => (a: FeedRecord, b: FeedRecord) =>
			a[key] - b[key] || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
		if (order === 'date') return (this.byDate ??= [...this.records].sort(compare('dateMs')));
		if (order === 'created') return (this.byCreated ??= [...this.records].sort(compare('createdMs')));
		return (this.byModified ??= [...this.records].sort(compare('modifiedMs')));
	}
}

function hash(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
	return h >>> 0;
}

/** A seeded generator of its own per feed, so feeds seed the same whatever order they are first used in. */
export function feedRng(seed: number, kind: string): Rng {
	return new Rng((seed * 2654435761) ^ hash(kind));
}

export function guid(rng: Rng): string {
	const h = rng.hex(32);
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}
