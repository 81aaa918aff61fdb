import { createHash } from 'node:crypto';

import { addFile, fileStore, photoSize, renderPhoto } from '../files';
import { badRequest, queryBool, type Reply, type RequestContext } from '../http';
import type { Rng } from '../rng';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import { COMPANY_IDS } from '../seed';
import type { Person, Project, World } from '../state';
import { stampTime, type Variant } from '../variant';
import { iso } from './feeds';
import { SEED_QUIET_MS, SEED_SPAN_DAYS } from './kinds';
import { inChangeWindow, inWindow, metaOf, pagingFields, parseFeedQuery } from './query';
import { FeedStore, feedRng, guid, type FeedRecord } from './store';
import { decodeToken, encodeToken } from './tokens';

/**
 * Image inventory: photos attached to parent records (feed posts, alerts, checklists). One row per (image,
 * parent); the same file can hang under two parents. Paged per source (feed → alert → checklist), ChunkLimit
 * counting parents.
 */
export const SOURCES = ['feed', 'alert', 'checklist'] as const;
type Source = (typeof SOURCES)[number];
const COLLECTION_REF: Record<Source, string> = { feed: 'FeedPost', alert: 'Alert', checklist: 'Checklist' };
/** [D3] Other plausible `collectionRef` values. */
const ALT_COLLECTION_REF: Record<Source, string> = {
	feed: 'feed_post',
	alert: 'alert',
	checklist: 'checklist_answer',
};

