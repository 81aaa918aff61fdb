import type {
	IAllExecuteFunctions,
	ICredentialDataDecryptedObject,
	IExecuteFunctions,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IPollFunctions,
} from 'n8n-workflow';

import { CREDENTIAL_TYPE } from './constants';

type TokenContext = IExecuteFunctions | IExecuteSingleFunctions | IPollFunctions | ILoadOptionsFunctions;

interface StoredToken {
	access_token?: string;
	expires_in?: number | string;
	n8n_expires_at?: number | string;
}

/** Refresh when this share of the token's lifetime is left (capped at one minute). */
const REFRESH_SHARE = 0.2;
const MAX_REFRESH_MARGIN_MS = 60_000;

const inFlight = new Map<string, Promise<void>>();

function needsNewToken(token: StoredToken | undefined, nowMs: number): boolean {
	if (!token?.access_token) return true;
	const expiresAt = Number(token.n8n_expires_at);
	if (!Number.isFinite(expiresAt)) return false;
	const lifetimeMs = Number(token.expires_in) * 1000;
	const marginMs =
		Number.isFinite(lifetimeMs) && lifetimeMs > 0
			? Math.min(MAX_REFRESH_MARGIN_MS, lifetimeMs * REFRESH_SHARE)
			: MAX_REFRESH_MARGIN_MS;
	return expiresAt - nowMs <= marginMs;
}

/**
 * Makes sure the credential holds a token that will not expire during the next request.
 *
 * n8n fetches a client-credentials token only when none is stored (every concurrent item fetches its own)
 * and renews it only after a 401. The service asks clients to renew shortly before expiry, and a multipart
 * upload cannot be retried after a 401. So before each request: no token, or one close to expiry → renew it
 * once through n8n's own `refreshOAuth2Token` (which stores it in the credential), shared by all items of
 * this process that need it at the same moment.
 */
export async function ensureFreshToken(
	context: TokenContext,
	credentials?: ICredentialDataDecryptedObject,
): Promise<void> {
	const credentialId = context.getNode().credentials?.[CREDENTIAL_TYPE]?.id;
	if (!credentialId) return;
	const read = async () =>
		(await context.getCredentials(CREDENTIAL_TYPE)).oauthTokenData as StoredToken | undefined;
	// A credential the caller has just read saves a decryption (each evaluates the credential's expressions).
	const stored = credentials ? (credentials.oauthTokenData as StoredToken | undefined) : await read();
	if (!needsNewToken(stored, Date.now())) return;

	let pending = inFlight.get(credentialId);
	if (!pending) {
		pending = (async () => {
			// Another item may have renewed it while this one waited for the credential.
			if (needsNewToken(await read(), Date.now()))
				await context.helpers.refreshOAuth2Token.call(context as IAllExecuteFunctions, CREDENTIAL_TYPE);
		})().finally(() => inFlight.delete(credentialId));
		inFlight.set(credentialId, pending);
	}
	await pending;
}

/** preSend hook form of {@link ensureFreshToken}, for declarative operations. */
export async function freshTokenPreSend(
	this: IExecuteSingleFunctions,
	requestOptions: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	await ensureFreshToken(this);
	return requestOptions;
}
