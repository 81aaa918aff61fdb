import type {
	IDataObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { API_URL_FIELD, CREDENTIAL_TYPE, type FieldOpsApi } from './constants';
import { fieldOpsApiError } from './errors';
import { ensureFreshToken } from './token';

export type FieldOpsContext = IExecuteFunctions | IExecuteSingleFunctions | IPollFunctions | ILoadOptionsFunctions;

export interface ApiRequest {
	api?: FieldOpsApi;
	method: IHttpRequestMethods;
	/** Path below the API's root; path values must already be URL-encoded. */
	url: string;
	qs?: IDataObject;
	body?: unknown;
	/** Names the thing the request is about, for error messages ("project"). */
	what?: string;
	itemIndex?: number;
}

/** Root address of one API from the credential, without a trailing slash. */
export async function apiBaseUrl(context: FieldOpsContext, api: FieldOpsApi): Promise<string> {
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	return String(credentials[API_URL_FIELD[api]] ?? '').replace(/\/+$/, '');
}

/**
 * One authenticated request from code (custom operations, lookups, list searches). The token comes from the
 * credential and goes only to the credential's own addresses. Answers the full response; error statuses
 * become plain-language NodeApiErrors.
 */
export async function apiRequestFull(context: FieldOpsContext, request: ApiRequest): Promise<IN8nHttpFullResponse> {
	await ensureFreshToken(context);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: await apiBaseUrl(context, request.api ?? 'core'),
		url: request.url,
		qs: request.qs,
		body: request.body as IDataObject,
		json: true,
		returnFullResponse: true,
		// A 401 still throws, so n8n renews the token and retries once.
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
	};
	if (request.body === undefined) delete options.body;
	const response = (await context.helpers.httpRequestWithAuthentication.call(context, CREDENTIAL_TYPE, options)) as IN8nHttpFullResponse;
	if (response.statusCode >= 400) {
		throw fieldOpsApiError(context.getNode(), response.statusCode, response.body, request.what, request.itemIndex);
	}
	return response;
}

export async function apiRequest<T = unknown>(context: FieldOpsContext, request: ApiRequest): Promise<T> {
	return (await apiRequestFull(context, request)).body as T;
}
