import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
	Workflow,
	type IDataObject,
	type INode,
	type INodeExecutionData,
	type INodeParameters,
	type INodeType,
	type IRun,
	type IWorkflowExecuteAdditionalData,
} from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { FIELD_OPS_NODE, fieldOpsWorkflow } from '../helpers/workflows';
import { CLIENT_ID, CLIENT_SECRET, FakeFieldOps } from './fake';

/**
 * The set-up every hostile suite shares: small fake Field Ops servers on 127.0.0.1 and n8n's real engine, a
 * credential for the servers, and the node (or one of its list searches) run against them.
 */

process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'fieldops-hostile-'));
// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

export interface FakeFieldOpsEnv {
	/** The fake servers: what each answers (routes set by a test win over earlier ones) and what they received. */
	readonly fake: FakeFieldOps;
	/** n8n's engine with the package built in dist/ (some node types replaced, if asked). */
	readonly harness: N8nHarness;
	/** A credential for the fake servers; each is fresh, so it fetches a token of its own. */
	credential(overrides?: IDataObject): string;
}

/**
 * Starts the fake servers and n8n's engine before the suite, forgets the routes and requests before each test,
 * and closes the servers after the suite. `nodes` replaces node types of the package (by name, e.g. `fieldOps`).
 */
export function useFakeFieldOps(options: { nodes?: Record<string, INodeType> } = {}): FakeFieldOpsEnv {
	let fake: FakeFieldOps | undefined;
	let harness: N8nHarness | undefined;
	beforeAll(async () => {
		fake = await FakeFieldOps.start();
		harness = await N8nHarness.load(options);
	});
	afterAll(async () => await fake?.close());
	beforeEach(() => fake?.reset());
	const started = <T>(value: T | undefined): T => {
		if (value === undefined) throw new Error('The fake Field Ops servers start in beforeAll');
		return value;
	};
	return {
		get fake() {
			return started(fake);
		},
		get harness() {
			return started(harness);
		},
		credential: (overrides) => fakeCredential(started(harness), started(fake), overrides),
	};
}

export const rl = (mode: string, value: string) => ({ __rl: true, mode, value });

let credentials = 0;
/** A credential for the fake servers; a fresh id means a fresh token (tokens are kept per credential). */
function fakeCredential(harness: N8nHarness, fake: FakeFieldOps, overrides: IDataObject = {}): string {
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
	/** Default: a fresh credential for the fake servers. */
	credential?: string;
	continueOnFail?: boolean;
	/** Parameters added to the route's own (e.g. a Timeout). */
	parameters?: INodeParameters;
}

/** Runs the Field Ops node once: its items, and the error it stopped on or the first item error. */
export async function runNode(
	env: FakeFieldOpsEnv,
	parameters: INodeParameters,
	options: RunOptions = {},
	items?: INodeExecutionData[],
): Promise<Outcome> {
	const workflow = fieldOpsWorkflow(
		{ ...parameters, ...options.parameters },
		{ credentialId: options.credential ?? env.credential(), continueOnFail: options.continueOnFail },
	);
	const result = await env.harness.run(workflow, { triggerItems: items });
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

/** A route run outside the item loop (a list search, a poll): its items, or the error it threw. */
export async function caught(work: () => Promise<INodeExecutionData[]>): Promise<Outcome> {
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
