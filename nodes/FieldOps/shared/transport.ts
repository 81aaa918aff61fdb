import {
	NodeApiError,
	sleep,
	type JsonObject,
	type ICredentialDataDecryptedObject,
	type IDataObject,
	type IExecuteFunctions,
	type IExecuteSingleFunctions,
	type IHttpRequestMethods,
	type IHttpRequestOptions,
	type ILoadOptionsFunctions,
	type IN8nHttpFullResponse,
	type IPollFunctions,
} from 'n8n-workflow';

import { API_URL_FIELD, CREDENTIAL_TYPE, type FieldOpsApi } from './constants';
import { fieldOpsApiError } from './errors';
import { ensureFreshToken } from './token';

export type FieldOpsContext =
	| IExecuteFunctions
	| IExecuteSingleFunctions
	| IPollFunctions
	| ILoadOptionsFunctions;

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
	/** Retries for idempotent reads: 429, 5xx and dropped connections, honouring Retry-After. */
	retries?: number;
}

const RETRYABLE_STATUS = new Set([429, 500, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 30_000;

/** Wait before retry `attempt` (1-based): the server's Retry-After when given, else exponential backoff. */
function retryDelayMs(attempt: number, retryAfter: unknown): number {
	const seconds = Number(retryAfter);
	if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
	return Math.min(250 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

function isAuthError(error: unknown): boolean {
	const status =
		(error as { httpCode?: string; response?: { status?: number } }).httpCode ??
		(error as { response?: { status?: number } }).response?.status;
	return String(status) === '401' || String(status) === '403';
}

/** Root address of one API from the credential, without a trailing slash. */
export async function apiBaseUrl(context: FieldOpsContext, api: FieldOpsApi): Promise<string> {
	return baseUrlOf(await context.getCredentials(CREDENTIAL_TYPE), api);
}

function baseUrlOf(credentials: ICredentialDataDecryptedObject, api: FieldOpsApi): string {
	return String(credentials[API_URL_FIELD[api]] ?? '').replace(/\/+$/, '');
}

/**
 * One authenticated request from code (custom operations, lookups, list searches). The token comes from the
 * credential and goes only to the credential's own addresses. Answers the full response; error statuses
 * become plain-language NodeApiErrors.
 */
export async function apiRequestFull(
	context: FieldOpsContext,
	request: ApiRequest,
): Promise<IN8nHttpFullResponse> {
	// One read serves the address and the token check: n8n decrypts the credential on every read.
	const credentials = await context.getCredentials(CREDENTIAL_TYPE);
	await ensureFreshToken(context, credentials);
	const options: IHttpRequestOptions = {
		method: request.method,
		baseURL: baseUrlOf(credentials, request.api ?? 'core'),
		url: request.url,
		qs: request.qs,
		body: request.body as IDataObject,
		json: true,
		returnFullResponse: true,
		// A 401 still throws, so n8n renews the token and retries once.
		ignoreHttpStatusErrors: { ignore: true, except: [401] },
	};
	if (request.body === undefined) delete options.body;
	const retries = request.retries ?? 0;
	let response: IN8nHttpFullResponse | undefined;
	for (let attempt = 0; ; attempt++) {
		try {
			response = (await context.helpers.httpRequestWithAuthentication.call(
				context,
				CREDENTIAL_TYPE,
				options,
			)) as IN8nHttpFullResponse;
			if (!RETRYABLE_STATUS.has(response.statusCode) || attempt >= retries) break;
			await sleep(retryDelayMs(attempt + 1, response.headers?.['retry-after']));
		} catch (error) {
			// A dropped connection or timeout: the same request again (reads only); auth failures are final.
			if (attempt >= retries || isAuthError(error)) {
				throw error instanceof NodeApiError
					? error
					: new NodeApiError(context.getNode(), error as JsonObject, { itemIndex: request.itemIndex });
			}
			await sleep(retryDelayMs(attempt + 1, undefined));
		}
	}
	if (response.statusCode >= 400) {
		throw fieldOpsApiError(
			context.getNode(),
			response.statusCode,
			response.body,
			request.what,
			request.itemIndex,
		);
	}
	return response;
}

export async function apiRequest<T = unknown>(context: FieldOpsContext, request: ApiRequest): Promise<T> {
	return (await apiRequestFull(context, request)).body as T;
}
