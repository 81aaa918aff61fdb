import {
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type IHttpRequestMethods,
	type INodeExecutionData,
} from 'n8n-workflow';

import { FieldOpsFailure, isDuplicate, settle } from '../transport/errors';
import { labelsOf, type Field } from '../parameters/field';
import { asItems, forEachItem, type Item } from '../items/items';
import { expectsList, sendJson, type Api, type PathParam } from '../transport/transport';
import { readLimit } from '../parameters/limits';

/** How an operation appears in the Operation list and to AI agents. */
export interface OperationInfo {
	name: string;
	value: string;
	/** A sentence for people and for AI agents using the node as a tool. */
	action: string;
	description: string;
	/** The operation's own parameters, in the order shown; the node shows them only for this operation. */
	fields: Field[];
	/** What it answers, for AI agents, where the request does not say (default: from its method, see describe.ts). */
	returns?: string;
}

/** A request the operation sends (method, API and path below its root, `{name}` placeholders). */
export interface RequestShape {
	api?: Api;
	method: IHttpRequestMethods;
	path: string;
}

/** The request of one item as built from the fields, before it is sent. */
export interface PreparedRequest {
	params: Record<string, PathParam>;
	qs: IDataObject;
	body: unknown;
}

export interface RequestSpec extends RequestShape {
	/** Names what the request is about in messages; default: the resource's `what`. */
	what?: string;
	/** Changes the request built from the fields (a body shape the fields cannot express, an ID from a lookup). */
	prepare?: (request: PreparedRequest, item: Item) => Promise<void> | void;
	/** Output records from the answer; default: a list gives one record per element (see {@link asRecords}). */
	output?: (body: unknown, item: Item) => IDataObject[] | Promise<IDataObject[]>;
	/** A list answered whole: its fields include Return All / Limit (`listFields`).  */
	list?: boolean;
	/** A read sent as POST (it changes nothing, so a failure has nothing saved before it to report). */
	read?: boolean;
	/**
	 * A change named in a collection (Update Fields): refused before anything is sent, a lookup included, when the
	 * collection is empty or its fields give nothing to send.
	 */
	changes?: { collection: string; label: string; example: string };
	/** What to do when Field Ops refuses the record as a duplicate (a workflow run again): Update, or a new value. */
	onDuplicate?: (body: IDataObject) => string;
}

/** An operation that is one request per input item, built from its fields. */
export interface RequestOperation extends OperationInfo {
	request: RequestSpec;
}

/** An operation run as code (batches, pages, files): it declares the requests it sends. */
export interface CodeOperation extends OperationInfo {
	requests: RequestShape[];
	execute: (context: IExecuteFunctions) => Promise<INodeExecutionData[][]>;
}

export type Operation = RequestOperation | CodeOperation;

export interface Resource {
	name: string;
	value: string;
	description: string;
	/** What one record is, for messages ("work order"). */
	what: string;
	operations: Operation[];
	defaultOperation: Operation;
	/** Label of the operation list (default "Operation"). */
	operationLabel?: string;
	/** A notice above the operation list, for every operation of the resource. */
	notice?: string;
	/** An expression (without braces): the canvas subtitle instead of the operation's action sentence. */
	subtitle?: string;
}

const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

export const isRequestOperation = (operation: Operation): operation is RequestOperation =>
	'request' in operation;

/** Every field of an operation (a list's Return All and Limit among them), in the order shown. */
export const fieldsOf = (operation: Operation): Field[] => operation.fields;

/** The requests an operation declares. */
export const requestsOf = (operation: Operation): RequestShape[] =>
	isRequestOperation(operation) ? [operation.request] : operation.requests;

/** Places one field's value (collections: each entry by its own field) into the request. */
async function place(
	field: Field,
	raw: unknown,
	item: Item,
	request: PreparedRequest & { body: IDataObject },
) {
	if (raw === null || raw === undefined) return;
	if (field.children) {
		for (const [name, value] of Object.entries(raw as IDataObject)) {
			const child = field.children.find((candidate) => candidate.property.name === name);
			if (child) await place(child, value, item, request);
		}
		return;
	}
	if (!field.to) return;
	const value = field.value ? await field.value(raw, item) : raw;
	if (value === undefined) return;
	const name = field.as ?? field.property.name;
	if (field.to === 'path') request.params[name] = { label: field.property.displayName, value };
	else if (field.to === 'query') request.qs[name] = value as IDataObject[string];
	else request.body[name] = value as IDataObject[string];
}

