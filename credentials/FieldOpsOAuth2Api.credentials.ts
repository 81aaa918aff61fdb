import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

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
			displayName: 'Client ID',
			name: 'clientId',
			type: 'string',
			default: '',
			required: true,
			hint: 'The client ID of the API client created on the integration page of the Field Ops web administration',
		},
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
			required: true,
			hint: 'The secret shown once when the API client was created',
		},
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
	];
}
