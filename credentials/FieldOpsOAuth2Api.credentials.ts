import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

const FROM_ONBOARDING =
	'You get it at onboarding, or on the integration page of the Field Ops web administration (Company setup → Integrations).';

/** An API's address: shown, and required, only while that API is ticked (`shownWith`). */
const urlProperty = (
	displayName: string,
	name: string,
	example: string,
	hint: string,
	shownWith?: string,
): INodeProperties => ({
	displayName,
	name,
	type: 'string',
	default: '',
	required: true,
	placeholder: example,
	hint: `${hint}. ${FROM_ONBOARDING}`,
	...(shownWith ? { displayOptions: { show: { [shownWith]: [true] } } } : {}),
	typeOptions: {
		validation: [
			{
				type: 'regex',
				properties: {
					regex: '^\\s*https?://[^\\s/?#]+(/[^\\s?#]*)?\\s*$',
					errorMessage: `Enter an address such as ${example} (no query string, no spaces)`,
				},
			},
		],
	},
});

const useApi = (displayName: string, name: string, what: string, on: boolean): INodeProperties => ({
	displayName,
	name,
	type: 'boolean',
	default: on,
	description: `Whether this credential uses the ${what}; its address is asked for only when it is on`,
});

/**
 * The Field Ops API client. The spec publishes no addresses (each environment's four are handed out at
 * onboarding) and no pattern between them, so nothing is filled in by guess: the client's ID and secret come
 * first, then the token server, then each API with its address, asked for only when that API is used.
 */
export class FieldOpsOAuth2Api implements ICredentialType {
	name = 'fieldOpsOAuth2Api';

	displayName = 'Field Ops OAuth2 API';

	icon: Icon = { light: 'file:../icons/fieldops.svg', dark: 'file:../icons/fieldops.dark.svg' };

	documentationUrl = 'https://github.com/fieldops/n8n-nodes-fieldops#credentials';

	properties: INodeProperties[] = [
		{
			displayName:
				'Each Field Ops environment (test, production) has its own addresses and API clients: take all of them from the same environment.',
			name: 'environmentNotice',
			type: 'notice',
			default: '',
		},
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
		urlProperty(
			'Token Server URL',
			'identityUrl',
			'https://identity.example.com',
			'Address of the token server (its root, or the whole …/connect/token address)',
		),
		useApi(
			'Use Core API',
			'useCoreApi',
			'core API (projects, work orders, machines, people, documents)',
			true,
		),
		urlProperty(
			'Core API URL',
			'coreUrl',
			'https://api.example.com',
			'Root address of the core integration API',
			'useCoreApi',
		),
		useApi(
			'Use Reporting API',
			'useReportingApi',
			'reporting API (time, absence, payroll, images, checklists…)',
			true,
		),
		urlProperty(
			'Reporting API URL',
			'reportingUrl',
			'https://reporting.example.com',
			'Root address of the reporting (data extraction) API',
			'useReportingApi',
		),
		useApi('Use Machine-State API', 'useMachineStateApi', 'machine-state API', false),
		urlProperty(
			'Machine-State API URL',
			'machineStateUrl',
			'https://machinestate.example.com',
			'Root address of the machine-state API',
			'useMachineStateApi',
		),
		// Credentials saved before it became a notice keep their choice here; it never filled anything in.
		{ displayName: 'Environment', name: 'environment', type: 'hidden', default: '' },
	];
}
