import type {
	ICredentialType,
	INodeExecutionData,
	INodeType,
	ITriggerFunctions,
	ITriggerResponse,
} from 'n8n-workflow';

/**
 * Stand-ins for the few n8n-nodes-base types our example workflows start from. n8n-nodes-base is not a
 * dependency of the in-process harness (the real ones run in the end-to-end tests, inside real n8n);
 * here a trigger only hands the test's input items to the workflow.
 */
function passThroughTrigger(name: string, displayName: string): INodeType {
	return {
		description: {
			displayName,
			name,
			group: ['trigger'],
			version: [1, 1.1, 1.2, 1.3, 2],
			description: `Harness stand-in for ${displayName}`,
			defaults: { name: displayName },
			inputs: [],
			outputs: ['main'],
			properties: [],
		},
		async trigger(this: ITriggerFunctions): Promise<ITriggerResponse> {
			return {};
		},
	};
}

export const BASE_NODE_TYPES: Record<string, INodeType> = {
	'n8n-nodes-base.manualTrigger': passThroughTrigger('manualTrigger', 'When clicking ‘Execute workflow’'),
	'n8n-nodes-base.scheduleTrigger': passThroughTrigger('scheduleTrigger', 'Schedule Trigger'),
	'n8n-nodes-base.emailReadImap': passThroughTrigger('emailReadImap', 'Email Trigger (IMAP)'),
	// Sticky notes are never executed; the workflow only needs to know the type.
	'n8n-nodes-base.stickyNote': {
		description: {
			displayName: 'Sticky Note',
			name: 'stickyNote',
			group: ['input'],
			version: 1,
			description: 'A note on the canvas',
			defaults: { name: 'Note' },
			inputs: [],
			outputs: [],
			properties: [],
		},
	},
	'n8n-nodes-base.noOp': {
		description: {
			displayName: 'No Operation, do nothing',
			name: 'noOp',
			group: ['organization'],
			version: 1,
			description: 'Passes its input through',
			defaults: { name: 'No Operation, do nothing' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		},
		async execute(this): Promise<INodeExecutionData[][]> {
			return [this.getInputData()];
		},
	},
};

/**
 * The parts of n8n's own `oAuth2Api` credential type (n8n-nodes-base) that a client-credentials child
 * relies on: names and defaults as in n8n 2.41, so defaults resolve as they do in n8n.
 */
export const OAUTH2_API_CREDENTIAL: ICredentialType = {
	name: 'oAuth2Api',
	displayName: 'OAuth2 API',
	properties: [
		{ displayName: 'Grant Type', name: 'grantType', type: 'hidden', default: 'authorizationCode' },
		{ displayName: 'Access Token URL', name: 'accessTokenUrl', type: 'string', default: '' },
		{ displayName: 'Client ID', name: 'clientId', type: 'string', default: '' },
		{
			displayName: 'Client Secret',
			name: 'clientSecret',
			type: 'string',
			typeOptions: { password: true },
			default: '',
		},
		{ displayName: 'Scope', name: 'scope', type: 'string', default: '' },
		{ displayName: 'Authentication', name: 'authentication', type: 'hidden', default: 'header' },
		{ displayName: 'Ignore SSL Issues (Insecure)', name: 'ignoreSSLIssues', type: 'boolean', default: false },
	],
};
