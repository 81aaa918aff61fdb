import type { INodeProperties } from 'n8n-workflow';

import { since, type Field } from '../parameters/field';
import { fieldsOf, isRequestOperation, type Operation, type Resource } from './operation';

/**
 * Each field of a resource once (a field object shared by operations, such as twins, is one parameter, so its
 * value survives a switch of operation), in an order that keeps every operation's own order of fields (ties: the field seen first comes first).
 */
function fieldOrder(operations: Operation[]): Field[] {
	const usage = new Set<Field>();
	const after = new Map<Field, Set<Field>>();
	for (const operation of operations) {
		const fields = fieldsOf(operation);
		fields.forEach((field, index) => {
			usage.add(field);
			if (!after.has(field)) after.set(field, new Set());
			if (index > 0) after.get(fields[index - 1])?.add(field);
		});
	}
	const waiting = new Map([...usage].map((field) => [field, 0]));
	for (const followers of after.values())
		for (const field of followers) waiting.set(field, (waiting.get(field) ?? 0) + 1);
	const ordered = new Set<Field>();
	while (ordered.size < usage.size) {
		const open = [...usage].filter((field) => !ordered.has(field));
		// A cycle between two operations' orders is broken at the field seen first.
		const next = open.find((field) => waiting.get(field) === 0) ?? open[0];
		ordered.add(next);
		for (const field of after.get(next) ?? []) waiting.set(field, (waiting.get(field) ?? 1) - 1);
	}
	return [...ordered];
}

/** What an AI agent gives for a locator it fills (n8n holds the agent's value in the locator's By ID mode). */
const AGENT_VALUES: Record<string, string> = {
	project: 'its project number such as P1001, its exact name, or its ID',
	machine: 'its machine number such as M100, or its ID',
	workOrder: 'its ID, as a work order list answers it',
	employee: 'the employee number',
	user: 'the employee number',
	projectId: 'the project’s ID, as Project → Get Many answers it',
	machineId: 'the machine’s ID, as Machine → Get Many answers it',
};

/** Field Ops' answer in words, where the operation does not say it itself. */
function returnsOf(resource: Resource, operation: Operation): string {
	if (operation.returns) return operation.returns;
	if (!isRequestOperation(operation)) return 'one item per record Field Ops answers';
	const { method, list, read } = operation.request;
	if (list) return `one item per ${resource.what}`;
	if (method === 'GET' || read) return `the ${resource.what}`;
	if (method === 'POST') return `the created ${resource.what}, with its ID`;
	if (method === 'DELETE') return 'success: true (or the deleted record, where Field Ops answers it)';
	return `the ${resource.what} as saved (or success: true, where Field Ops answers nothing)`;
}

/**
 * The description an AI agent reads for this operation as a tool (the node used as a tool): what it does, what it
 * needs, what it returns. Shown (and editable) only on the tool, one per operation.
 */
function toolDescription(resource: Resource, operation: Operation): INodeProperties {
	const properties = fieldsOf(operation).map((field) => field.property);
	// A field shown only when another of the operation's fields has its default value (a Create or Update's key
	// under its default Match On) is asked for too; one shown only in other modes (a work order's project) is not.
	const byDefault = ([key, values]: [string, unknown]) =>
		/^(resource|operation)$/.test(key) ||
		(Array.isArray(values) && values.includes(properties.find((p) => p.name === key)?.default));
	const needs = properties
		.filter((p) => p.required && Object.entries(p.displayOptions?.show ?? {}).every(byDefault))
		.map((p) => {
			const example =
				p.type === 'string' && typeof p.placeholder === 'string' && !p.placeholder.includes('{{')
					? p.placeholder
					: undefined;
			const how = AGENT_VALUES[p.name] ?? example;
			return how ? `${p.displayName} (${how})` : p.displayName;
		});
	const what = operation.description.replace(/^[A-Z](?![A-Z])/, (first) => first.toLowerCase());
	const text = `${operation.action} in Field Ops: ${what}. Needs: ${needs.join('; ') || 'nothing'}. Returns: ${returnsOf(resource, operation)}.`;
	return {
		displayName: 'Description',
		name: 'toolDescription',
		type: 'string',
		default: text,
		typeOptions: { rows: 3 },
		description:
			'What the AI agent reads to choose this tool: what it does, what it needs and what it returns',
		displayOptions: { show: { '@tool': [true], resource: [resource.value], operation: [operation.value] } },
	};
}

