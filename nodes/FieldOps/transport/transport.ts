import { sleep, type IDataObject } from 'n8n-workflow';

import { httpOf } from './auth';
import { FieldOpsFailure, apiFailure, hide, nodeError, reachReason, settle } from './errors';
import {
	discard,
	exchange,
	expectsList,
	failureText,
	readBody,
	type ApiRequest,
	type ApiResponse,
	type FieldOpsContext,
	type PathParam,
} from './http';
import { CREDENTIAL_TYPE, readSettings, urlFieldLabel, type Settings } from './settings';
import { ssrfFailure } from './ssrf';
import { accessToken, storedToken, type Token } from './token';

export const READ_RETRIES = 2;
const RETRYABLE = new Set([429, 500, 502, 503, 504]);
const MAX_RETRY_WAIT_MS = 30_000;
/** Half of a UTF-16 pair without its other half: it has no UTF-8 form, so it cannot be sent. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function retryDelayMs(attempt: number, retryAfter?: unknown): number {
	const seconds = Number(retryAfter);
	if (retryAfter !== undefined && Number.isFinite(seconds) && seconds >= 0)
		return Math.min(seconds * 1000, MAX_RETRY_WAIT_MS);
	return Math.min(250 * 2 ** attempt, MAX_RETRY_WAIT_MS);
}

/** A path value as one encoded segment; `.`, `..`, empty or unencodable values are refused before sending. */
function segment(name: string, param: PathParam | undefined): string {
	const label = param?.label ?? name;
	const value = param?.value === undefined || param.value === null ? '' : String(param.value).trim();
	if (value === '')
		throw new FieldOpsFailure(`${label} is empty`, `Enter the ${label}, or pick it from the list.`);
	if (value === '.' || value === '..')
		throw new FieldOpsFailure(`${label} "${value}" is not a valid value`, `Enter the ${label} itself.`);
	if (LONE_SURROGATE.test(value))
		throw new FieldOpsFailure(`${label} contains characters that cannot be sent`, `Check the ${label}.`);
	return encodeURIComponent(value);
}

function targetUrl(settings: Settings, request: ApiRequest): string {
	const api = request.api ?? 'core';
	if (request.url === undefined && !URL.canParse(settings.urls[api]))
		throw new FieldOpsFailure(
			`The ${urlFieldLabel(api)} of the Field Ops credential is not a web address`,
			"Give the API's root address from your onboarding, starting with https://.",
		);
	if (request.url !== undefined) {
		if (!settings.isOwn(request.url))
			throw new FieldOpsFailure(
				'The link does not point at a Field Ops address of the credential, so it was not fetched',
				'The access token is only ever sent to the addresses of the Field Ops credential.',
			);
		return request.url;
	}
	const path = (request.path ?? '').replace(/\{(\w+)\}/g, (_, name: string) =>
		segment(name, request.params?.[name]),
	);
	return `${settings.urls[api]}${path}`;
}

function networkFailure(request: Pick<ApiRequest, 'api' | 'url'>, url: string, error: unknown) {
	const reason = reachReason(error);
	const api = request.url ? 'Core API URL' : urlFieldLabel(request.api ?? 'core');
	const blocked = ssrfFailure(error, url, api);
	if (blocked) return blocked;
	return new FieldOpsFailure(
		`Could not reach Field Ops at ${new URL(url).host} (${reason})`,
		reason === 'no answer in time'
			? 'Field Ops did not answer in time. Try again in a moment, or raise the Timeout option where the node has one.'
			: `Check the ${api} of the Field Ops credential, and that this n8n can reach it.`,
	);
}

/**
 * The one way a request leaves the node: the credential's address for the API, path values encoded as single
 * segments, a fresh token (renewed once after a 401), our redirect rules, a timeout, retries for reads, and any
 * failure as an n8n error in plain words.
 */
export async function send<T = unknown>(
	context: FieldOpsContext,
	request: ApiRequest,
): Promise<ApiResponse<T>> {
	try {
		return await attempt<T>(context, request);
	} catch (error) {
		throw nodeError(context.getNode(), error, request.itemIndex);
	}
}

