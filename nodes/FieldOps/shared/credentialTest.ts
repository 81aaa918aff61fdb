import type {
	ICredentialDataDecryptedObject,
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IN8nHttpFullResponse,
	INodeCredentialTestResult,
} from 'n8n-workflow';

import { FieldOpsFailure, looksLikeHtml } from './errors';
import { settingsOf, urlFieldLabel, type Api } from './settings';
import { fetchToken, type HttpCall } from './token';

/** A cheap read per API, proving its address, the token and the client's scope for it. */
const READS: Array<{ api: Api; ticked: (c: ICredentialDataDecryptedObject) => boolean; path: string }> = [
	{ api: 'core', ticked: (c) => c.useCoreApi !== false, path: '/api/MachineType' },
	{ api: 'reporting', ticked: (c) => c.useReportingApi !== false, path: '/v1/user?ChunkLimit=1' },
	{
		api: 'machineState',
		ticked: (c) => c.useMachineStateApi === true,
		// The API has no list to read: the latest time of a project that does not exist still proves access.
		path: '/api/external-excavator-state/latest-timestamp/00000000-0000-0000-0000-000000000000/00000000-0000-0000-0000-000000000000',
	},
];

function legacyHttp(context: ICredentialTestFunctions): HttpCall {
	return async (options) => {
		const response = (await context.helpers.request({
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
		})) as IN8nHttpFullResponse;
		return response;
	};
}

function reachProblem(api: Api, host: string, error: unknown): string {
	const code = String((error as { code?: unknown })?.code ?? '');
	const reason = code === 'ENOTFOUND' ? 'unknown host name' : code || 'no answer';
	return `Could not reach ${host} (${reason}). Check the ${urlFieldLabel(api)}.`;
}

/** What a read's answer says about the credential, in plain words; undefined when it proves access. */
function readProblem(api: Api, response: IN8nHttpFullResponse): string | undefined {
	const field = urlFieldLabel(api);
	const status = response.statusCode;
	const body = typeof response.body === 'string' ? response.body : '';
	if (status === 401)
		return `Field Ops did not accept the token at the ${field}. Check that this address belongs to the same environment as the Token Server URL.`;
	const scope = String(response.headers?.['www-authenticate'] ?? '').includes('insufficient_scope');
	if (status === 403 && (scope || api !== 'machineState'))
		return `The client is not allowed to use the API at the ${field}. Untick that API, or ask your Field Ops administrator to grant it.`;
	if (status >= 300 && status < 400) return `The ${field} redirects elsewhere: give the API's own address.`;
	if (status >= 500) return `The API at the ${field} had a failure (${status}). Try again in a moment.`;
	if (looksLikeHtml(body))
		return `The ${field} answers with a web page, not the Field Ops API. Check the address.`;
	if (status === 404 && api !== 'machineState')
		return `Nothing answers at the ${field}. Check the address (from your onboarding).`;
	return undefined;
}

/** The credential's Test: a token from the token server, then one read on each API ticked. */
export async function testFieldOpsCredential(
	this: ICredentialTestFunctions,
	credential: ICredentialsDecrypted,
): Promise<INodeCredentialTestResult> {
	const data = credential.data ?? {};
	const settings = settingsOf(data, credential.id);
	const http = legacyHttp(this);
	let token: string;
	try {
		token = (await fetchToken(http, settings.client)).value;
	} catch (error) {
		const failure =
			error instanceof FieldOpsFailure ? `${error.message}. ${error.description}` : String(error);
		return { status: 'Error', message: failure };
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
			let host = settings.urls[read.api];
			try {
				host = new URL(url).host;
			} catch {
				// the address itself is malformed: say so with the field
			}
			return { status: 'Error', message: reachProblem(read.api, host, error) };
		}
		const problem = readProblem(read.api, response);
		if (problem) return { status: 'Error', message: problem };
	}
	return { status: 'OK', message: 'Connection successful' };
}
