import type { INodeListSearchResult, INodeParameters, INodePropertyOptions, INodeType } from 'n8n-workflow';

import type { N8nHarness } from '../harness';
import { FIELD_OPS_NODE, fieldOpsWorkflow } from './workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

type ListSearch = (
	this: unknown,
	filter?: string,
	paginationToken?: string,
) => Promise<INodeListSearchResult>;

/**
 * A page of the editor's list of a resource locator, as n8n asks for it: the node's list method in a real
 * load-options context, with the node's parameters as the editor has them.
 */
export async function listSearch(
	harness: N8nHarness,
	method: string,
	parameters: INodeParameters,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	const json = fieldOpsWorkflow(parameters);
	const internals = harness as unknown as {
		workflow: (...args: unknown[]) => any;
		additionalData: (...args: unknown[]) => any;
	};
	const workflow = internals.workflow(json, {}, false);
	const node = workflow.getNode('Field Ops');
	const hooks = new core.ExecutionLifecycleHooks('manual', 'list', { ...json, id: workflow.id } as never);
	const additionalData = {
		...internals.additionalData('list', hooks),
		currentNodeParameters: node.parameters,
	};
	const context = new core.LoadOptionsContext(workflow, node, additionalData, 'parameters.x');
	const fieldOps = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType;
	const search = (fieldOps.methods?.listSearch as Record<string, ListSearch>)[method];
	return await search.call(context, filter, paginationToken);
}

/** What a node's canvas subtitle reads: its `subtitle` expression evaluated by n8n-workflow, as the editor does. */
export function canvasSubtitle(
	harness: N8nHarness,
	parameters: INodeParameters,
	options: { version?: number; timezone?: string } = {},
): unknown {
	const json = fieldOpsWorkflow(parameters);
	json.nodes[1].typeVersion = options.version ?? 1.3;
	if (options.timezone) json.settings = { timezone: options.timezone };
	const workflow = (harness as unknown as { workflow: (...args: unknown[]) => any }).workflow(
		json,
		{},
		false,
	);
	const node = workflow.getNode('Field Ops');
	const type = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, node.typeVersion) as INodeType;
	return workflow.expression.getSimpleParameterValue(node, type.description.subtitle, 'internal', {});
}

/** A load-options method of the node (an options list the editor asks for), in a real load-options context. */
export async function loadOptions(
	harness: N8nHarness,
	method: string,
	parameters: INodeParameters,
	options: { version?: number; timezone?: string } = {},
): Promise<INodePropertyOptions[]> {
	const json = fieldOpsWorkflow(parameters);
	json.nodes[1].typeVersion = options.version ?? 1.3;
	if (options.timezone) json.settings = { timezone: options.timezone };
	const internals = harness as unknown as {
		workflow: (...args: unknown[]) => any;
		additionalData: (...args: unknown[]) => any;
	};
	const workflow = internals.workflow(json, {}, false);
	const node = workflow.getNode('Field Ops');
	const hooks = new core.ExecutionLifecycleHooks('manual', 'options', { ...json, id: workflow.id } as never);
	const context = new core.LoadOptionsContext(
		workflow,
		node,
		{ ...internals.additionalData('options', hooks), currentNodeParameters: node.parameters },
		'parameters.x',
	);
	const type = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, node.typeVersion) as INodeType;
	const load = (
		type.methods?.loadOptions as Record<string, (this: unknown) => Promise<INodePropertyOptions[]>>
	)[method];
	return await load.call(context);
}
