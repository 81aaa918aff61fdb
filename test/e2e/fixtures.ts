/**
 * What the end-to-end suites share: a Field Ops credential on the sandbox, a Project → Get Many workflow and the
 * projects it must return, and calling a just-activated webhook.
 */
import { call, tokenFor } from '../helpers/sandbox';
import type { RunningSandbox } from '../sandbox/server';
import {
	CREDENTIAL_TYPE,
	NODE_TYPE,
	viaLocalhost,
	webhookChain,
	type N8nInstance,
	type WorkflowFile,
} from '../../scripts/n8n/run';

/** The sandbox client the suites' credentials use. */
export const administrator = (sb: RunningSandbox) => sb.clients.find((c) => c.administrator) ?? sb.clients[0];

const URL_FIELDS = ['coreUrl', 'reportingUrl', 'identityUrl', 'machineStateUrl'];

/**
 * The credential's data for the sandbox's administrator client (the editor's form, as saved). Loopback addresses
 * become http://localhost:<port>: the host name n8n's SSRF protection allows in the suites (N8N_3_SETTINGS).
 */
export function sandboxCredentialData(
	sb: RunningSandbox,
	overrides: Record<string, unknown> = {},
): Record<string, unknown> {
	const admin = administrator(sb);
	const data: Record<string, unknown> = {
		environment: 'test',
		coreUrl: sb.coreUrl,
		reportingUrl: sb.reportingUrl,
		identityUrl: sb.identityUrl,
		machineStateUrl: sb.machineStateUrl,
		clientId: admin.clientId,
		clientSecret: admin.clientSecret,
		useCoreApi: true,
		useReportingApi: true,
		useMachineStateApi: false,
		...overrides,
	};
	for (const field of URL_FIELDS)
		if (typeof data[field] === 'string') data[field] = viaLocalhost(data[field]);
	return data;
}

/** Calls a production webhook; retries briefly while n8n registers it after activation. */
export async function callWebhook(
	n8n: N8nInstance,
	path: string,
	body: string | FormData = '{}',
): Promise<Response> {
	for (let attempt = 0; ; attempt++) {
		const headers: Record<string, string> =
			typeof body === 'string' ? { 'content-type': 'application/json' } : {};
		const answer = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST', headers, body });
		if (answer.status !== 404 || attempt >= 40) return answer;
		await answer.arrayBuffer();
		await new Promise((r) => setTimeout(r, 250));
	}
}

/**
 * Start → Field Ops Project → Get Many (Return All). With `webhookPath` Start is a production webhook answering
 * with every item; without, a manual trigger (for `n8n execute`).
 */
export function projectsWorkflow(
	name: string,
	credential: { id: string; name: string },
	webhookPath?: string,
): WorkflowFile {
	const fieldOps = {
		id: 'field-ops',
		name: 'Field Ops',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [260, 0],
		parameters: { resource: 'project', operation: 'getAll', returnAll: true },
		credentials: { [CREDENTIAL_TYPE]: credential },
	};
	if (webhookPath) return webhookChain(name, webhookPath, [fieldOps]);
	const start = {
		id: 'start',
		name: 'Start',
		type: 'n8n-nodes-base.manualTrigger',
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
	};
	return {
		name,
		nodes: [start, fieldOps],
		connections: { Start: { main: [[{ node: 'Field Ops', type: 'main', index: 0 }]] } },
		settings: { executionOrder: 'v1' },
	};
}

/** The administrator client's project ids read directly from the sandbox, sorted: what `projectsWorkflow` must return. */
export async function sandboxProjectIds(sb: RunningSandbox): Promise<string[]> {
	const direct = await call<{ id: string }[]>(sb.coreUrl, '/api/v4/integration/projects', {
		token: await tokenFor(sb, administrator(sb).clientId),
	});
	if (direct.status !== 200) throw new Error(`the sandbox answered ${direct.status} to GET projects`);
	return direct.body.map((p) => p.id).sort();
}
