import type { ICredentialDataDecryptedObject, IDataObject, INodeParameters } from 'n8n-workflow';

import type { RunningSandbox } from '../sandbox/server';
import type { N8nHarness, WorkflowJson } from '../harness';

export const FIELD_OPS_NODE = 'n8n-nodes-fieldops.fieldOps';
export const CREDENTIAL_ID = 'fieldops-sandbox';
export const TRIGGER = 'Field Ops Trigger';

/** Stores a Field Ops credential for one of the sandbox's clients, as a user would fill it in. */
/** The Field Ops credential's data for a sandbox client: its addresses, its secret and the APIs of its scopes ticked. */
export function sandboxClientData(
	sb: RunningSandbox,
	clientId = 'fieldops-admin',
): ICredentialDataDecryptedObject {
	const client = sb.clients.find((c) => c.clientId === clientId);
	if (!client) throw new Error(`No sandbox client ${clientId}`);
	return {
		coreUrl: sb.coreUrl,
		reportingUrl: sb.reportingUrl,
		identityUrl: sb.identityUrl,
		machineStateUrl: sb.machineStateUrl,
		clientId: client.clientId,
		clientSecret: client.clientSecret,
		useCoreApi: client.scopes.includes('serviceapiv3'),
		useReportingApi: client.scopes.includes('reportingapiv1'),
		useMachineStateApi: client.scopes.includes('masstransportapiv1'),
	};
}

export function useSandboxCredential(
	harness: N8nHarness,
	sb: RunningSandbox,
	clientId = 'fieldops-admin',
	id = CREDENTIAL_ID,
): void {
	harness.setCredential(id, { environment: 'test', ...sandboxClientData(sb, clientId) });
}

/** A workflow as the editor exports it: a manual trigger connected to one Field Ops node. */
export function fieldOpsWorkflow(
	parameters: INodeParameters,
	options: { credentialId?: string; continueOnFail?: boolean } = {},
): WorkflowJson {
	return {
		name: 'Field Ops test',
		nodes: [
			{
				id: '1',
				name: 'When clicking ‘Execute workflow’',
				type: 'n8n-nodes-base.manualTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: {},
			},
			{
				id: '2',
				name: 'Field Ops',
				type: FIELD_OPS_NODE,
				typeVersion: 1,
				position: [220, 0],
				parameters,
				credentials: {
					fieldOpsOAuth2Api: { id: options.credentialId ?? CREDENTIAL_ID, name: 'Field Ops sandbox' },
				},
				...(options.continueOnFail ? { onError: 'continueRegularOutput' as const } : {}),
			},
		],
		connections: {
			'When clicking ‘Execute workflow’': { main: [[{ node: 'Field Ops', type: 'main', index: 0 }]] },
		},
	};
}

/** A workflow with only the Field Ops Trigger (polled every minute when active; tests poll it directly). */
export function triggerWorkflow(parameters: IDataObject): WorkflowJson {
	return {
		name: 'Field Ops Trigger test',
		nodes: [
			{
				id: 't1',
				name: TRIGGER,
				type: 'n8n-nodes-fieldops.fieldOpsTrigger',
				typeVersion: 1,
				position: [0, 0],
				parameters: { pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
				credentials: { fieldOpsOAuth2Api: { id: CREDENTIAL_ID, name: 'Field Ops sandbox' } },
			},
		],
		connections: {},
	};
}