/** Every field of one item placed where it goes (checked and shaped by the field). */
export async function fromFields(
	fields: Field[],
	item: Item,
): Promise<PreparedRequest & { body: IDataObject }> {
	const request = { params: {}, qs: {}, body: {} as IDataObject };
	for (const field of fields) await place(field, item.param(field.property.name), item, request);
	return request;
}

/** "Nothing to update": what to add, and that nothing was sent. */
function nothingToUpdate({ label, example }: { label: string; example: string }) {
	return new FieldOpsFailure(
		'Nothing to update',
		`Add a field under ${label} (for example ${example}) and give it a value. Nothing was sent.`,
	);
}

/** The request of one item: every field placed where it goes, then the operation's own changes. */
export async function prepareRequest(operation: RequestOperation, item: Item): Promise<PreparedRequest> {
	const { changes } = operation.request;
	const named = changes && item.param<IDataObject>(changes.collection);
	if (changes && (!named || Object.keys(named).length === 0)) throw nothingToUpdate(changes);
	const request: PreparedRequest = await fromFields(operation.fields, item);
	await operation.request.prepare?.(request, item);
	if (changes && Object.keys(request.body as IDataObject).length === 0) throw nothingToUpdate(changes);
	return request;
}

/** Records from an answer: a list is one per element; nothing is `{success: true}`; a bare value is `{result}`. */
export function asRecords(body: unknown): IDataObject[] {
	if (Array.isArray(body))
		return body.map((element) =>
			element && typeof element === 'object'
				? (element as IDataObject)
				: { result: element as IDataObject[string] },
		);
	if (body === undefined || body === null || body === '') return [{ success: true }];
	if (typeof body === 'object') return [body as IDataObject];
	return [{ result: body as IDataObject[string] }];
}

function runRequests(operation: RequestOperation, resource: Resource, context: IExecuteFunctions) {
	const { request } = operation;
	return forEachItem(
		context,
		async (item) => {
			const max = request.list ? readLimit(item) : Infinity;
			const prepared = await prepareRequest(operation, item);
			const sent = await settle(
				async () =>
					await sendJson(context, {
						api: request.api,
						method: request.method,
						path: request.path,
						params: prepared.params,
						qs: prepared.qs,
						body: WITH_BODY.has(request.method) ? prepared.body : undefined,
						what: request.what ?? resource.what,
						itemIndex: item.index,
						check: request.list ? expectsList(`${resource.name} → ${operation.name}`) : undefined,
					}),
			);
			if ('error' in sent) {
				// A re-run with the same number: say how to change that record instead, or which value makes a new one.
				if (request.onDuplicate && isDuplicate(sent.error))
					(sent.error as { description?: string | null }).description = request.onDuplicate(
						prepared.body as IDataObject,
					);
				throw sent.error;
			}
			const body = sent.value;
			const records = request.output ? await request.output(body, item) : asRecords(body);
			return asItems(records.slice(0, max));
		},
		{
			labels: labelsOf(operation.fields),
			writes:
				request.method === 'GET' || request.read
					? undefined
					: { what: request.what ?? resource.what, done: request.method === 'DELETE' ? 'deleted' : 'saved' },
		},
	);
}

/** Runs the operation chosen in the node for every input item. */
export async function execute(
	resources: Resource[],
	context: IExecuteFunctions,
): Promise<INodeExecutionData[][]> {
	const resourceValue = context.getNodeParameter('resource', 0) as string;
	const operationValue = context.getNodeParameter('operation', 0) as string;
	const resource = resources.find((candidate) => candidate.value === resourceValue);
	const operation = resource?.operations.find((candidate) => candidate.value === operationValue);
	if (!resource || !operation)
		throw new NodeOperationError(
			context.getNode(),
			`Unknown operation "${operationValue}" of "${resourceValue}"`,
		);
	return isRequestOperation(operation)
		? await runRequests(operation, resource, context)
		: await operation.execute(context);
}
