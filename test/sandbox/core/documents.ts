import { z } from 'zod';

import { addFile, fileBytes, fileStore } from '../files';
import {
	ApiError,
	badRequest,
	forbidden,
	notFound,
	queryBool,
	type Reply,
	type RequestContext,
} from '../http';
import type { Router } from '../router';
import type { Project, Task, World } from '../state';
import { ensureAccess } from './access';
import { contentDisposition } from './files';
import { created as createdReply } from './schema';
import { boundaryOf, parseMultipart } from './multipart';
import { apiTask } from './tasks';

/**
 * Documents on the information pages of projects: one page per (project, section), reused by later uploads.
 * Work-order uploads land in the parent project's folder, by default in a section named after the work order.
 */
interface Page {
	pageExternalId: string;
	projectId: string;
	section: string;
	/** Work orders that uploaded to this page: their listings show it and reach its files. */
	taskIds: string[];
	files: { fileReferenceId: string; name: string }[];
}

export const DEFAULT_SECTION = 'Documents';
/** `fileReference.collectionRef` of documents (the spec shows the field, not its values) [D3]. */
export const DOCUMENT_COLLECTION_REF = 'InfoPage';
const ALT_DOCUMENT_COLLECTION_REF = 'information_page';
const MAX_SECTION_LENGTH = 200;

const pages = (world: World) => world.state('core:document-pages', () => [] as Page[]);

/**
 * Fault injection, not a guess about the service (the spec accepts any file type): files whose name ends with
 * `nameEndsWith` (case-insensitive) are refused, either as an error status (415 for a type, 413 for a size) or,
 * without `status`, with a 200 upload result `successful: false`. Nothing of such a request is stored.
 */
interface Refusal {
	nameEndsWith: string;
	status?: number;
	message: string;
}
const refusals = (world: World) => world.state('core:document-refusals', () => [] as Refusal[]);
const refusalBody = z
	.object({
		nameEndsWith: z.string().min(1),
		status: z.number().int().min(400).max(599).optional(),
		message: z.string().min(1),
	})
	.strict();

function refusalFor(world: World, names: string[]): Refusal | undefined {
	return refusals(world).find((refusal) =>
		names.some((name) => name.toLowerCase().endsWith(refusal.nameEndsWith.toLowerCase())),
	);
}

/**
 * The section of a work-order upload without `section` [D5]: the work order's number, else its short
 * description; or the other way round.
 */
const taskSection = (world: World, task: Task) =>
	String(
		(world.variant.taskSection === 'numberFirst'
			? task.externalId || task.workDescriptionShort
			: task.workDescriptionShort || task.externalId) || DEFAULT_SECTION,
	);

/** The name a `file` part without a filename is stored under (its position among the request's files). */
const unnamedPart = (position: number) => `unnamed-${position}`;

interface Target {
	project: Project;
	task: Task | null;
}

type Kind = 'projects' | 'tasks';

function target(ctx: RequestContext, world: World, kind: Kind): Target {
	if (!ctx.auth.administrator) throw forbidden('Documents need an Administrator-level API client');
	const { id } = ctx.params;
	if (kind === 'projects')
		return { project: ensureAccess(world, ctx.auth, world.projects.get(id), 'Project', id), task: null };
	const task = ensureAccess(world, ctx.auth, apiTask(world, id), 'Work order', id);
	const project = world.projects.get(task.projectId);
	if (!project) throw notFound(`The project of work order ${id} was not found`);
	return { project, task };
}

const pagesOf = (world: World, { project, task }: Target) =>
	pages(world).filter((p) => p.projectId === project.id && (!task || p.taskIds.includes(task.id)));

async function fileParts(ctx: RequestContext): Promise<{ name: string; type: string; bytes: Buffer }[]> {
	const contentType = ctx.header('content-type') ?? '';
	if (!/^multipart\/form-data\s*(;|$)/i.test(contentType))
		throw badRequest('Send the documents as multipart/form-data with parts named "file"', 'file');
	const boundary = boundaryOf(contentType);
	const files = parseMultipart(await ctx.rawBody(ctx.variant.bodyLimits.upload), boundary).filter(
		(part) => part.name === 'file',
	);
	if (files.length === 0) throw badRequest('No part named "file" in the upload', 'file');
	// [D4] A part without a file name is stored under a made-up name, or refused.
	if (ctx.variant.unnamedPart === 'refused' && files.some((part) => !part.fileName))
		throw badRequest('Every "file" part needs a filename in its Content-Disposition', 'file');
	return files.map((part, index) => ({
		name: part.fileName ?? unnamedPart(index + 1),
		type: part.contentType ?? 'application/octet-stream',
		bytes: part.bytes,
	}));
}

function sectionOf(ctx: RequestContext, world: World, where: Target): string {
	const section = ctx.queryParam('section');
	if (section && section.length > MAX_SECTION_LENGTH)
		throw badRequest(`section must be at most ${MAX_SECTION_LENGTH} characters`, 'section');
	return section || (where.task ? taskSection(world, where.task) : DEFAULT_SECTION);
}

