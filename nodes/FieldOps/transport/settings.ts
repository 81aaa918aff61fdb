import type { ICredentialDataDecryptedObject, INode } from 'n8n-workflow';

import { storedToken, type Token, type TokenClient } from './token';

export const CREDENTIAL_TYPE = 'fieldOpsOAuth2Api';

/** The four addresses of one Field Ops environment; a token is only ever sent to these. */
export type Api = 'core' | 'reporting' | 'identity' | 'machineState';

const URL_FIELDS: Record<Api, { name: string; label: string }> = {
	core: { name: 'coreUrl', label: 'Core API URL' },
	reporting: { name: 'reportingUrl', label: 'Reporting API URL' },
	identity: { name: 'identityUrl', label: 'Token Server URL' },
	machineState: { name: 'machineStateUrl', label: 'Machine-State API URL' },
};

/** The credential field that holds an API's address, as the user sees it. */
export const urlFieldLabel = (api: Api) => URL_FIELDS[api].label;

export interface Settings {
	/** Root address of each API, without a trailing slash. */
	urls: Record<Api, string>;
	client: TokenClient;
	/** The administrator's static token (spec: Authentication 8), when the credential uses one instead of a client. */
	staticToken?: string;
	/** The token n8n keeps on the credential (shared by its processes), while it still belongs to this client. */
	stored?: Token;
	/** The credential as n8n handed it over, and which one it is: what n8n's authentication path needs. */
	credential: { id?: string; name: string; data: ICredentialDataDecryptedObject };
	/** Whether a URL lies under one of the credential's addresses (same origin, same path prefix). */
	isOwn(url: string): boolean;
}

const trimUrl = (value: unknown) =>
	String(value ?? '')
		.trim()
		.replace(/\/+$/, '');

/** The scopes of the APIs ticked in the credential, as one space-separated list (spec: Authentication 5). */
export function scopeOf(credentials: ICredentialDataDecryptedObject): string {
	return [
		credentials.useCoreApi !== false ? 'serviceapiv3' : '',
		credentials.useReportingApi !== false ? 'reportingapiv1' : '',
		credentials.useMachineStateApi === true ? 'masstransportapiv1' : '',
	]
		.filter(Boolean)
		.join(' ');
}

/** The token server's root: the spec's token address is `{identity_url}/connect/token`, and users paste either. */
const tokenServerRoot = (value: unknown) => trimUrl(value).replace(/\/connect\/token$/i, '');

export function settingsOf(
	credentials: ICredentialDataDecryptedObject,
	credentialId?: string,
	credentialName = '',
): Settings {
	const urls = Object.fromEntries(
		(Object.keys(URL_FIELDS) as Api[]).map((api) => [
			api,
			api === 'identity'
				? tokenServerRoot(credentials[URL_FIELDS[api].name])
				: trimUrl(credentials[URL_FIELDS[api].name]),
		]),
	) as Record<Api, string>;
	const roots = Object.values(urls).flatMap((url) => {
		try {
			const parsed = new URL(`${url}/`);
			return [{ origin: parsed.origin, path: parsed.pathname }];
		} catch {
			return [];
		}
	});
	const client: TokenClient = {
		credentialId,
		identityUrl: urls.identity,
		clientId: String(credentials.clientId ?? ''),
		clientSecret: String(credentials.clientSecret ?? ''),
		scope: scopeOf(credentials),
	};
	const usesStaticToken = credentials.authentication === 'staticToken';
	return {
		urls,
		client,
		staticToken: usesStaticToken ? String(credentials.staticToken ?? '').trim() : undefined,
		stored: usesStaticToken ? undefined : storedToken(credentials, client),
		credential: { id: credentialId, name: credentialName, data: credentials },
		isOwn(url: string) {
			let target: URL;
			try {
				target = new URL(url);
			} catch {
				return false;
			}
			return roots.some(
				(root) => target.origin === root.origin && `${target.pathname}/`.startsWith(root.path),
			);
		},
	};
}

interface CredentialReader {
	getCredentials<T extends object = ICredentialDataDecryptedObject>(
		type: string,
		itemIndex?: number,
	): Promise<T>;
	getNode(): INode;
}

// n8n decrypts the credential on every read: once per node execution (context) is enough.
const cache = new WeakMap<object, Promise<Settings>>();

export async function readSettings(context: CredentialReader): Promise<Settings> {
	let settings = cache.get(context);
	if (!settings) {
		const { id, name } = context.getNode().credentials?.[CREDENTIAL_TYPE] ?? { id: undefined, name: '' };
		settings = context
			.getCredentials(CREDENTIAL_TYPE)
			.then((credentials) => settingsOf(credentials, id ?? undefined, name));
		cache.set(context, settings);
		settings.catch(() => cache.delete(context));
	}
	return await settings;
}
