import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type IRun,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { N8nHarness } from '../harness';
import {
	CREDENTIAL_ID,
	FIELD_OPS_NODE,
	TRIGGER,
	fieldOpsWorkflow,
	triggerWorkflow,
} from '../helpers/workflows';
import {
	ACCESS_TOKEN,
	CLIENT_ID,
	CLIENT_SECRET,
	file,
	json,
	type FakeFieldOps,
	type Host,
	type Reply,
} from './fake';

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'fieldops-hostile-'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

export const rl = (mode: string, value: string) => ({ __rl: true, mode, value });
export const PROJECT_ID = 'p-1';
const pdf = (name: string) => ({
	data: Buffer.from('%PDF-1 hostile').toString('base64'),
	mimeType: 'application/pdf',
	fileName: name,
});

let credentials = 0;
/** A credential for the fake servers; a fresh id means a fresh token (tokens are kept per credential). */
export function fakeCredential(harness: N8nHarness, fake: FakeFieldOps, overrides: IDataObject = {}): string {
	const id = `hostile-${++credentials}`;
	harness.setCredential(id, {
		environment: 'test',
		coreUrl: fake.urls.core,
		reportingUrl: fake.urls.reporting,
		identityUrl: fake.urls.identity,
		machineStateUrl: fake.urls.machineState,
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		useCoreApi: true,
		useReportingApi: true,
		useMachineStateApi: true,
		...overrides,
	});
	return id;
}

/** What a route produced: the node's output, the whole execution data, or the error it threw. */
export interface Outcome {
	items: INodeExecutionData[];
	run?: IRun;
	error?: unknown;
	/** The error message shown to the user (the node's, or the item's with Continue On Fail). */
	message?: string;
	description?: string;
}

export interface RunOptions {
	credential: string;
	continueOnFail?: boolean;
	/** Parameters added to the route's own (e.g. a Timeout). */
	parameters?: INodeParameters;
}

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
	run(harness: N8nHarness, fake: FakeFieldOps, options: RunOptions): Promise<Outcome>;
}

/** Runs the Field Ops node once: its items, and the error it stopped on or the first item error. */
export async function runNode(
	harness: N8nHarness,
	parameters: INodeParameters,
	options: RunOptions,
	items?: INodeExecutionData[],
): Promise<Outcome> {
	const workflow = fieldOpsWorkflow(
		{ ...parameters, ...options.parameters },
		{ credentialId: options.credential, continueOnFail: options.continueOnFail },
	);
	const result = await harness.run(workflow, { triggerItems: items });
	const out = result.items['Field Ops'] ?? [];
	const failed = result.nodeErrors['Field Ops'] as (Error & { description?: string }) | undefined;
	// An error item carries n8n's error object, or (Document → Upload, to keep which file under `details`) only JSON.
	const failedItem = out.find((i) => i.error ?? i.json.error);
	const itemError = (failedItem?.error ??
		(failedItem && {
			message: failedItem.json.error,
			description: (failedItem.json.details as { description?: string } | undefined)?.description,
		})) as (Error & { description?: string }) | undefined;
	const error = failed ?? itemError;
	return {
		items: out,
		run: result.run,
		error,
		message: error?.message,
		description: error?.description ?? undefined,
	};
}

async function caught(work: () => Promise<INodeExecutionData[]>): Promise<Outcome> {
	try {
		return { items: await work() };
	} catch (error) {
		const e = error as Error & { description?: string };
		return { items: [], error, message: e.message, description: e.description ?? undefined };
	}
}

/** Calls a list-search method of the Field Ops node as the editor does (n8n's own load-options context). */
export async function listSearch(
	harness: N8nHarness,
	method: string,
	parameters: INodeParameters,
	credential: string,
	filter?: string,
) {
	const node: INode = {
		id: 'ls',
		name: 'Field Ops',
		type: FIELD_OPS_NODE,
		typeVersion: 1,
		position: [0, 0],
		parameters,
		credentials: { fieldOpsOAuth2Api: { id: credential, name: 'Field Ops' } },
	};
	const workflow = new Workflow({
		id: 'ls',
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: harness.nodeTypes,
	});
	const additionalData = {
		credentialsHelper: harness.credentialsHelper,
		currentNodeParameters: parameters,
		variables: {},
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
	} as unknown as IWorkflowExecuteAdditionalData;
	const context = new core.LoadOptionsContext(workflow, node, additionalData, 'parameters.project');
	const type = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1);
	const search = type.methods?.listSearch?.[method];
	if (!search) throw new Error(`No list search ${method}`);
	return await search.call(context, filter);
}