/** [R16] The row id: the file reference id (its downloadUrl's id), or an id of the image record itself. */
export function imageRowId(variant: Variant, fileId: string): string {
	if (variant.imageId === 'fileId') return fileId;
	const h = createHash('sha1').update(`image:${fileId}`).digest('hex');
	return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-b${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const ORIGIN: Record<Source, string> = {
	feed: 'Prosjektfeed',
	alert: 'Varsel',
	checklist: 'Sikker jobbanalyse',
};
/** Seeded photos: larger than the biggest variant (1980), so every variant is really resized. */
const PHOTO_WIDTH = 2200;
const PHOTO_HEIGHT = 1650;
/** The road-reference enrichment runs this long (virtual clock) after an image with coordinates appears. */
export const ROAD_REFERENCE_DELAY_MS = 3000;
const DAY = 86_400_000;

export interface ImageFile {
	id: string;
	fileName: string;
	createdMs: number;
	latitude: number | null;
	longitude: number | null;
	accuracy: number | null;
	createdByUserId: string;
	createdByUserName: string;
}

interface ImageData {
	source: Source;
	project: Project;
	latitude: number | null;
	longitude: number | null;
	images: ImageFile[];
	[field: string]: unknown;
}

export type ImageParent = FeedRecord & { data: ImageData };

export interface ImageStores {
	bySource: Record<Source, FeedStore>;
	/** Rows that were removed, for the ground truth. */
	removed: { id: string; collectionRef: string; idRef: string; removedMs: number }[];
}

function photo(
	world: World,
	rng: Rng,
	companyId: string,
	person: Person,
	createdMs: number,
	withCoordinates: boolean,
): ImageFile {
	const tint = rng.int(0, 255);
	const file = addFile(world, {
		companyId,
		fileName: `IMG_${rng.int(1000, 9999)}.png`,
		contentType: 'image/png',
		width: PHOTO_WIDTH,
		height: PHOTO_HEIGHT,
		content: () => renderPhoto(PHOTO_WIDTH, PHOTO_HEIGHT, tint),
		// Known before the photo is rendered: every seeded photo of one size has the same byte size.
		size: photoSize(PHOTO_WIDTH, PHOTO_HEIGHT),
		createdDateTime: iso(createdMs),
	});
	return {
		id: file.id,
		fileName: file.fileName,
		createdMs,
		latitude: withCoordinates ? 59 + rng.next() * 10 : null,
		longitude: withCoordinates ? 5 + rng.next() * 15 : null,
		accuracy: withCoordinates ? rng.int(3, 30) : null,
		createdByUserId: person.identityId,
		createdByUserName: `${person.firstName} ${person.lastName}`,
	};
}

export function newParent(
	world: World,
	rng: Rng,
	source: Source,
	nowMs: number,
	seeded: boolean,
	projectId?: string,
	/** Field activity: photos without coordinates of their own (seeded ones have them 60 % of the time). */
	withoutCoordinates = false,
): ImageParent {
	const explicit = projectId ? world.projects.get(projectId) : undefined;
	const roll = rng.next();
	const companyId =
		explicit?.companyId ??
		(!seeded || roll < 0.7 ? COMPANY_IDS.main : roll < 0.85 ? COMPANY_IDS.subsidiary : COMPANY_IDS.other);
	const projects = [...world.projects.values()].filter((p) => p.companyId === companyId);
	const project = explicit ?? rng.pick(projects);
	const person = rng.pick(world.peopleOf(companyId));
	const createdMs = seeded ? nowMs - SEED_QUIET_MS - rng.next() * SEED_SPAN_DAYS * DAY : nowMs;
	const parentCoordinates = rng.chance(0.5);
	const images = Array.from({ length: rng.int(1, 2) }, () =>
		photo(world, rng, companyId, person, createdMs, seeded ? rng.chance(0.6) : !withoutCoordinates),
	);
	const modifiedMs =
		seeded && rng.chance(0.2) ? Math.min(nowMs - SEED_QUIET_MS, createdMs + rng.next() * 3 * DAY) : createdMs;
	return {
		id: guid(rng),
		companyId,
		projectId: project.id,
		dateMs: createdMs,
		createdMs,
		modifiedMs,
		deletedMs: null,
		pdfFileId: null,
		data: {
			source,
			project,
			latitude: parentCoordinates ? (project.projectLocationLatitude as number) : null,
			longitude: parentCoordinates ? (project.projectLocationLongitude as number) : null,
			images,
		},
	};
}

export function imageStores(world: World): ImageStores {
	return world.state('feed:images', () => {
		const rng = feedRng(world.ctx.seed, 'images');
		const nowMs = world.clock.nowMs();
		const stores: ImageStores = {
			bySource: { feed: new FeedStore(), alert: new FeedStore(), checklist: new FeedStore() },
			removed: [],
		};
		// About `scale` rows: 1.5 images per parent on average.
		const parents = Math.max(3, Math.round(world.ctx.scale / 1.5));
		const all: ImageParent[] = [];
		for (let i = 0; i < parents; i++) {
			const source: Source =
				i < 3 ? SOURCES[i] : rng.next() < 0.5 ? 'feed' : rng.next() < 0.5 ? 'alert' : 'checklist';
			const parent = newParent(world, rng, source, nowMs, true);
			all.push(parent);
			stores.bySource[source].add(parent);
		}
		// Some photos are shared: the same file posted in the feed also hangs under an alert.
		for (let i = 0; i + 1 < all.length; i += 10) {
			const [from, to] = [all[i], all[i + 1]];
			if (from.companyId === to.companyId) to.data.images.push(from.data.images[0]);
		}
		return stores;
	});
}

function roadReference(
	world: World,
	parent: ImageParent,
	image: ImageFile,
	latitude: number | null,
	longitude: number | null,
) {
	const company = world.companies.get(parent.companyId);
	if (!company?.roadReferenceFeature || latitude === null || longitude === null) return null;
	// [R17] The enrichment's delay.
	if (world.clock.nowMs() < image.createdMs + world.variant.roadReferenceDelayMs) return null;
	return {
		provider: 'NVDB',
		countryCode: 'NO',
		referenceText: `EV6 S${(Math.round(latitude) % 9) + 1}D1 m${Math.round(longitude * 100)}`,
		roadCategory: 'E',
		roadNumber: '6',
		section: `S${(Math.round(latitude) % 9) + 1}`,
		meterFromStart: Math.round(longitude * 100),
		distanceFromCoordinateMeters: 4.2,
	};
}

export function imageRows(
	sandbox: Sandbox,
	parent: ImageParent,
	requireGeo: boolean,
): Record<string, unknown>[] {
	const { world, variant } = sandbox;
	const { source, project } = parent.data;
	const rows: Record<string, unknown>[] = [];
	const sandboxEnums = variant.enumValues === 'sandbox';
	for (const image of parent.data.images) {
		// The image's own coordinates, else its parent's (a project without a location leaves them absent).
		const [latitude, longitude] = coordinates(image) ?? coordinates(parent.data) ?? [null, null];
		if (requireGeo && latitude === null) continue;
		const url = `${sandbox.urls.core}/api/file/${image.id}`;
		rows.push({
			id: imageRowId(variant, image.id),
			fileName: image.fileName,
			fileNameOriginal: image.fileName,
			fileType: variant.fileType === 'extension' ? 'png' : 'image/png',
			fileSize: fileStore(world).get(image.id)?.size ?? 0,
			downloadUrl: url,
			thumbnailUrl: `${url}?MaxDimension=128`,
			mediumUrl: `${url}?MaxDimension=640`,
			largeUrl: `${url}?MaxDimension=1980`,
			source,
			originDescription: ORIGIN[source],
			collectionRef: (sandboxEnums ? COLLECTION_REF : ALT_COLLECTION_REF)[source],
			idRef: parent.id,
			companyId: parent.companyId,
			projectCompanyId: project.companyId,
			projectId: project.id,
			projectNumber: project.projectNumber,
			projectName: project.name,
			taskId: null,
			taskName: null,
			activityId: null,
			activityNumber: null,
			createdByUserId: image.createdByUserId,
			createdByUserName: image.createdByUserName,
			createdDateTime: stampTime(variant, image.createdMs),
			parentModifiedDateTime: stampTime(variant, parent.modifiedMs),
			latitude,
			longitude,
			accuracy: image.accuracy,
			roadReference: roadReference(world, parent, image, latitude, longitude),
			userSecurityLevel: sandboxEnums ? 1 : 0,
		});
	}
	return rows;
}

/** [R14] `Sources` repeated (`Sources=feed&Sources=alert`) or comma-separated; or repeated only. */
/** A latitude/longitude pair when both are numbers; null or absent values are no coordinates. */
function coordinates(from: { latitude?: unknown; longitude?: unknown }): [number, number] | undefined {
	const { latitude, longitude } = from;
	return typeof latitude === 'number' &&
		Number.isFinite(latitude) &&
		typeof longitude === 'number' &&
		Number.isFinite(longitude)
		? [latitude, longitude]
		: undefined;
}

function sources(ctx: RequestContext): Source[] {
	const comma = ctx.variant.sourcesParameter === 'repeatedOrComma';
	const requested = ctx.query
		.getAll('Sources')
		.flatMap((value) => (comma ? value.split(',') : [value]))
		.map((s) => s.trim())
		.filter(Boolean);
	for (const value of requested) {
		if (!SOURCES.includes(value.toLowerCase() as Source))
			throw badRequest(`Sources may only contain feed, alert, checklist (got "${value}")`, 'Sources');
	}
	const chosen = new Set(requested.map((s) => s.toLowerCase()));
	// [R15] The order the sources are read in.
	const order = ctx.variant.sourceOrder;
	return chosen.size === 0 ? [...order] : order.filter((s) => chosen.has(s));
}

function serveImages(ctx: RequestContext, sandbox: Sandbox): Reply {
	const filters = new Set(['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries']);
	const query = parseFeedQuery(ctx, sandbox, filters);
	const requireGeo = queryBool(ctx, 'RequireGeoCoordinate') ?? false;
	const enabled = sources(ctx);
	const stores = imageStores(sandbox.world);
	const key = query.incremental ? 'modifiedMs' : 'dateMs';
	const position = query.token ? decodeToken(query.token, query.fingerprint) : undefined;
	const keep = (parent: FeedRecord) =>
		query.companies.has(parent.companyId) &&
		(!query.projectId || parent.projectId === query.projectId) &&
		(query.incremental ? inChangeWindow(query, parent.modifiedMs) : inWindow(query, parent.dateMs));

	const parents: FeedRecord[] = [];
	let token = '';
	for (let src = position?.src ?? 0; src < enabled.length && !token; src++) {
		const sorted = stores.bySource[enabled[src]].sorted(query.incremental ? 'modified' : 'date');
		const resume = position && src === position.src;
		let index = 0;
		if (resume)
			while (
				index < sorted.length &&
				(sorted[index][key] < position.t ||
					(sorted[index][key] === position.t && sorted[index].id <= position.id))
			)
				index++;
		for (; index < sorted.length; index++) {
			if (!keep(sorted[index])) continue;
			if (parents.length === query.chunkLimit) {
				const last = parents[parents.length - 1];
				token = encodeToken({
					t: last[key],
					id: last.id,
					src: enabled.indexOf((last as ImageParent).data.source),
					q: query.fingerprint,
				});
				break;
			}
			parents.push(sorted[index]);
		}
		// The chunk filled exactly at the end of a source: the next page starts with the next source.
		if (!token && parents.length === query.chunkLimit && src + 1 < enabled.length) {
			token = encodeToken({ t: -1, id: '', src: src + 1, q: query.fingerprint });
		}
	}
	const data = parents.flatMap((parent) => imageRows(sandbox, parent as ImageParent, requireGeo));
	return {
		status: 200,
		json: {
			data,
			meta: metaOf(ctx, { parentCount: parents.length, chunkLimit: query.chunkLimit }, query.chunkLimit),
			...pagingFields(ctx, token),
			syncTypeName: query.incremental ? 'incremental' : 'full',
			// [R9] Rows on the page, or parent records.
			recordCount: ctx.variant.envelope === 'sandbox' ? data.length : parents.length,
			deletedRecordCount: 0,
		},
	};
}

export function registerImages(router: Router): void {
	router.reporting('GET', '/v1/images', serveImages);
}
