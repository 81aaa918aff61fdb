import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { FieldOpsFailure, looksLikeHtml, settle } from './errors';
import { settingsOf, urlFieldLabel, type Api } from './settings';
import { ssrfFailure } from './ssrf';
import { fetchToken, tokenUrlOf, type HttpCall } from './token';

/** A cheap read per API, proving its address, the token and the client's scope for it. */
const READS: Array<{
	api: Api;
	scope: string;
	name: string;
	ticked: (c: ICredentialDataDecryptedObject) => boolean;
	path: string;
}> = [
	{
		api: 'core',
		scope: 'serviceapiv3',
		name: 'Core API',
		ticked: (c) => c.useCoreApi !== false,
		path: '/api/MachineType',
	},
	{
		api: 'reporting',
		scope: 'reportingapiv1',
		name: 'Reporting API',
		ticked: (c) => c.useReportingApi !== false,
		path: '/v1/user?ChunkLimit=1',
	},
	{
		api: 'machineState',
		scope: 'masstransportapiv1',
		name: 'Machine-State API',
		ticked: (c) => c.useMachineStateApi === true,
		// The API has no list to read: the latest time of a project that does not exist still proves access.
		path: '/api/external-excavator-state/latest-timestamp/00000000-0000-0000-0000-000000000000/00000000-0000-0000-0000-000000000000',
	},
];

/** What the last exchange of the test ended with: an answer, or a connection that failed. */
interface LastExchange {
	status?: number;
	body?: string;
	error?: unknown;
}

function legacyHttp(context: ICredentialTestFunctions, last: LastExchange): HttpCall {
	return async (options) => {
		const outcome = await settle(
			async () =>
				(await context.helpers.request({
					method: options.method,
					uri: options.url,
					qs: options.qs,
					body: options.body,
					headers: options.headers,
					json: false,
					simple: false,
					resolveWithFullResponse: true,
					followRedirect: false,
					followAllRedirects: false,
					timeout: options.timeout,
				})) as IN8nHttpFullResponse,
		);
		if ('error' in outcome) {
			Object.assign(last, { status: undefined, body: undefined, error: outcome.error });
			throw outcome.error;
		}
		const response = outcome.value;
		Object.assign(last, { status: response.statusCode, body: String(response.body ?? ''), error: undefined });
		return response;
	};
}

/** Why a request to a credential field's address failed: n8n's SSRF protection, or the connection. */
function unreachable(field: string, url: string, error: unknown): string {
	const blocked = ssrfFailure(error, url, field);
	if (blocked) return `Check the ${field}: ${blocked.message}. ${blocked.description}`;
	return `Check the ${field}: could not reach ${hostOf(url)} (${connectionProblem(error)}). Copy the address from your onboarding, and check that this n8n can reach it.`;
}

/** Why a connection failed, in words (never a code such as ECONNREFUSED). */
export function connectionProblem(error: unknown): string {
	const source = error as { code?: unknown; cause?: { code?: unknown }; message?: unknown };
	const text = `${String(source?.code ?? '')} ${String(source?.cause?.code ?? '')} ${String(source?.message ?? '')}`;
	if (/ECONNREFUSED/.test(text)) return 'nothing answers at that address and port';
	if (/ENOTFOUND|EAI_AGAIN/.test(text)) return 'no server has that name';
	if (/ETIMEDOUT|ECONNABORTED|ESOCKETTIMEDOUT|timeout/i.test(text)) return 'it did not answer in time';
	if (/CERT|certificate|self.signed/i.test(text)) return 'its HTTPS certificate is not trusted';
	if (/EPROTO|wrong version number/i.test(text))
		return 'it does not speak HTTPS on that port (check http:// or https://)';
	if (/ECONNRESET|socket hang up/i.test(text)) return 'it closed the connection';
	return 'the connection failed';
}

const hostOf = (url: string) => {
	try {
		return new URL(url).host;
	} catch {
		return url;
	}
};

