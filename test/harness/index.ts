import 'reflect-metadata';

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import {
	NodeHelpers,
	Workflow,
	createRunExecutionData,
	type ExecutionStatus,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type IBinaryData,
	type IDataObject,
	type INodeExecutionData,
	type INodeType,
	type INodeTypes,
	type IRun,
	type ITaskData,
	type IVersionedNodeType,
	type IWorkflowBase,
	type IWorkflowExecuteAdditionalData,
	type WorkflowExecuteMode,
} from 'n8n-workflow';

import { BASE_NODE_TYPES, OAUTH2_API_CREDENTIAL } from './base-nodes';
import { HarnessCredentialsHelper } from './credentials-helper';

// n8n-core reads its settings folder when first imported: give it a throwaway one.
process.env.N8N_USER_FOLDER ??= mkdtempSync(join(tmpdir(), 'fieldops-harness-'));

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');
// The DI container instance n8n-core itself uses (resolved from n8n-core's folder, whatever npm hoisted).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { Container } = require(require.resolve('@n8n/di', { paths: [require.resolve('n8n-core')] })) as {
	Container: { get<T>(type: new (...args: never[]) => T): T };
};

export const PACKAGE_ROOT = resolve(__dirname, '..', '..');
export const PACKAGE_NAME = 'n8n-nodes-fieldops';

/** A workflow as exported from the n8n editor (nodes + connections; the rest optional). */
export type WorkflowJson = Pick<IWorkflowBase, 'nodes' | 'connections'> & Partial<IWorkflowBase>;

export interface RunOptions {
	/** Items the start node (the trigger) emits. Default: one empty item. */
	triggerItems?: INodeExecutionData[];
	/** Execution mode; `trigger` (default) is what an active workflow runs in. */
	mode?: WorkflowExecuteMode;
	/** Name of the node to start from; default: the workflow's trigger. */
	startNode?: string;
}

export interface RunResult {
	status: ExecutionStatus;
	/** The workflow's error, if the execution failed. */
	error: Error | undefined;
	/** Output items of each node that ran (first output, last run). */
	items: Record<string, INodeExecutionData[]>;
	/** Errors per node that failed. */
	nodeErrors: Record<string, Error>;
	run: IRun;
	staticData: IDataObject;
}

class PackageNodeTypes implements INodeTypes {
	constructor(private readonly types: Record<string, INodeType | IVersionedNodeType>) {}

	getByName(nodeType: string): INodeType | IVersionedNodeType {
		const type = this.types[nodeType];
		if (!type)
			throw new Error(
				`Unknown node type "${nodeType}" (the harness knows ${Object.keys(this.types).join(', ')})`,
			);
		return type;
	}

	getByNameAndVersion(nodeType: string, version?: number): INodeType {
		return NodeHelpers.getVersionedNodeType(this.getByName(nodeType), version);
	}

	getKnownTypes(): IDataObject {
		return {};
	}
}

/**
 * Runs workflows in-process through n8n-core's real `WorkflowExecute`, with our built package (dist/) loaded
 * the way n8n loads a community package. Build first (`npm run build`).
 */
export class N8nHarness {
	readonly credentialsHelper: HarnessCredentialsHelper;
	readonly nodeTypes: PackageNodeTypes;
	private executionCount = 0;

	private constructor(
		types: Record<string, INodeType | IVersionedNodeType>,
		credentialTypes: Map<string, ICredentialType>,
	) {
		this.nodeTypes = new PackageNodeTypes(types);
		this.credentialsHelper = new HarnessCredentialsHelper(credentialTypes);
	}

	/**
	 * `nodes` replaces node types of the package by name (`fieldOps`): a test that builds the nodes from their
	 * sources, for instance with a feed of its own in the table, runs them through the same engine.
	 */
	static async load(options: { nodes?: Record<string, INodeType> } = {}): Promise<N8nHarness> {
		const loader = new core.PackageDirectoryLoader(PACKAGE_ROOT);
		await loader.loadAll();
		const types: Record<string, INodeType | IVersionedNodeType> = { ...BASE_NODE_TYPES };
		for (const [name, { type }] of Object.entries(loader.nodeTypes)) {
			types[`${loader.packageName}.${name}`] = options.nodes?.[name] ?? type;
			// n8n offers a node usable as a tool to AI agents as `<name>Tool`, running the same code.
			if ((type.description as { usableAsTool?: boolean }).usableAsTool)
				types[`${loader.packageName}.${name}Tool`] = options.nodes?.[name] ?? type;
		}
		const credentialTypes = new Map<string, ICredentialType>([
			[OAUTH2_API_CREDENTIAL.name, OAUTH2_API_CREDENTIAL],
		]);
		for (const [name, { type }] of Object.entries(loader.credentialTypes)) credentialTypes.set(name, type);
		const binaryData = Container.get(core.BinaryDataService);
		await binaryData.init();
		return new N8nHarness(types, credentialTypes);
	}

	/** The bytes of a binary property, wherever n8n's binary data service keeps them. */
	async binaryBuffer(binary: IBinaryData): Promise<Buffer> {
		return await Container.get(core.BinaryDataService).getAsBuffer(binary);
	}

