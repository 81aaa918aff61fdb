import { createHash } from 'crypto';
import { sleep, type IHttpRequestOptions, type IN8nHttpFullResponse } from 'n8n-workflow';

import { FieldOpsFailure, hide, reachReason, readErrorBody, settle, shortText } from './errors';

/** One HTTP exchange that answers every status (redirects not followed), or throws for a network failure. */
export type HttpCall = (options: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;

export interface TokenClient {
	/** The n8n credential it comes from: each credential has its own token. */
	credentialId?: string;
	/** Root of the token server; the token is requested from its `/connect/token`. */
	identityUrl: string;
	clientId: string;
	clientSecret: string;
	scope: string;
}

export interface Token {
	value: string;
	renewAt: number;
}

/** Renew when this share of the token's lifetime is left (at most one minute before expiry). */
const RENEW_SHARE = 0.2;
const MAX_RENEW_MARGIN_MS = 60_000;
const TOKEN_TIMEOUT_MS = 30_000;
const TOKEN_RETRIES = 2;

// Tokens live in this process only (each n8n worker fetches its own): never in execution data or the database.
const tokens = new Map<string, Token>();
const pending = new Map<string, Promise<Token>>();

const keyOf = (client: TokenClient) =>
	createHash('sha256')
		.update(
			[client.credentialId, client.identityUrl, client.clientId, client.clientSecret, client.scope].join(
				'\n',
			),
		)
		.digest('hex');

export const tokenUrlOf = (client: TokenClient) => `${client.identityUrl}/connect/token`;

/**
 * A bearer token for the client: the cached one while it has more than a fifth of its lifetime left, else a new
 * one, fetched once for every request that needs it at that moment. `rejected` is a token the API has just
 * refused (401): it is never handed out again.
 */
export async function accessToken(http: HttpCall, client: TokenClient, rejected?: string): Promise<string> {
	const key = keyOf(client);
	const cached = tokens.get(key);
	if (cached && cached.value !== rejected && Date.now() < cached.renewAt) return cached.value;
	let flight = pending.get(key);
	if (!flight) {
		flight = fetchToken(http, client)
			.then((token) => {
				tokens.set(key, token);
				return token;
			})
			.finally(() => pending.delete(key));
		pending.set(key, flight);
	}
	return (await flight).value;
}

function reachFailure(client: TokenClient, error: unknown): FieldOpsFailure {
	return new FieldOpsFailure(
		`Could not reach the Field Ops token server at ${new URL(tokenUrlOf(client)).host} (${reachReason(error)})`,
		'Check the Token Server URL of the Field Ops credential, and that this n8n can reach it.',
	);
}

/** The token server's refusal in plain words, naming the credential field to check. */
export function tokenFailure(client: TokenClient, status: number, body: unknown): FieldOpsFailure {
	const { message } = readErrorBody(body);
	const code = (body && typeof body === 'object' ? (body as { error?: unknown }).error : undefined) ?? '';
	if (code === 'invalid_client' || status === 401)
		return new FieldOpsFailure(
			'The token server refused the Client ID or Client Secret',
			'Check the Client ID and Client Secret of the Field Ops credential (copy them again from the integration page), and that the API client is still enabled.',
			401,
		);
	if (code === 'invalid_scope' || code === 'unauthorized_client')
		return new FieldOpsFailure(
			'The API client is not allowed all the APIs ticked in the credential',
			`Untick the APIs this client was not given (it asked for: ${client.scope}), or ask your Field Ops administrator to grant them.`,
			status,
		);
	if (status >= 300 && status < 400)
		return new FieldOpsFailure(
			`The Field Ops token server answered with a redirect (${status}); the client secret was not sent on`,
			'Check the Token Server URL of the Field Ops credential: give the address the token server answers at.',
			status,
		);
	if (status === 404 || status === 405)
		return new FieldOpsFailure(
			`Nothing answers at ${tokenUrlOf(client)}`,
			'Check the Token Server URL of the Field Ops credential: give the root address of the token server, without /connect/token.',
			status,
		);
	return new FieldOpsFailure(
		`The Field Ops token server answered ${status}${message ? `: ${message}` : ''}`,
		status >= 500
			? 'The token server had a failure. Try again in a moment; if it keeps happening, check the Token Server URL of the Field Ops credential.'
			: 'Check the Token Server URL, Client ID and Client Secret of the Field Ops credential.',
		status,
	);
}

/** A new token (not cached); a token server failure or dropped connection is tried again twice. */
export async function fetchToken(http: HttpCall, client: TokenClient): Promise<Token> {
	for (let attempt = 0; ; attempt++) {
		const outcome = await settle(async () => await requestToken(http, client));
		if ('value' in outcome) return outcome.value;
		if (attempt >= TOKEN_RETRIES || !(outcome.error as { transient?: boolean }).transient)
			throw outcome.error;
		await sleep(500 * 2 ** attempt);
	}
}

async function requestToken(http: HttpCall, client: TokenClient): Promise<Token> {
	if (!URL.canParse(tokenUrlOf(client)))
		throw new FieldOpsFailure(
			'The Token Server URL of the Field Ops credential is not a web address',
			'Give the root address of the token server, starting with https://.',
		);
	const form = new URLSearchParams({
		grant_type: 'client_credentials',
		client_id: client.clientId,
		client_secret: client.clientSecret,
		scope: client.scope,
	});
	const sent = await settle(
		async () =>
			await http({
				method: 'POST',
				url: tokenUrlOf(client),
				body: form.toString(),
				headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
				encoding: 'text',
				timeout: TOKEN_TIMEOUT_MS,
			}),
	);
	if ('error' in sent) throw Object.assign(reachFailure(client, sent.error), { transient: true });
	const response = sent.value;
	// A server that echoes the form would hand the secret to our messages.
	const text = hide(String(response.body ?? ''), [client.clientSecret]);
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// kept as text: the failure below says what came back
	}
	if (response.statusCode !== 200)
		throw Object.assign(tokenFailure(client, response.statusCode, body), {
			transient: response.statusCode >= 500,
		});
	const answer = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
	const value = answer.access_token;
	if (typeof value !== 'string' || value === '') {
		throw new FieldOpsFailure(
			'The token server answered without an access token',
			`Check the Token Server URL of the Field Ops credential (it answered: ${shortText(text) ?? 'something other than a token'}).`,
		);
	}
	// `expires_in` may come as a number or a numeric string; without one, assume the spec's default (~30 min).
	const seconds = Number(answer.expires_in);
	const lifetimeMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : 1800) * 1000;
	const margin = Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs * RENEW_SHARE);
	return { value, renewAt: Date.now() + lifetimeMs - margin };
}
