import { createHash } from 'crypto';
import type { ICredentialDataDecryptedObject, IHttpRequestOptions, IN8nHttpFullResponse } from 'n8n-workflow';

import { FieldOpsFailure, hide, reachReason, readErrorBody, settle, shortText } from './errors';
import { ssrfFailure } from './ssrf';

/** One HTTP exchange that answers every status (redirects not followed), or throws for a network failure. */
export type HttpCall = (options: IHttpRequestOptions) => Promise<IN8nHttpFullResponse>;

export interface TokenClient {
	/** The n8n credential it comes from: each credential has its own token in this process. */
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
	/** The scopes the token server granted (its `scope`), when it said. */
	scope?: string;
	/** Whether n8n keeps it on the credential already, where every n8n process (main, workers) finds it. */
	shared: boolean;
}

/** Renew when this share of the token's lifetime is left (at most one minute before expiry). */
const RENEW_SHARE = 0.2;
const MAX_RENEW_MARGIN_MS = 60_000;
const TOKEN_TIMEOUT_MS = 30_000;

// This process's tokens, by credential and client: n8n keeps one copy on the credential for all its processes (see
// auth.ts), and this cache saves reading it back and lets concurrent items share one token request.
const tokens = new Map<string, Token>();
const pending = new Map<string, Promise<Token>>();
// The last failed token request of each client and the run (execution, poll) it failed for.
const failures = new Map<string, { run: unknown; error: unknown }>();

/** Which client configuration a token belongs to: a token is stale once the credential names another. */
export const fingerprintOf = (client: TokenClient) =>
	createHash('sha256')
		.update([client.identityUrl, client.clientId, client.clientSecret, client.scope].join('\n'))
		.digest('hex')
		.slice(0, 32);

export const tokenUrlOf = (client: TokenClient) => `${client.identityUrl}/connect/token`;

/** The token fields n8n stores on the credential (hidden fields; `accessToken` is the expirable one). */
export const storedFields = (token: Pick<Token, 'value' | 'renewAt'>, client: TokenClient) => ({
	accessToken: token.value,
	accessTokenRenewAt: token.renewAt,
	accessTokenFor: fingerprintOf(client),
});

/** The token stored on the credential, if it was issued for the client the credential names now. */
export function storedToken(
	credentials: ICredentialDataDecryptedObject,
	client: TokenClient,
): Token | undefined {
	const value = credentials.accessToken;
	if (typeof value !== 'string' || value === '' || credentials.accessTokenFor !== fingerprintOf(client))
		return undefined;
	const renewAt = Number(credentials.accessTokenRenewAt);
	return { value, renewAt: Number.isFinite(renewAt) ? renewAt : 0, shared: true };
}

export interface TokenRequest {
	/** A token the API has just refused (401): never handed out again. */
	rejected?: string;
	/** The token stored on the credential: it may be newer than this process's. */
	stored?: Token;
	/** The run asking: after a failed token request, the same run gets that failure without asking again. */
	run?: unknown;
	/** The token stored on the credential now: another n8n process may have renewed it meanwhile. */
	reread?: () => Promise<Token | undefined>;
}

/**
 * A bearer token for the client: this process's or the credential's while it has more than a fifth of its lifetime
 * left (read again before asking: another process may have renewed it), else a new one, fetched once for every
 * request that needs it at that moment. A failure is the answer for
 * the rest of the run (one request to a token server that is down, not one per item); the next run asks again.
 */
export async function accessToken(
	http: HttpCall,
	client: TokenClient,
	request: TokenRequest = {},
): Promise<Token> {
	const key = `${client.credentialId ?? ''}\n${fingerprintOf(client)}`;
	const usable = (token?: Token) =>
		token && token.value !== request.rejected && Date.now() < token.renewAt ? token : undefined;
	const cached = usable(tokens.get(key));
	const stored = usable(request.stored);
	if (stored && (!cached || stored.renewAt > cached.renewAt)) tokens.set(key, stored);
	const usableToken = stored && (!cached || stored.renewAt > cached.renewAt) ? stored : cached;
	if (usableToken) return usableToken;
	const failed = failures.get(key);
	if (failed && request.run !== undefined && failed.run === request.run) throw failed.error;
	let flight = pending.get(key);
	if (!flight) {
		const { run, reread } = request;
		flight = (async () =>
			usable(await reread?.().catch(() => undefined)) ?? (await fetchToken(http, client)))()
			.then(
				(token) => {
					tokens.set(key, token);
					failures.delete(key);
					return token;
				},
				(error: unknown) => {
					failures.set(key, { run, error });
					throw error;
				},
			)
			.finally(() => pending.delete(key));
		pending.set(key, flight);
	}
	return await flight;
}

function reachFailure(client: TokenClient, error: unknown): FieldOpsFailure {
	const blocked = ssrfFailure(error, tokenUrlOf(client), 'Token Server URL');
	if (blocked) return blocked;
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

/**
 * A new token (not cached). A failure is not tried again: the first answer of a token server that is down or
 * refuses the client already says all there is to say, and retrying it for every item only adds load.
 */
export async function fetchToken(http: HttpCall, client: TokenClient): Promise<Token> {
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
	if ('error' in sent) throw reachFailure(client, sent.error);
	const response = sent.value;
	// A server that echoes the form would hand the secret to our messages.
	const text = hide(String(response.body ?? ''), [client.clientSecret]);
	let body: unknown = text;
	try {
		body = JSON.parse(text);
	} catch {
		// kept as text: the failure below says what came back
	}
	if (response.statusCode !== 200) throw tokenFailure(client, response.statusCode, body);
	const answer = (body && typeof body === 'object' ? body : {}) as Record<string, unknown>;
	const value = answer.access_token;
	if (typeof value !== 'string' || value === '') {
		throw new FieldOpsFailure(
			'The token server answered without an access token',
			`Check the Token Server URL of the Field Ops credential (it answered: ${shortText(text) ?? 'something other than a token'}).`,
		);
	}
	// `expires_in` is an int (spec); a numeric string is read too, and without one the spec's default (~30 min).
	const seconds = Number(answer.expires_in);
	const lifetimeMs = (Number.isFinite(seconds) && seconds > 0 ? seconds : 1800) * 1000;
	const margin = Math.min(MAX_RENEW_MARGIN_MS, lifetimeMs * RENEW_SHARE);
	const granted = typeof answer.scope === 'string' ? answer.scope : undefined;
	return { value, renewAt: Date.now() + lifetimeMs - margin, scope: granted, shared: false };
}