/** Why no token came, naming the credential field to fix first. */
function tokenProblem(tokenUrl: string, last: LastExchange, error: unknown): string {
	if (last.error !== undefined) return unreachable('Token Server URL', tokenUrl, last.error);
	const status = last.status ?? 0;
	const code = /"error"\s*:\s*"([a-z_]+)"/.exec(last.body ?? '')?.[1] ?? '';
	if (code === 'invalid_client' || status === 401)
		return 'Check the Client Secret (and the Client ID): the token server refused them. Copy both again from the integration page (Company setup → Integrations); a client of the test environment does not work in production, and a disabled client is refused.';
	if (code === 'invalid_scope' || code === 'unauthorized_client')
		return 'Check the Use … API switches: the API client is not allowed every API ticked. Untick the ones it was not given, or ask your Field Ops administrator to grant them.';
	if (status === 404 || status === 405 || looksLikeHtml(last.body ?? ''))
		return `Check the Token Server URL: there is no token server at ${tokenUrl} (${looksLikeHtml(last.body ?? '') ? 'a web page answered' : `HTTP ${status}`}). Give the token server's address from your onboarding.`;
	const failure = error instanceof FieldOpsFailure ? `${error.message}. ${error.description}` : String(error);
	return status >= 500
		? `The token server had a failure (HTTP ${status}). Try again in a moment.`
		: `Check the Token Server URL, Client ID and Client Secret: ${failure}`;
}

/** The APIs ticked whose scope the token server left out of the token it granted (when it says what it granted). */
function missingScopes(data: ICredentialDataDecryptedObject, granted: string | undefined) {
	if (granted === undefined) return [];
	const scopes = granted.split(/[\s,]+/);
	return READS.filter((read) => read.ticked(data) && !scopes.includes(read.scope));
}

/** What a read's answer says about the credential, in plain words; undefined when it proves access. */
function readProblem(api: Api, response: IN8nHttpFullResponse, staticToken: boolean): string | undefined {
	const field = urlFieldLabel(api);
	const status = response.statusCode;
	const body = typeof response.body === 'string' ? response.body : '';
	if (status === 401 && staticToken)
		return `Check the Static Token (and the ${field}): Field Ops did not accept the token. An administrator may have revoked it, or it belongs to another environment than this address.`;
	if (status === 401)
		return `Check the ${field}: Field Ops there did not accept the token. It must belong to the same environment as the Token Server URL.`;
	const scope = String(response.headers?.['www-authenticate'] ?? '').includes('insufficient_scope');
	if (status === 403 && (scope || api !== 'machineState'))
		return `The API client may not use the API at the ${field}: untick that API, or ask your Field Ops administrator to grant it.`;
	if (status >= 300 && status < 400)
		return `Check the ${field}: it redirects elsewhere. Give the API's own address.`;
	if (status >= 500) return `The API at the ${field} had a failure (HTTP ${status}). Try again in a moment.`;
	if (looksLikeHtml(body))
		return `Check the ${field}: a web page answered there, not the Field Ops API. Copy the address from your onboarding.`;
	if (status === 404 && api !== 'machineState')
		return `Check the ${field}: nothing of the Field Ops API answers there (HTTP 404). Copy the address from your onboarding.`;
	return undefined;
}

/**
 * The credential's Test: a token from the token server (or the static token), the scopes it was granted against
 * the APIs ticked, then one read on each API ticked. The token is not stored: the form may hold unsaved edits.
 */
export async function testFieldOpsCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const settings = settingsOf(data, credential.id);
	const last: LastExchange = {};
	const http = legacyHttp(this, last);
	let token = settings.staticToken ?? '';
	if (settings.staticToken === '')
		return { status: 'Error', message: 'Enter the Static Token an administrator generated in Field Ops.' };
	if (settings.staticToken === undefined) {
		try {
			const granted = await fetchToken(http, settings.client);
			token = granted.value;
			const missing = missingScopes(data, granted.scope);
			if (missing.length > 0)
				return {
					status: 'Error',
					message: `The API client was not granted the ${missing.map((read) => `${read.name} (scope ${read.scope})`).join(' and ')}: the token server left ${missing.length > 1 ? 'them' : 'it'} out of the token. Untick Use ${missing.map((read) => read.name).join(' and Use ')}, or ask your Field Ops administrator to grant the API client ${missing.length > 1 ? 'these APIs' : 'this API'}.`,
				};
		} catch (error) {
			return { status: 'Error', message: tokenProblem(tokenUrlOf(settings.client), last, error) };
		}
	}
	for (const read of READS.filter((candidate) => candidate.ticked(data))) {
		const url = `${settings.urls[read.api]}${read.path}`;
		let response: IN8nHttpFullResponse;
		try {
			response = await http({
				method: 'GET',
				url,
				headers: { Authorization: `Bearer ${token}`, Accept: 'application/json' },
				timeout: 30_000,
			});
		} catch (error) {
			return { status: 'Error', message: unreachable(urlFieldLabel(read.api), url, error) };
		}
		const problem = readProblem(read.api, response, settings.staticToken !== undefined);
		if (problem) return { status: 'Error', message: problem };
	}
	return { status: 'OK', message: 'Connection successful' };
}
