import { addFile, fileBytes, fileStore } from '../files';
import { ApiError, badRequest, forbidden, MAX_UPLOAD_BODY_BYTES, notFound, queryBool, type RequestContext } from '../http';
import type { Router } from '../router';
import type { Sandbox } from '../sandbox';
import type { Project, Task, World } from '../state';
import { ensureAccess } from './access';
import { contentDisposition } from './files';

/**
 * Documents on the information pages of projects: one page per (project, section), reused by later uploads.
 * Work-order uploads land in the parent project's folder, by default in a section named after the work order.
 */
interface Page {
	pageExternalId: string;
	projectId: string;
	/** The work order the page was created through, if any (its uploads and listing). */
	taskId: string | null;
	section: string;
	files: { fileReferenceId: string; name: string }[];
}

export const DEFAULT_SECTION = 'Documents';
const pages = (world: World) => world.state('document-pages', () => [] as Page[]);

interface Target {
	project: Project;
	task: Task | null;
}

function target(ctx: RequestContext, world: World, kind: 'projects' | 'tasks'): Target {
	// Documents need an Administrator-level client.
	if (!ctx.auth.administrator) throw forbidden('Documents need an Administrator-level API client');
	const { id } = ctx.params;
	if (kind === 'projects') return { project: ensureAccess(world, ctx.auth, world.projects.get(id), 'Project', id), task: null };
	const task = ensureAccess(world, ctx.auth, world.tasks.get(id), 'Work order', id);
	const project = world.projects.get(task.projectId);
	if (!project) throw notFound(`The project of work order ${id} was not found`);
	return { project, task };
}

const pagesOf = (world: World, { project, task }: Target) => pages(world).filter((p) => p.projectId === project.id && (!task || p.taskId === task.id));

async function parts(ctx: RequestContext): Promise<{ name: string; type: string; bytes: Buffer }[]> {
	const contentType = ctx.header('content-type') ?? '';
	if (!contentType.toLowerCase().startsWith('multipart/form-data')) throw badRequest('Send the documents as multipart/form-data with parts named "file"', 'file');
	let form: FormData;
	try {
		form = await new Request('http://sandbox.local/', { method: 'POST', headers: { 'content-type': contentType }, body: await ctx.rawBody(MAX_UPLOAD_BODY_BYTES) }).formData();
	} catch (error) {
		if (error instanceof ApiError) throw error;
		throw badRequest('The multipart body could not be read', 'file');
	}
	const files = form.getAll('file');
	if (files.length === 0) throw badRequest('No part named "file" in the upload', 'file');
	return Promise.all(
		files.map(async (part, index) =>
			typeof part === 'string'
				? // A part without a filename arrives as text: stored under a generated name.
					{ name: `unnamed-${index + 1}`, type: 'application/octet-stream', bytes: Buffer.from(part) }
				: { name: part.name, type: part.type || 'application/octet-stream', bytes: Buffer.from(await part.arrayBuffer()) },
		),
	);
}

async function upload(ctx: RequestContext, sandbox: Sandbox, kind: 'projects' | 'tasks') {
	const { world } = sandbox;
	const where = target(ctx, world, kind);
	const uploaded = await parts(ctx);
	const section = ctx.queryParam('section') || (where.task ? String(where.task.externalId || where.task.workDescriptionShort || DEFAULT_SECTION) : DEFAULT_SECTION);
	const replace = queryBool(ctx, 'replaceExistingFilesWithSameName') ?? false;
	let page = pages(world).find((p) => p.projectId === where.project.id && p.section === section);
	if (!page) {
		page = { pageExternalId: world.newId(), projectId: where.project.id, taskId: where.task?.id ?? null, section, files: [] };
		pages(world).push(page);
	}
	const created = uploaded.map(({ name, type, bytes }) => {
		if (replace) page.files = page.files.filter((f) => f.name !== name);
		const file = addFile(world, { companyId: where.project.companyId, fileName: name, contentType: type, content: bytes, size: bytes.length });
		page.files.push({ fileReferenceId: file.id, name });
		const extension = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : '';
		return {
			name,
			size: bytes.length,
			url: `/api/file/${file.id}`,
			fileReference: { id: file.id, collectionRef: 'InfoPage', fileNameOrig: name, fileType: extension, fileSize: bytes.length, createdDateTime: file.createdDateTime },
		};
	});
	return {
		status: 200,
		json: {
			successful: true,
			message: `${created.length} document(s) uploaded to ${section}`,
			section,
			pageExternalId: page.pageExternalId,
			files: created,
			infoPageFiles: page.files.map((f) => ({ ...f })),
		},
	};
}

function findFile(ctx: RequestContext, world: World, kind: 'projects' | 'tasks') {
	const where = target(ctx, world, kind);
	const { fileReferenceId } = ctx.params;
	const page = pagesOf(world, where).find((p) => p.files.some((f) => f.fileReferenceId === fileReferenceId));
	const stored = fileStore(world).get(fileReferenceId);
	if (!page || !stored) throw notFound(`Document ${fileReferenceId} is not on this ${kind === 'projects' ? 'project' : 'work order'}`);
	return { page, stored };
}

export function registerDocuments(router: Router): void {
	for (const kind of ['projects', 'tasks'] as const) {
		const base = `/api/v4/integration/${kind}/{id}/documents`;
		router.core('POST', base, (ctx, sandbox) => upload(ctx, sandbox, kind));
		router.core('GET', base, (ctx, { world }) => ({
			status: 200,
			json: pagesOf(world, target(ctx, world, kind)).map(({ section, pageExternalId, files }) => ({ section, pageExternalId, files })),
		}));
		router.core('GET', `${base}/{fileReferenceId}`, (ctx, { world }) => {
			const { stored } = findFile(ctx, world, kind);
			return {
				status: 200,
				body: fileBytes(stored),
				headers: { 'Content-Type': 'application/octet-stream', 'Content-Disposition': contentDisposition(stored.fileName) },
			};
		});
		router.core('DELETE', `${base}/{fileReferenceId}`, (ctx, { world }) => {
			const { page } = findFile(ctx, world, kind);
			page.files = page.files.filter((f) => f.fileReferenceId !== ctx.params.fileReferenceId);
			fileStore(world).delete(ctx.params.fileReferenceId);
			return { status: 204 };
		});
	}
}