async function upload(ctx: RequestContext, world: World, kind: Kind): Promise<Reply> {
	const where = target(ctx, world, kind);
	const section = sectionOf(ctx, world, where);
	const replace = queryBool(ctx, 'replaceExistingFilesWithSameName') ?? false;
	const uploaded = await fileParts(ctx);
	const refused = refusalFor(
		world,
		uploaded.map((file) => file.name),
	);
	if (refused?.status)
		throw new ApiError(refused.status, refused.message, [{ field: 'file', message: refused.message }]);
	if (refused)
		return createdReply(world, {
			successful: false,
			message: refused.message,
			section,
			files: [],
			infoPageFiles: [],
		});
	let page = pages(world).find((p) => p.projectId === where.project.id && p.section === section);
	if (!page) {
		page = { pageExternalId: world.newId(), projectId: where.project.id, section, taskIds: [], files: [] };
		pages(world).push(page);
	}
	if (where.task && !page.taskIds.includes(where.task.id)) page.taskIds.push(where.task.id);
	if (replace) {
		// Only documents already on the page are replaced (no versions: the old file is gone).
		const names = new Set(uploaded.map((file) => file.name));
		for (const old of page.files.filter((f) => names.has(f.name)))
			fileStore(world).delete(old.fileReferenceId);
		page.files = page.files.filter((f) => !names.has(f.name));
	}
	const created = uploaded.map(({ name, type, bytes }) => {
		const file = addFile(world, {
			companyId: where.project.companyId,
			fileName: name,
			contentType: type,
			content: bytes,
			size: bytes.length,
		});
		page.files.push({ fileReferenceId: file.id, name });
		const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
		const alt = world.variant;
		return {
			name,
			size: bytes.length,
			// [D1] "Relative file path": the file endpoint's path, or a path in the service's file storage.
			url:
				alt.documentFileUrl === 'fileEndpoint'
					? `/api/file/${file.id}`
					: `${where.project.companyId}/${file.id}/${encodeURIComponent(name)}`,
			fileReference: {
				id: file.id,
				collectionRef: alt.enumValues === 'sandbox' ? DOCUMENT_COLLECTION_REF : ALT_DOCUMENT_COLLECTION_REF,
				fileNameOrig: name,
				// [D2] The extension, or the MIME type of the part.
				fileType: alt.fileType === 'extension' ? extension : type,
				fileSize: bytes.length,
				createdDateTime: file.createdDateTime,
			},
		};
	});
	return createdReply(world, {
		successful: true,
		message: `${created.length} document(s) uploaded to ${section}`,
		section,
		pageExternalId: page.pageExternalId,
		files: created,
		infoPageFiles: page.files.map((f) => ({ ...f })),
	});
}

function findDocument(ctx: RequestContext, world: World, kind: Kind) {
	const where = target(ctx, world, kind);
	const { fileReferenceId } = ctx.params;
	const page = pagesOf(world, where).find((p) => p.files.some((f) => f.fileReferenceId === fileReferenceId));
	const stored = fileStore(world).get(fileReferenceId);
	if (!page || !stored)
		throw notFound(
			`Document ${fileReferenceId} is not on this ${kind === 'projects' ? 'project' : 'work order'}`,
		);
	return { page, stored };
}

export function registerDocuments(router: Router): void {
	router.control('POST', '/__sandbox/documents/refusals', async (ctx, { world }) => {
		const body = await ctx.json(z.union([refusalBody, z.array(refusalBody)]));
		refusals(world).push(...(Array.isArray(body) ? body : [body]));
		return { status: 200, json: { refusals: refusals(world).length } };
	});
	router.control('DELETE', '/__sandbox/documents/refusals', (_ctx, { world }) => {
		refusals(world).length = 0;
		return { status: 200, json: { ok: true } };
	});
	for (const kind of ['projects', 'tasks'] as const) {
		const base = `/api/v4/integration/${kind}/{id}/documents`;
		router.core('POST', base, (ctx, { world }) => upload(ctx, world, kind));
		router.core('GET', base, (ctx, { world }) => ({
			status: 200,
			json: pagesOf(world, target(ctx, world, kind)).map(({ section, pageExternalId, files }) => ({
				section,
				pageExternalId,
				files,
			})),
		}));
		router.core('GET', `${base}/{fileReferenceId}`, (ctx, { world }) => {
			const { stored } = findDocument(ctx, world, kind);
			return {
				status: 200,
				body: fileBytes(stored),
				headers: {
					'Content-Type': 'application/octet-stream',
					'Content-Disposition': contentDisposition(stored.fileName, ctx.variant),
				},
			};
		});
		router.core('DELETE', `${base}/{fileReferenceId}`, (ctx, { world }) => {
			const { page } = findDocument(ctx, world, kind);
			page.files = page.files.filter((f) => f.fileReferenceId !== ctx.params.fileReferenceId);
			fileStore(world).delete(ctx.params.fileReferenceId);
			return { status: 204 };
		});
	}
}
