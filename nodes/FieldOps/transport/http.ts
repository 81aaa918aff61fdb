import type {
	IDataObject,
	IExecuteFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { httpOf, sendOwn } from './auth';
import { FieldOpsFailure, hide, looksLikeHtml } from './errors';
import { urlFieldLabel, type Api, type Settings } from './settings';
import type { Token } from './token';

export type FieldOpsContext = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** A value for a `{name}` path segment, with the label of the field it came from (for errors). */
export interface PathParam {
	label: string;
	value: unknown;
}

export interface ApiRequest {
	api?: Api;
	method: IHttpRequestMethods;
	/** Path below the API's root, with `{name}` placeholders filled from `params` (encoded here). */
	path?: string;
	params?: Record<string, PathParam>;
	/** Instead of api + path: an absolute link from an answer (file links); it must lie under a credential address. */
	url?: string;
	qs?: IDataObject;
	body?: unknown;
	/** Names the thing the request is about, for messages ("project"). */
	what?: string;
	itemIndex?: number;
	timeoutMs?: number;
	/** Attempts after the first, for reads only (429, 5xx, dropped or stalled connections, unreadable answers). */
	retries?: number;
	/** `json`: the answer must be JSON; `stream`: the body is handed over unread (files). Default: JSON if it is JSON. */
	expect?: 'json' | 'stream';
	/** Called when the service asks to slow down (a 429, or a Retry-After), before the read is retried. */
	throttled?: () => void;
	/** The shape the caller needs: what is wrong with the answer, or nothing. Retried on reads like a cut-off answer. */
	check?: (body: unknown) => string | undefined;
}

export interface ApiResponse<T = unknown> {
	statusCode: number;
	headers: IDataObject;
	body: T;
}

export const DEFAULT_TIMEOUT_MS = 60_000;
const MAX_REDIRECTS = 5;

/** Drops a streamed body we will not read, so its connection is freed. */
export function discard(body: unknown) {
	(body as { destroy?: () => void } | undefined)?.destroy?.();
}

/**
 * One exchange, following redirects by our rules: the token only ever goes to the credential's addresses; a
 * read may follow a redirect elsewhere without it; a write is never redirected away (307/308 to our own address
 * only), so a request body is never sent to another host.
 */
export async function exchange(
	context: FieldOpsContext,
	settings: Settings,
	request: ApiRequest,
	first: string,
	token: Token,
) {
	const http = httpOf(context);
	// n8n's helper drops an empty list: it goes as JSON text (Set Tags with no tags replaces them all with `[]`).
	const emptyList = Array.isArray(request.body) && request.body.length === 0;
	let url = first;
	for (let hop = 0; ; hop++) {
		const options: IHttpRequestOptions = {
			method: request.method,
			url,
			qs: url === first ? request.qs : undefined,
			// A list goes as repeated keys (`Sources=feed&Sources=alert`), the encoding every reader accepts.
			...(Object.values(request.qs ?? {}).some(Array.isArray) ? { arrayFormat: 'repeat' as const } : {}),
			body: emptyList ? '[]' : (request.body as IDataObject),
			json: request.body !== undefined && !isBlob(request.body),
			headers: {
				Accept: 'application/json',
				...(emptyList ? { 'Content-Type': 'application/json' } : {}),
			},
			encoding: request.expect === 'stream' ? 'stream' : 'text',
			timeout: request.timeoutMs ?? DEFAULT_TIMEOUT_MS,
		};
		// The token only goes with requests to the credential's own addresses.
		const response = settings.isOwn(url)
			? await sendOwn(context, settings, options, token)
			: await http(options);
		const location = response.headers?.location;
		if (response.statusCode < 300 || response.statusCode >= 400 || typeof location !== 'string')
			return response;
		discard(response.body);
		const next = new URL(location, url).toString();
		const keepsMethod = response.statusCode === 307 || response.statusCode === 308;
		if (request.method !== 'GET' && !(keepsMethod && settings.isOwn(next))) {
			throw new FieldOpsFailure(
				`Field Ops answered with a redirect to ${new URL(next).host}; the request was not sent there`,
				`Check the ${urlFieldLabel(request.api ?? 'core')} of the Field Ops credential: it should be the API's own address.`,
				response.statusCode,
			);
		}
		if (hop >= MAX_REDIRECTS) throw new FieldOpsFailure('Field Ops redirected the request too many times');
		url = next;
	}
}

function isBlob(body: unknown): boolean {
	return typeof (body as { stream?: unknown } | undefined)?.stream === 'function';
}

/** What an answer is, in words, for messages about its shape. */
export function kindOf(body: unknown): string {
	if (body === undefined || body === null) return 'nothing';
	if (Array.isArray(body)) return 'a list';
	if (typeof body === 'string') return 'text';
	if (typeof body === 'boolean') return 'true or false';
	return typeof body === 'object' ? 'an object' : `a ${typeof body}`;
}

/** A {@link ApiRequest.check} for operations that need a list ("Project → Get Many", "a list of results"). */
export const expectsList =
	(operation: string, expected = 'a list') =>
	(body: unknown): string | undefined =>
		Array.isArray(body)
			? undefined
			: `Field Ops answered ${kindOf(body)} where ${operation} expects ${expected}`;

/** A failure of the answer's content; a read asks again (the answer may have been cut off or mangled on its way). */
function unreadable(request: ApiRequest, message: string, description: string): FieldOpsFailure {
	return Object.assign(new FieldOpsFailure(message, description), { retryable: request.method === 'GET' });
}

/**
 * The answer's body: JSON when it is JSON, text otherwise, cleaned of `secrets`; a web page, broken JSON where
 * JSON is due, or an answer without the shape `request.check` needs fails.
 */
export function readBody(
	request: ApiRequest,
	response: IN8nHttpFullResponse,
	apiLabel: string,
	secrets: string[],
): unknown {
	if (request.expect === 'stream') return response.body;
	const text = hide(typeof response.body === 'string' ? response.body : String(response.body ?? ''), secrets);
	const answered = request.what ? ` the ${request.what} request` : '';
	if (looksLikeHtml(text))
		throw unreadable(
			request,
			'The address does not point at the Field Ops API: it answered with a web page',
			`Check the ${apiLabel} of the Field Ops credential (the API's root address, from your onboarding).`,
		);
	const body =
		text.trim() === '' ? undefined : parse(request, text, String(response.headers?.['content-type'] ?? ''));
	if (body === undefined && request.expect === 'json')
		throw unreadable(
			request,
			`Field Ops answered${answered} with nothing`,
			'An answer was expected. Try again.',
		);
	const problem = request.check?.(body);
	if (problem)
		throw unreadable(
			request,
			problem,
			'The answer did not have the shape the API documents. Try again; if it keeps happening, contact Field Ops support.',
		);
	return body;
}

function parse(request: ApiRequest, text: string, type: string): unknown {
	try {
		return JSON.parse(text) as unknown;
	} catch {
		// Liberal: text that does not claim to be JSON passes through, and so does a write's answer (the write
		// succeeded); a read whose JSON is broken, or an answer that must be JSON, fails.
		const mustBeJson = request.expect === 'json' || (type.includes('json') && request.method === 'GET');
		if (!mustBeJson) return text;
		throw unreadable(
			request,
			`Field Ops answered${request.what ? ` the ${request.what} request` : ''} with something that is not readable JSON`,
			'The answer was cut off or is not what the API sends. Try again; if it keeps happening, contact Field Ops support.',
		);
	}
}

export async function failureText(body: unknown): Promise<unknown> {
	if (!body || typeof (body as AsyncIterable<Buffer>)[Symbol.asyncIterator] !== 'function') return body;
	let text = '';
	for await (const chunk of body as AsyncIterable<Buffer | string>) {
		text += chunk.toString();
		if (text.length > 64_000) break;
	}
	return text;
}
