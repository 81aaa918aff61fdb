import type { IDataObject } from 'n8n-workflow';

import { TRIGGER, triggerWorkflow } from '../helpers/workflows';
import { file, json, type FakeFieldOps, type Host, type Reply } from './fake';
import {
	caught,
	listSearch,
	rl,
	runNode,
	type FakeFieldOpsEnv,
	type Outcome,
	type RunOptions,
} from './setup';

/**
 * Every way a request leaves the node, each with the answers it needs to succeed: a request operation, a code
 * operation, a batch, report pages, an upload, three downloads, a list search (n8n's own load-options context)
 * and the trigger's poll. Each rule of the request path is tried on these.
 */

/** One way a request leaves the node, with the answers it needs to succeed. */
export interface Route {
	name: string;
	/** The request the route is about (where faults are injected). */
	main: { host: Host; method: string; path: string };
	/** Whether it writes (redirects elsewhere refused, no retries). */
	write: boolean;
	/** Whether Continue On Fail applies (not to list search and the trigger). */
	items: boolean;
	/** The main request's successful answer. */
	reply: Reply;
	/** Answers every request the route sends, successfully. */
	serve(fake: FakeFieldOps): void;
	/** Runs it with a fresh credential for the fake servers unless `options` names one. */
	run(env: FakeFieldOpsEnv, options?: RunOptions): Promise<Outcome>;
}

export const PROJECT_ID = 'p-1';
const pdf = (name: string) => ({
	data: Buffer.from('%PDF-1 hostile').toString('base64'),
	mimeType: 'application/pdf',
	fileName: name,
});

const DOCUMENTS = `/api/v4/integration/projects/${PROJECT_ID}/documents`;

export const projectGet: Route = {
	name: 'Project → Get (request operation)',
	main: { host: 'core', method: 'GET', path: `/api/v4/integration/projects/${PROJECT_ID}` },
	write: false,
	items: true,
	reply: json(200, { id: PROJECT_ID, name: 'Bridge' }),
	serve: (fake) => fake.on('core', 'GET', projectGet.main.path, projectGet.reply),
	run: async (env, options) =>
		await runNode(env, { resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) }, options),
};

export const documentDelete: Route = {
	name: 'Document → Delete (code operation, write)',
	main: { host: 'core', method: 'DELETE', path: `${DOCUMENTS}/f-1` },
	write: true,
	items: true,
	reply: (_request, res) => void res.writeHead(204).end(),
	serve: (fake) => fake.on('core', 'DELETE', documentDelete.main.path, documentDelete.reply),
	run: async (env, options) =>
		await runNode(
			env,
			{ resource: 'document', operation: 'delete', project: rl('id', PROJECT_ID), fileReferenceId: 'f-1' },
			options,
		),
};

export const machineCreateMany: Route = {
	name: 'Machine → Create Many (batch, write)',
	main: { host: 'core', method: 'POST', path: '/api/v4/integration/machines/create/array' },
	write: true,
	items: true,
	reply: json(200, [{ index: 0, success: true, id: 'm-1' }]),
	serve: (fake) => fake.on('core', 'POST', machineCreateMany.main.path, machineCreateMany.reply),
	run: async (env, options) =>
		await runNode(
			env,
			{ resource: 'machine', operation: 'createMany', companyId: 'c-1', machineNumber: 'M1' },
			options,
		),
};

const PAGES = '/v1/time-registrations';
export const reportPages: Route = {
	name: 'Report → Time Registrations (pages)',
	main: { host: 'reporting', method: 'GET', path: PAGES },
	write: false,
	items: true,
	reply: json(200, { data: [{ id: 'r-1' }], continuationToken: '' }),
	serve: (fake) => fake.on('reporting', 'GET', PAGES, reportPages.reply),
	run: async (env, options) =>
		await runNode(
			env,
			{
				resource: 'report',
				operation: 'timeRegistrations',
				syncMode: 'window',
				fromDateTime: '2026-01-01',
				toDateTime: '2026-01-02',
				returnAll: true,
			},
			options,
		),
};

export const documentUpload: Route = {
	name: 'Document → Upload (upload, write)',
	main: { host: 'core', method: 'POST', path: DOCUMENTS },
	write: true,
	items: true,
	reply: json(200, { successful: true, section: 'Documents', files: [{ name: 'a.pdf' }] }),
	serve: (fake) => fake.on('core', 'POST', DOCUMENTS, documentUpload.reply),
	run: async (env, options) =>
		await runNode(
			env,
			{ resource: 'document', operation: 'upload', project: rl('id', PROJECT_ID) },
			options,
			[{ json: {}, binary: { data: pdf('a.pdf') } }],
		),
};

