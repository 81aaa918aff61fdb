import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
	type INodePropertyOptions,
	type PostReceiveAction,
	type PreSendAction,
} from 'n8n-workflow';

import { API_URL_FIELD, type FieldOpsApi } from './constants';
import { DATE_BODY_FIELDS } from './fields';
import { fieldOpsApiError } from './errors';
import { resolveLocator } from './locators';
import { freshTokenPreSend } from './token';

/** Labels used in error messages, by resource. */
const RESOURCE_LABELS: Record<string, string> = {
	project: 'project',
	workOrder: 'work order',
	machine: 'machine',
	user: 'user',
	employee: 'employee',
	certificate: 'certificate',
	document: 'document',
	lookup: 'record',
	machineState: 'machine-state record',
	report: 'report',
};

/**
 * Replaces `:name` path segments with the value of the node parameter `name` (a resource locator is
 * resolved to an ID first, e.g. a project number is looked up), URL-encoded as one path segment.
 */
export async function resolvePathPreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const names = [...requestOptions.url.matchAll(/:([A-Za-z]\w*)(?:\.(\w+))?/g)];
	for (const [placeholder, name, field] of names) {
		const value = await resolveLocator(this, name, field);
		requestOptions.url = requestOptions.url.replace(placeholder, encodeURIComponent(value));
	}
	return requestOptions;
}

/**
 * A date the user typed (or mapped) that is not a date gets a clear error before the request, naming the field,
 * rather than the API's 400.
 */
export async function checkDatesPreSend(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = requestOptions.body;
	if (!body || typeof body !== 'object' || Array.isArray(body)) return requestOptions;
	for (const [field, value] of Object.entries(body as IDataObject)) {
		if (!DATE_BODY_FIELDS.has(field) || value === null || value === undefined || value === '') continue;
		// After the resources' own hooks a date may already be in an API format such as v4's dd.MM.yyyy.
		if (Number.isNaN(new Date(value as string).getTime()) && !/^\d{2}\.\d{2}\.\d{4}$/.test(String(value))) {
			throw new NodeOperationError(this.getNode(), `${field} is not a valid date: "${String(value)}"`, {
				description: 'Pick a date, or use an ISO 8601 value such as 2026-11-16T07:00:00.',
				itemIndex: this.getItemIndex(),
			});
		}
	}
	return requestOptions;
}

/**
 * Output of every declarative operation: an error status becomes a plain-language error; an array body
 * becomes one item per element; a bare boolean or an empty body becomes one small item; each item is
 * paired with the input item (n8n does not do that when one input yields several outputs).
 */
export async function toItems(
	this: IExecuteSingleFunctions,
	_items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const { statusCode, body } = response;
	const item = { item: this.getItemIndex() };
	if (statusCode >= 400) {
		const resource = String(this.getNodeParameter('resource', ''));
		throw fieldOpsApiError(this.getNode(), statusCode, body, RESOURCE_LABELS[resource], this.getItemIndex());
	}
	let records: IDataObject[];
	if (Array.isArray(body)) records = body as IDataObject[];
	else if (body === undefined || body === null || body === '') records = [{ success: true }];
	else if (typeof body === 'boolean') records = [{ result: body }];
	else if (typeof body === 'object') records = [body as IDataObject];
	else records = [{ result: body }];
	return records.map((json) => ({ json, pairedItem: item }));
}

export interface OperationSpec {
	name: string;
	value: string;
	/** A sentence for people and for AI agents using the node as a tool. */
	action: string;
	description: string;
	method: IHttpRequestMethods;
	/** Path below the API root; `:param` segments are filled from node parameters (see resolvePathPreSend). */
	path: string;
	api?: FieldOpsApi;
	preSend?: PreSendAction[];
	postReceive?: PostReceiveAction[];
}

/** One declarative operation with the package's standard hooks: fresh token, path values, plain errors. */
export function operation(spec: OperationSpec): INodePropertyOptions {
	const api = spec.api ?? 'core';
	return {
		name: spec.name,
		value: spec.value,
		action: spec.action,
		description: spec.description,
		routing: {
			request: {
				method: spec.method,
				url: spec.path,
				...(api === 'core'
					? {}
					: { baseURL: `={{ $credentials.${API_URL_FIELD[api]}.replace(/\\/+$/, "") }}` }),
			},
			send: { preSend: [freshTokenPreSend, resolvePathPreSend, ...(spec.preSend ?? []), checkDatesPreSend] },
			output: { postReceive: [toItems, ...(spec.postReceive ?? [])] },
		},
	};
}

/** For custom code: the error a missing required value gets before any request is sent. */
export function missingValue(context: IExecuteSingleFunctions, label: string): NodeOperationError {
	return new NodeOperationError(context.getNode(), `${label} is empty`, {
		description: `Enter the ${label.toLowerCase()}, or pick it from the list.`,
		itemIndex: context.getItemIndex(),
	});
}

/** An operation run as code (a `customOperations` entry of the resource): only its option in the list. */
export function codeOperation(spec: Pick<OperationSpec, 'name' | 'value' | 'action' | 'description'>): INodePropertyOptions {
	return { name: spec.name, value: spec.value, action: spec.action, description: spec.description };
}
