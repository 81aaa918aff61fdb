import type {
	ICredentialDataDecryptedObject,
	IDataObject,
	IExecuteFunctions,
	IHttpRequestHelper,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
} from 'n8n-workflow';

import { FieldOpsFailure } from './errors';
import { CREDENTIAL_TYPE, settingsOf, type Settings } from './settings';
import { accessToken, storedFields, type HttpCall, type Token } from './token';

type Context = IExecuteFunctions | IPollFunctions | ILoadOptionsFunctions;

/** Every status answered, redirects not followed: the transport decides what each means. */
const asIs = (options: IHttpRequestOptions): IHttpRequestOptions => ({
	...options,
	returnFullResponse: true,
	ignoreHttpStatusErrors: true,
	disableFollowRedirect: true,
});

export const httpOf =
	(context: { helpers: { httpRequest(options: IHttpRequestOptions): Promise<unknown> } }): HttpCall =>
	async (options) =>
		(await context.helpers.httpRequest(asIs(options))) as IN8nHttpFullResponse;

/** The error n8n's authentication path wrapped (a node error whose `cause` is the request's own error). */
function unwrapped(error: unknown): unknown {
	let inner = error;
	for (let depth = 0; depth < 3; depth++) {
		const cause = (inner as { cause?: unknown } | undefined)?.cause;
		const name = (inner as { constructor?: { name?: string } } | undefined)?.constructor?.name ?? '';
		if (!cause || !/^Node(Api|Operation)Error$/.test(name)) break;
		inner = cause;
	}
	return inner;
}

/** Where the node hands a token it has just fetched to the credential's preAuthentication (never stored itself). */
const HANDED_OVER = 'tokenToStore';

/**
 * A request to one of the credential's own addresses, through n8n's authentication path: the credential's
 * `authenticate` adds the token. A token new to this process goes with an empty stored token, so n8n runs the
 * credential's preAuthentication, which hands it back (no second token request), and stores it on the credential
 * for every n8n process and the next start.
 */
export async function sendOwn(
	context: Context,
	settings: Settings,
	options: IHttpRequestOptions,
	token: Token,
): Promise<IN8nHttpFullResponse> {
	const share = !token.shared;
	token.shared = true;
	const data = {
		...settings.credential.data,
		...(settings.staticToken === undefined ? storedFields(token, settings.client) : {}),
		...(share ? { accessToken: '', [HANDED_OVER]: token.value } : {}),
	};
	try {
		return (await context.helpers.httpRequestWithAuthentication.call(
			context,
			CREDENTIAL_TYPE,
			asIs(options),
			{
				credentialsDecrypted: {
					id: settings.credential.id ?? '',
					name: settings.credential.name,
					type: CREDENTIAL_TYPE,
					data,
				},
			},
		)) as IN8nHttpFullResponse;
	} catch (error) {
		if (share) token.shared = false;
		throw unwrapped(error);
	}
}

/**
 * The credential's preAuthentication. n8n runs it when the stored token (the hidden, expirable `accessToken`) is
 * empty, or after the API refused it with a 401, and stores the answer on the credential, encrypted, where every
 * n8n process (main, workers, the next start) reads it. A token the node has just fetched is handed over with the
 * request (`sendOwn`), so storing it costs no second token request; n8n's HTTP Request node gets a new one.
 */
export async function renewStoredToken(
	helper: IHttpRequestHelper,
	credentials: ICredentialDataDecryptedObject,
): Promise<IDataObject> {
	const settings = settingsOf(credentials);
	if (settings.staticToken !== undefined) return {};
	const handedOver = credentials[HANDED_OVER];
	if (typeof handedOver === 'string' && handedOver !== '')
		return storedFields(
			{ value: handedOver, renewAt: Number(credentials.accessTokenRenewAt) },
			settings.client,
		);
	const refused = typeof credentials.accessToken === 'string' ? credentials.accessToken : '';
	const token = await accessToken(httpOf(helper), settings.client, { rejected: refused || undefined });
	token.shared = true;
	return storedFields(token, settings.client);
}

/**
 * The credential's `authenticate`: the static token or the stored one as a bearer token, and only to the
 * credential's own addresses (n8n's HTTP Request node may call anything). A stored token issued for another
 * client or scope list is left out: the API's 401 then makes n8n fetch one for the credential as it is now.
 */
export async function addBearerToken(
	credentials: ICredentialDataDecryptedObject,
	options: IHttpRequestOptions,
): Promise<IHttpRequestOptions> {
	const settings = settingsOf(credentials);
	// n8n's legacy request helpers (the HTTP Request node's) name the address `uri`.
	const address = String(options.url ?? (options as { uri?: unknown }).uri ?? '');
	const url =
		options.baseURL && URL.canParse(address, options.baseURL)
			? new URL(address, options.baseURL).toString()
			: address;
	const host = URL.canParse(url) ? new URL(url).host : url || 'an address without a host';
	if (!settings.isOwn(url))
		throw new FieldOpsFailure(
			`The Field Ops credential only sends its token to its own addresses, and ${host} is not one of them`,
			'Use an address under the Core API URL, Reporting API URL or Machine-State API URL of the credential.',
		);
	const token = settings.staticToken ?? settings.stored?.value;
	if (!token) return options;
	return { ...options, headers: { ...options.headers, Authorization: `Bearer ${token}` } };
}