export const documentDownload: Route = {
	name: 'Document → Download (download)',
	main: { host: 'core', method: 'GET', path: `${DOCUMENTS}/f-1` },
	write: false,
	items: true,
	reply: file('%PDF-1 drawing', 'drawing.pdf'),
	serve: (fake) => fake.on('core', 'GET', documentDownload.main.path, documentDownload.reply),
	run: async (env, options) =>
		await runNode(
			env,
			{ resource: 'document', operation: 'download', project: rl('id', PROJECT_ID), fileReferenceId: 'f-1' },
			options,
		),
};

export const lookupDownload: Route = {
	name: 'Lookup → Download File (download)',
	main: { host: 'core', method: 'GET', path: '/api/file/f-1' },
	write: false,
	items: true,
	reply: file('%PDF-1 photo', 'photo.pdf'),
	serve: (fake) => fake.on('core', 'GET', '/api/file/f-1', lookupDownload.reply),
	run: async (env, options) =>
		await runNode(env, { resource: 'lookup', operation: 'downloadFile', fileReferenceId: 'f-1' }, options),
};

export const reportFiles: Route = {
	name: 'Report → Incident Registrations with Download Files (download)',
	main: { host: 'core', method: 'GET', path: '/api/file/f-2' },
	write: false,
	items: true,
	reply: file('%PDF-1 incident', 'incident.pdf'),
	serve: (fake) => {
		fake.on('reporting', 'GET', '/v1/incident-registrations', (request, res) =>
			json(200, { data: [{ id: 'i-1', pdfUrl: `${fake.urls.core}/api/file/f-2` }] })(request, res),
		);
		fake.on('core', 'GET', '/api/file/f-2', reportFiles.reply);
	},
	run: async (env, options) =>
		await runNode(
			env,
			{
				resource: 'report',
				operation: 'incidentRegistrations',
				syncMode: 'window',
				fromDateTime: '2026-01-01',
				toDateTime: '2026-01-02',
				returnAll: true,
				options: { downloadFiles: true },
			},
			options,
		),
};

export const projectSearch: Route = {
	name: 'Project list search (methods)',
	main: { host: 'core', method: 'GET', path: '/api/projects' },
	write: false,
	items: false,
	reply: json(200, [{ id: PROJECT_ID, projectNumber: 'P1', name: 'Bridge' }]),
	serve: (fake) => fake.on('core', 'GET', projectSearch.main.path, projectSearch.reply),
	run: async (env, options) =>
		await caught(async () => {
			const found = await listSearch(
				env.harness,
				'searchProjects',
				{ resource: 'project', operation: 'get' },
				options?.credential ?? env.credential(),
			);
			return found.results.map((r) => ({ json: r as unknown as IDataObject }));
		}),
};

export const triggerPoll: Route = {
	name: 'Field Ops Trigger poll',
	main: { host: 'reporting', method: 'GET', path: '/v1/machine-registrations' },
	write: false,
	items: false,
	reply: json(200, { data: [{ id: 'mr-1', modifiedDateTime: '2026-01-01T00:00:00Z' }] }),
	serve: (fake) => fake.on('reporting', 'GET', triggerPoll.main.path, triggerPoll.reply),
	run: async (env, options) =>
		await caught(async () => {
			const workflow = triggerWorkflow({
				feed: 'machineRegistrations',
				startFrom: 'everything',
				...options?.parameters,
			});
			workflow.nodes[0].credentials = {
				fieldOpsOAuth2Api: { id: options?.credential ?? env.credential(), name: 'Field Ops' },
			};
			return (await env.harness.poll(workflow, TRIGGER, { staticData: {} })).items;
		}),
};

export const ROUTES: Route[] = [
	projectGet,
	documentDelete,
	machineCreateMany,
	reportPages,
	documentUpload,
	documentDownload,
	lookupDownload,
	reportFiles,
	projectSearch,
	triggerPoll,
];
export const READ_ROUTES = ROUTES.filter((route) => !route.write);
export const WRITE_ROUTES = ROUTES.filter((route) => route.write);