/**
 * The everyday jobs first among the node creator's actions ("Everyday Actions", from node version 1.3): n8n's
 * node creator lists a node's actions resource by resource, from every parameter named Resource, each with the
 * operations of the first Operation parameter shown for it. A Resource whose entries stand for the everyday
 * jobs, and one Operation per job shown for its real resource and its entry, make n8n list them first and open
 * the node on the real resource and operation. The panel never shows them: they are shown only with an
 * `@feature` these nodes do not declare.
 */
function everydayJobs(
	resources: Resource[],
	jobs: string[],
): { first: INodeProperties[]; last: INodeProperties[] } {
	const found = jobs.flatMap((job) => {
		const [resourceValue, operationValue] = job.split(':');
		const resource = resources.find((candidate) => candidate.value === resourceValue);
		const operation = resource?.operations.find((candidate) => candidate.value === operationValue);
		return resource && operation ? [{ resource, operation, entry: `everyday.${job}` }] : [];
	});
	if (found.length === 0) return { first: [], last: [] };
	const firstEntry = found[0].entry;
	const creatorOnly = { ...since(1.3), '@feature': ['nodeCreatorOnly'] };
	return {
		first: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: found.map(({ entry }) => ({ name: 'Everyday', value: entry })),
				default: firstEntry,
				displayOptions: { show: creatorOnly },
			},
		],
		last: found.map(({ resource, operation, entry }) => {
			const value = operation.value;
			return {
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: operation.name,
						value: operation.value,
						action: operation.action,
						description: operation.description,
					},
				],
				default: value,
				// The real resource first: n8n opens the node with the first value of each condition.
				displayOptions: { show: { resource: [resource.value, entry], ...creatorOnly } },
			};
		}),
	};
}

/**
 * The node's parameters: Resource, each resource's operation list, and each field once with the operations using
 * it; `everyday` (`resource:operation`) are listed first in the node creator, those that exist.
 */
export function describeResources(
	resources: Resource[],
	defaultResource: string,
	everyday: string[] = [],
): INodeProperties[] {
	const jobs = everydayJobs(resources, everyday);
	const properties: INodeProperties[] = [
		...jobs.first,
		{
			displayName: 'Resource',
			name: 'resource',
			type: 'options',
			noDataExpression: true,
			options: resources.map(({ name, value, description }) => ({ name, value, description })),
			default: defaultResource,
		},
	];
	for (const resource of resources) {
		if (resource.notice)
			properties.push({
				displayName: resource.notice,
				name: `${resource.value}Notice`,
				type: 'notice',
				default: '',
				displayOptions: { show: { resource: [resource.value] } },
			});
		const defaultOperation = resource.defaultOperation.value;
		properties.push({
			displayName: resource.operationLabel ?? 'Operation',
			name: 'operation',
			type: 'options',
			noDataExpression: true,
			displayOptions: { show: { resource: [resource.value] } },
			// In the resource's own order, the common operations first (the node creator lists actions so too).
			options: resource.operations.map(({ name, value, action, description }) => ({
				name,
				value,
				action,
				description,
			})),
			default: defaultOperation,
		});
		for (const operation of resource.operations) properties.push(toolDescription(resource, operation));
		// Each field says where it shows at its definition (`shown(on(…))`, checked by test/node/structure.test.ts).
		for (const field of fieldOrder(resource.operations)) properties.push(field.property);
	}
	return [...properties, ...jobs.last];
}

/**
 * The node's subtitle on the canvas: the chosen operation's action sentence ("Create a work order"), not the raw
 * resource and operation values; a resource with its own subtitle says that instead (the Report: its days).
 */
export function subtitleOf(resources: Resource[]): string {
	const actions: Record<string, string> = {};
	for (const resource of resources)
		for (const operation of resource.operations)
			actions[`${resource.value}:${operation.value}`] = operation.action;
	const own = resources
		.filter((resource) => resource.subtitle)
		.map(
			(resource) => `$parameter["resource"] === ${JSON.stringify(resource.value)} ? ${resource.subtitle} : `,
		)
		.join('');
	return `={{ ${own}(${JSON.stringify(actions)})[$parameter["resource"] + ":" + $parameter["operation"]] || "" }}`;
}