const DOCUMENTS = `/api/v4/integration/projects/${PROJECT_ID}/documents`;

export const projectGet: Route = {
	name: 'Project → Get (request operation)',
	main: { host: 'core', method: 'GET', path: `/api/v4/integration/projects/${PROJECT_ID}` },
	write: false,
	items: true,
	reply: json(200, { id: PROJECT_ID, name: 'Bridge' }),
	serve: (fake) => fake.on('core', 'GET', projectGet.main.path, projectGet.reply),
	run: async (harness, _fake, options) =>
		await runNode(harness, { resource: 'project', operation: 'get', project: rl('id', PROJECT_ID) }, options),
};

export const documentDelete: Route = {
	name: 'Document → Delete (code operation, write)',
	main: { host: 'core', method: 'DELETE', path: `${DOCUMENTS}/f-1` },
	write: true,
	items: true,
	reply: (_request, res) => void res.writeHead(204).end(),
	serve: (fake) => fake.on('core', 'DELETE', documentDelete.main.path, documentDelete.reply),
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
			{ resource: 'lookup', operation: 'downloadFile', fileReferenceId: 'f-1' },
			options,
		),
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
	run: async (harness, _fake, options) =>
		await runNode(
			harness,
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
	run: async (harness, _fake, options) =>
		await caught(async () => {
			const found = await listSearch(
				harness,
				'searchProjects',
				{ resource: 'project', operation: 'get' },
				options.credential,
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
	run: async (harness, _fake, options) =>
		await caught(async () => {
			const workflow = triggerWorkflow({
				feed: 'machineRegistrations',
				startFrom: 'everything',
				...options.parameters,
			});
			workflow.nodes[0].credentials = { fieldOpsOAuth2Api: { id: options.credential, name: 'Field Ops' } };
			return (await harness.poll(workflow, TRIGGER, { staticData: {} })).items;
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

/**
 * Where the client secret or the access token appears in a value: every string reachable from it, own properties
 * enumerable or not (message, stack, cause), so an error kept in the execution data is searched whole.
 */
export function secretsIn(value: unknown): string[] {
	const found: string[] = [];
	const seen = new WeakSet<object>();
	const visit = (node: unknown, path: string, depth: number) => {
		if (typeof node === 'string') {
			for (const secret of [CLIENT_SECRET, ACCESS_TOKEN])
				if (node.includes(secret)) found.push(`${path}: ${node.slice(0, 200)}`);
			return;
		}
		if (!node || typeof node !== 'object' || depth > 40 || seen.has(node)) return;
		seen.add(node);
		if (Buffer.isBuffer(node)) return visit(node.toString('latin1'), path, depth);
		for (const key of Object.getOwnPropertyNames(node)) {
			let child: unknown;
			try {
				child = (node as Record<string, unknown>)[key];
			} catch {
				continue;
			}
			visit(child, `${path}.${key}`, depth + 1);
		}
	};
	visit(value, '$', 0);
	return found;
}

/** The secret and the token are nowhere: not in the execution data (as n8n stores it, and whole), output or error. */
export function expectNoSecrets(outcome: Outcome): void {
	const stored =
		JSON.stringify(outcome.run ?? null) +
		JSON.stringify(outcome.items) +
		JSON.stringify(outcome.error ?? null);
	expect(stored).not.toContain(CLIENT_SECRET);
	expect(stored).not.toContain(ACCESS_TOKEN);
	expect(
		secretsIn({
			run: outcome.run,
			items: outcome.items,
			error: outcome.error,
			message: outcome.message,
			description: outcome.description,
		}),
	).toEqual([]);
}

export { ACCESS_TOKEN, CLIENT_SECRET, CREDENTIAL_ID, N8nHarness };
