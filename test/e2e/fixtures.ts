/** What the end-to-end suites share: a Field Ops credential on the sandbox, and calling a just-activated webhook. */
import type { RunningSandbox } from '../sandbox/server';
import type { N8nInstance } from '../../scripts/n8n/run';

/** The credential's data for the sandbox's administrator client (the editor's form, as saved). */
export function sandboxCredentialData(sb: RunningSandbox, overrides: Record<string, unknown> = {}): Record<string, unknown> {
	const admin = sb.clients.find((c) => c.administrator) ?? sb.clients[0];
	return {
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
}

/** Calls a production webhook; retries briefly while n8n registers it after activation. */
export async function callWebhook(n8n: N8nInstance, path: string, body: string | FormData = '{}'): Promise<Response> {
	for (let attempt = 0; ; attempt++) {
		const headers: Record<string, string> = typeof body === 'string' ? { 'content-type': 'application/json' } : {};
		const answer = await fetch(`${n8n.url}/webhook/${path}`, { method: 'POST', headers, body });
		if (answer.status !== 404 || attempt >= 40) return answer;
		await answer.arrayBuffer();
		await new Promise((r) => setTimeout(r, 250));
	}
}