/** The run a request belongs to (an execution; a poll or a list look-up is its own): token failures last one run. */
function runOf(context: FieldOpsContext): unknown {
	const id = (context as { getExecutionId?: () => string | undefined }).getExecutionId?.();
	return id || context;
}

/** The token to send: the credential's static token, or a client-credentials token (see token.ts). */
async function tokenFor(context: FieldOpsContext, settings: Settings, rejected?: string): Promise<Token> {
	if (settings.staticToken === undefined)
		return await accessToken(httpOf(context), settings.client, {
			rejected,
			stored: settings.stored,
			run: runOf(context),
			reread: async () => storedToken(await context.getCredentials(CREDENTIAL_TYPE), settings.client),
		});
	if (settings.staticToken === '')
		throw new FieldOpsFailure(
			'The Static Token of the Field Ops credential is empty',
			'Paste the token an administrator generated in the Field Ops web interface, or choose Client Credentials as the Authentication.',
		);
	return { value: settings.staticToken, renewAt: Infinity, shared: true };
}

const staticTokenRefused = () =>
	new FieldOpsFailure(
		'Field Ops did not accept the static token (401)',
		'Check the Static Token of the Field Ops credential: an administrator may have revoked it, or it belongs to another environment. Generate a new one in the Field Ops web interface, or use an API client (Client Credentials).',
		401,
	);

async function attempt<T>(context: FieldOpsContext, request: ApiRequest): Promise<ApiResponse<T>> {
	const settings = await readSettings(context);
	const url = targetUrl(settings, request);
	const retries = request.method === 'GET' ? (request.retries ?? READ_RETRIES) : 0;
	let rejected: string | undefined;
	for (let attempt = 0; ; attempt++) {
		const token = await tokenFor(context, settings, rejected);
		const sent = await settle(async () => await exchange(context, settings, request, url, token));
		if ('error' in sent) {
			if (sent.error instanceof FieldOpsFailure) throw sent.error;
			// An address n8n's SSRF protection blocks stays blocked: no retry.
			if (attempt >= retries || ssrfFailure(sent.error, url, ''))
				throw networkFailure(request, url, sent.error);
			await sleep(retryDelayMs(attempt + 1));
			continue;
		}
		const response = sent.value;
		// Whatever the server says back is cleaned of what we sent it.
		const secrets = [token.value, settings.client.clientSecret];
		if (response.statusCode === 401 && settings.staticToken !== undefined) {
			discard(response.body);
			throw staticTokenRefused();
		}
		if (response.statusCode === 401 && rejected === undefined) {
			// Once per request: the token may have been revoked; a new one is fetched and the request sent again.
			discard(response.body);
			rejected = token.value;
			attempt--;
			continue;
		}
		if (response.statusCode === 429 || response.headers?.['retry-after'] !== undefined) request.throttled?.();
		if (RETRYABLE.has(response.statusCode) && attempt < retries) {
			discard(response.body);
			await sleep(retryDelayMs(attempt + 1, response.headers?.['retry-after']));
			continue;
		}
		if (response.statusCode >= 400) {
			const text = hide(String((await failureText(response.body)) ?? ''), secrets);
			throw apiFailure(response.statusCode, text, request.what);
		}
		if (response.statusCode >= 300) {
			discard(response.body);
			throw new FieldOpsFailure(
				`Field Ops answered ${response.statusCode} without saying where to go`,
				`Check the ${urlFieldLabel(request.api ?? 'core')} of the Field Ops credential.`,
				response.statusCode,
			);
		}
		const read = await settle(async () =>
			readBody(request, response, urlFieldLabel(request.api ?? 'core'), secrets),
		);
		if ('value' in read)
			return {
				statusCode: response.statusCode,
				headers: response.headers as IDataObject,
				body: read.value as T,
			};
		if (!(read.error as { retryable?: boolean }).retryable || attempt >= retries) throw read.error;
		await sleep(retryDelayMs(attempt + 1, response.headers?.['retry-after']));
	}
}

/** {@link send}, answering only the body. */
export async function sendJson<T = unknown>(context: FieldOpsContext, request: ApiRequest): Promise<T> {
	return (await send<T>(context, request)).body;
}

export { expectsList };
export type { ApiRequest, ApiResponse, FieldOpsContext, PathParam };
export type { Api } from './settings';
