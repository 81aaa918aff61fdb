import {
	ICredentialsHelper,
	NodeHelpers,
	Workflow,
	type ICredentialDataDecryptedObject,
	type ICredentialType,
	type ICredentials,
	type IHttpRequestHelper,
	type IHttpRequestOptions,
	type INode,
	type INodeCredentialsDetails,
	type INodeParameters,
	type INodeProperties,
	type INodeTypes,
	type IRequestOptionsSimplified,
} from 'n8n-workflow';
import { Credentials } from 'n8n-core';

const mockNode: INode = {
	id: 'credentials',
	name: '',
	typeVersion: 1,
	type: 'mock',
	position: [0, 0],
	parameters: {},
};

/** As n8n does, credential expressions are resolved in a one-node workflow of a property-less type. */
const mockNodeTypes: INodeTypes = {
	getByName: () => mockNodeTypes.getByNameAndVersion('mock'),
	getByNameAndVersion: () => ({
		description: {
			displayName: 'Mock',
			name: 'mock',
			group: [],
			version: 1,
			description: '',
			defaults: {},
			inputs: [],
			outputs: [],
			properties: [],
		},
	}),
	getKnownTypes: () => ({}),
};

/**
 * Credentials as n8n's CLI keeps them, in memory: defaults of the type (and its parents) applied,
 * `={{ }}` expressions resolved with `$self`, and OAuth2 token data written back after a token request,
 * so token reuse across items and executions behaves as in n8n. Counts the token writes for tests.
 */
export class HarnessCredentialsHelper extends ICredentialsHelper {
	/** Stored credential data by credential id. */
	readonly stored = new Map<string, ICredentialDataDecryptedObject>();
	oauthTokenWrites = 0;

	constructor(private readonly credentialTypes: Map<string, ICredentialType>) {
		super();
	}

	getParentTypes(name: string): string[] {
		const parents = this.credentialTypes.get(name)?.extends ?? [];
		return parents.flatMap((parent) => [parent, ...this.getParentTypes(parent)]);
	}

	isCredentialUsableByNode(): boolean {
		return true;
	}

	async authenticate(
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		requestOptions: IHttpRequestOptions | IRequestOptionsSimplified,
	): Promise<IHttpRequestOptions> {
		const type = this.credentialTypes.get(typeName);
		if (typeof type?.authenticate === 'function') {
			return await type.authenticate(credentials, requestOptions as IHttpRequestOptions);
		}
		return requestOptions as IHttpRequestOptions;
	}

	/**
	 * As n8n's (packages/cli/src/credentials-helper.ts): when the type has a hidden `expirable` field that is empty,
	 * or the credential was refused (401), run the type's `preAuthentication` and store its answer with the
	 * credential. Counts the runs that stored a value, for tests.
	 */
	preAuthenticationWrites = 0;

	async preAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
		node: INode,
		credentialsExpired: boolean,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.get(typeName);
		const expirable = type?.properties.find(
			(property) => property.type === 'hidden' && property.typeOptions?.expirable === true,
		);
		if (!type || !expirable || typeof type.preAuthentication !== 'function') return undefined;
		if (credentials[expirable.name] !== '' && !credentialsExpired) return undefined;
		const output = (await type.preAuthentication.call(
			helpers,
			credentials,
		)) as ICredentialDataDecryptedObject;
		if (output[expirable.name] === undefined) return undefined;
		const nodeCredentials = node.credentials?.[typeName];
		if (!nodeCredentials) return undefined;
		this.preAuthenticationWrites += 1;
		Object.assign(this.data(nodeCredentials), structuredClone(output));
		return Object.assign(credentials, output);
	}

	/** As n8n's: called on every OAuth2 request when the type has a `preAuthentication` hook. */
	async runPreAuthentication(
		helpers: IHttpRequestHelper,
		credentials: ICredentialDataDecryptedObject,
		typeName: string,
	): Promise<ICredentialDataDecryptedObject | undefined> {
		const type = this.credentialTypes.get(typeName);
		if (typeof type?.preAuthentication !== 'function') return undefined;
		return (
			((await type.preAuthentication.call(helpers, credentials)) as ICredentialDataDecryptedObject) ??
			undefined
		);
	}

	async getCredentials(nodeCredentials: INodeCredentialsDetails, type: string): Promise<ICredentials> {
		const credentials = new Credentials({ id: nodeCredentials.id, name: nodeCredentials.name }, type);
		await credentials.setData(this.data(nodeCredentials));
		return credentials;
	}

	async getDecrypted(
		_additionalData: unknown,
		nodeCredentials: INodeCredentialsDetails,
		type: string,
		_mode?: unknown,
		_executeData?: unknown,
		raw?: boolean,
	): Promise<ICredentialDataDecryptedObject> {
		const data = structuredClone(this.data(nodeCredentials));
		if (raw) return data;
		const withDefaults = (NodeHelpers.getNodeParameters(
			this.getCredentialsProperties(type),
			data as INodeParameters,
			true,
			false,
			null,
			null,
		) ?? {}) as ICredentialDataDecryptedObject;
		// As n8n: stored token data wins over the `oauthTokenData` default of OAuth2 types.
		if (data.oauthTokenData !== undefined) withDefaults.oauthTokenData = data.oauthTokenData;
		const workflow = new Workflow({
			nodes: [mockNode],
			connections: {},
			active: false,
			nodeTypes: mockNodeTypes,
		});
		return workflow.expression.getComplexParameterValue(
			mockNode,
			withDefaults as INodeParameters,
			'internal',
			{},
			undefined,
			undefined,
			withDefaults,
		) as ICredentialDataDecryptedObject;
	}

	async updateCredentials(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.stored.set(this.id(nodeCredentials), { ...data });
	}

	async updateCredentialsOauthTokenData(
		nodeCredentials: INodeCredentialsDetails,
		_type: string,
		data: ICredentialDataDecryptedObject,
	): Promise<void> {
		this.oauthTokenWrites += 1;
		const stored = this.data(nodeCredentials);
		stored.oauthTokenData = structuredClone(data.oauthTokenData);
	}

	getCredentialsProperties(type: string): INodeProperties[] {
		const credentialType = this.credentialTypes.get(type);
		if (!credentialType) throw new Error(`Unknown credential type ${type}`);
		if (!credentialType.extends && ['oAuth1Api', 'oAuth2Api'].includes(type)) {
			// n8n adds the token store to the OAuth base types.
			return [
				...credentialType.properties,
				{ displayName: 'oauthTokenData', name: 'oauthTokenData', type: 'json', default: {} },
			];
		}
		const merged: INodeProperties[] = [];
		for (const parent of credentialType.extends ?? [])
			NodeHelpers.mergeNodeProperties(merged, this.getCredentialsProperties(parent));
		NodeHelpers.mergeNodeProperties(merged, credentialType.properties);
		return merged;
	}

	private id(nodeCredentials: INodeCredentialsDetails): string {
		if (!nodeCredentials.id) throw new Error(`Credential "${nodeCredentials.name}" has no id`);
		return nodeCredentials.id;
	}

	private data(nodeCredentials: INodeCredentialsDetails): ICredentialDataDecryptedObject {
		const data = this.stored.get(this.id(nodeCredentials));
		if (!data) throw new Error(`No credential with id ${nodeCredentials.id} in the harness`);
		return data;
	}
}
