import type { Icon, ICredentialTestRequest, ICredentialType, INodeProperties } from 'n8n-workflow';

const urlHint = (what: string) =>
	`${what}. You get it at onboarding, or on the integration page of the Field Ops web administration (Company setup → Integrations).`;

const urlProperty = (displayName: string, name: string, example: string, hint: string): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	required: true,
	placeholder: example,
	hint: urlHint(hint),
	typeOptions: {
		validation: [
			{
				type: 'regex',
				properties: {
					regex: '^https?://[^\\s/?#]+(/[^\\s?#]*)?$',
					errorMessage: 'Enter an address such as https://api.example.com (no query string, no spaces)',
				},
			},
		],
	},
});

export class FieldOpsOAuth2Api implements ICredentialType {
	name = 'fieldOpsOAuth2Api';

	extends = ['oAuth2Api'];

	displayName = 'Field Ops OAuth2 API';

	icon: Icon = { light: 'file:../icons/fieldops.svg', dark: 'file:../icons/fieldops.dark.svg' };

	documentationUrl = 'https://github.com/fieldops/n8n-nodes-fieldops#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Environment',
			name: 'environment',
			type: 'options',
			options: [
				{ name: 'Production', value: 'production' },
				{ name: 'Test', value: 'test' },
			],
			default: 'production',
			description:
				'Which Field Ops environment these addresses and this client belong to. Credentials of one environment do not work in the other.',
		},
		urlProperty(
			'Core API URL',
			'coreUrl',
			'https://api.example.com',
			'Root address of the core integration API',
		),
		urlProperty(
			'Reporting API URL',
			'reportingUrl',
			'https://reporting.example.com',
			'Root address of the reporting (data extraction) API',
		),
		urlProperty(
			'Token Server URL',
			'identityUrl',
			'https://identity.example.com',
			'Root address of the token server; the token is requested from its /connect/token',
		),
		urlProperty(
			'Machine-State API URL',
			'machineStateUrl',
			'https://machinestate.example.com',
			'Root address of the machine-state API',
		),
		{
			displayName: 'Use Core API',
			name: 'useCoreApi',
			type: 'boolean',
			default: true,
			description:
				'Whether to request access to the core API (projects, work orders, machines, people, documents)',
		},
		{
			displayName: 'Use Reporting API',
			name: 'useReportingApi',
			type: 'boolean',
			default: true,
			description:
				'Whether to request access to the reporting API (time, absence, payroll, images, checklists…)',
		},
		{
			displayName: 'Use Machine-State API',
			name: 'useMachineStateApi',
			type: 'boolean',
			default: false,
			description: 'Whether to request access to the machine-state API',
		},
		{
			displayName: 'Grant Type',
			name: 'grantType',
			type: 'hidden',
			default: 'clientCredentials',
		},
		{
			displayName: 'Access Token URL',
			name: 'accessTokenUrl',
			type: 'hidden',
			default: '={{ $self["identityUrl"].replace(/\\/+$/, "") + "/connect/token" }}',
		},
		{
			displayName: 'Scope',
			name: 'scope',
			type: 'hidden',
			default:
				'={{ [$self["useCoreApi"] ? "serviceapiv3" : "", $self["useReportingApi"] ? "reportingapiv1" : "", $self["useMachineStateApi"] ? "masstransportapiv1" : ""].filter(Boolean).join(" ") }}',
		},
		{
			displayName: 'Authentication',
			name: 'authentication',
			type: 'hidden',
			default: 'body',
		},
		{
			displayName: 'Auth URI Query Parameters',
			name: 'authQueryParameters',
			type: 'hidden',
			default: '',
		},
	];

	// One cheap read on the first API the credential uses: it proves the token server, the client, the scope
	// and that API's address together. (n8n runs a single test request; the machine-state API has no cheap read.)
	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{ ($credentials.useCoreApi || !$credentials.useReportingApi ? $credentials.coreUrl : $credentials.reportingUrl).replace(/\\/+$/, "") }}',
			url: '={{ $credentials.useCoreApi || !$credentials.useReportingApi ? "/api/MachineType" : "/v1/user?ChunkLimit=1" }}',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message: 'Field Ops did not accept the token. Check the Client ID and Client Secret, and that the client is enabled on the integration page.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message: 'The client is not allowed to use this API. Untick the APIs it was not given, or ask your Field Ops administrator to grant them.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message: 'Nothing answers at this address. Check the Core API URL and Reporting API URL (they come with your onboarding).',
				},
			},
		],
	};
}