	/** Stores a credential (its data as a user would type it) under `id`. */
	setCredential(id: string, data: ICredentialDataDecryptedObject): void {
		this.credentialsHelper.stored.set(id, structuredClone(data));
	}

	async run(workflowJson: WorkflowJson, options: RunOptions = {}): Promise<RunResult> {
		const executionId = String(++this.executionCount);
		const workflow = this.workflow(
			workflowJson,
			structuredClone((workflowJson.staticData ?? {}) as IDataObject),
			false,
		);
		const startNode = options.startNode ? workflow.getNode(options.startNode) : workflow.getStartNode();
		if (!startNode) throw new Error('The workflow has no node to start from');

		const mode = options.mode ?? 'trigger';
		const hooks = new core.ExecutionLifecycleHooks(mode, executionId, {
			...workflowJson,
			id: workflow.id,
		} as IWorkflowBase);
		let resolveFinished: (run: IRun) => void = () => undefined;
		const finished = new Promise<IRun>((resolve) => (resolveFinished = resolve));
		hooks.addHandler('workflowExecuteAfter', (run) => resolveFinished(run));

		const additionalData = this.additionalData(executionId, hooks);
		const runExecutionData = createRunExecutionData({
			executionData: {
				nodeExecutionStack: [
					{ node: startNode, data: { main: [options.triggerItems ?? [{ json: {} }]] }, source: null },
				],
			},
		});
		const execution = new core.WorkflowExecute(additionalData, mode, runExecutionData);
		await execution.processRunExecutionData(workflow);
		const run = await finished;

		const items: Record<string, INodeExecutionData[]> = {};
		const nodeErrors: Record<string, Error> = {};
		for (const [nodeName, taskData] of Object.entries(run.data.resultData.runData) as [
			string,
			ITaskData[],
		][]) {
			const last = taskData[taskData.length - 1];
			items[nodeName] = last?.data?.main?.[0] ?? [];
			if (last?.error) nodeErrors[nodeName] = last.error;
		}
		return {
			status: run.status,
			error: run.data.resultData.error,
			items,
			nodeErrors,
			run,
			staticData: workflow.staticData,
		};
	}

	/**
	 * Runs one poll of a polling trigger node, as n8n's poller does (`manual` is "Fetch Test Event").
	 * `staticData` is the workflow's static data; keep passing the same object to poll again.
	 */
	async poll(
		workflowJson: WorkflowJson,
		nodeName: string,
		options: { mode?: WorkflowExecuteMode; staticData?: IDataObject } = {},
	) {
		const workflow = this.workflow(workflowJson, options.staticData ?? {}, true);
		const node = workflow.getNode(nodeName);
		if (!node) throw new Error(`No node "${nodeName}"`);
		const mode = options.mode ?? 'trigger';
		const executionId = String(++this.executionCount);
		const hooks = new core.ExecutionLifecycleHooks(mode, executionId, {
			...workflowJson,
			id: workflow.id,
		} as IWorkflowBase);
		const context = new core.PollContext(
			workflow,
			node,
			this.additionalData(executionId, hooks),
			mode,
			mode === 'manual' ? 'manual' : 'activate',
		);
		const nodeType = this.nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
		if (!nodeType.poll) throw new Error(`${node.type} is not a polling trigger`);
		const output = await nodeType.poll.call(context);
		// n8n's Workflow keeps the node's static data under "node:<name>".
		return { items: output?.[0] ?? [], staticData: workflow.staticData };
	}

	private workflow(workflowJson: WorkflowJson, staticData: IDataObject, active: boolean): Workflow {
		return new Workflow({
			id: workflowJson.id ?? 'harness',
			name: workflowJson.name ?? 'harness',
			nodes: structuredClone(workflowJson.nodes),
			connections: workflowJson.connections,
			active,
			nodeTypes: this.nodeTypes,
			staticData,
			settings: { executionOrder: 'v1', ...workflowJson.settings },
		});
	}

	private additionalData(
		executionId: string,
		hooks: InstanceType<typeof core.ExecutionLifecycleHooks>,
	): IWorkflowExecuteAdditionalData {
		const notAvailable = (what: string) => async () => {
			throw new Error(`${what} is not available in the in-process harness`);
		};
		return {
			credentialsHelper: this.credentialsHelper,
			hooks,
			executionId,
			currentNodeExecutionIndex: 0,
			restApiUrl: 'http://localhost:5678/rest',
			instanceBaseUrl: 'http://localhost:5678/',
			formBaseUrl: 'http://localhost:5678/form',
			formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
			formTestBaseUrl: 'http://localhost:5678/form-test',
			webhookBaseUrl: 'http://localhost:5678/webhook',
			webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
			webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
			mcpBaseUrl: 'http://localhost:5678/mcp',
			mcpTestBaseUrl: 'http://localhost:5678/mcp-test',
			variables: {},
			executeWorkflow: notAvailable('Execute Workflow'),
			getRunExecutionData: async () => undefined,
			getRuntimeCredential: async () => undefined,
			logAiEvent: () => undefined,
			startRunnerTask: notAvailable('The Code node task runner'),
		} as unknown as IWorkflowExecuteAdditionalData;
	}
}
