import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { N8nHarness, type RunResult, type WorkflowJson } from '../harness';
import { call, type RunningSandbox } from './sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from './workflows';

/** What each Create or Update output item says: `created`, `updated`, `unchanged` or `failed` (an error item's details). */
export const results = (run: RunResult, node = 'Field Ops') =>
	run.items[node].map((item) => item.json.result ?? (item.json.details as IDataObject | undefined)?.result);

/** The items of rows (each row an item's JSON, as Extract from File gives a CSV's rows). */
export const rows = (...list: IDataObject[]): INodeExecutionData[] => list.map((json) => ({ json }));

/**
 * Runs Create or Update of one resource through n8n's engine against the sandbox, and reads the sandbox's request
 * counts (the token requests aside): each test starts from the seed with the counts cleared.
 */
export function upsertRunner(sb: () => RunningSandbox, resource: string) {
	let harness: N8nHarness;
	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});
	beforeEach(async () => {
		await call(sb().coreUrl, '/__sandbox/reset', { method: 'POST', json: {} });
		await clear();
	});
	const clear = async () => {
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
	};
	return {
		clear,
		run: async (parameters: IDataObject, items: INodeExecutionData[], continueOnFail = false) =>
			await harness.run(
				fieldOpsWorkflow({ resource, operation: 'upsert', ...parameters }, { continueOnFail }),
				{ triggerItems: items },
			),
		/** A whole workflow (an example), its first node given the items. */
		runWorkflow: async (workflow: WorkflowJson, items: INodeExecutionData[]) =>
			await harness.run(workflow, { triggerItems: items }),
		/** Requests the sandbox received, by route (`GET /api/…/{id}`), without the token's. */
		requests: async (): Promise<Record<string, number>> => {
			const { requests } = (await call(sb().coreUrl, '/__sandbox/stats')).body as {
				requests: Record<string, number>;
			};
			delete requests['POST /connect/token'];
			return requests;
		},
		/** Makes the sandbox answer the next matching request with a refusal (fault injection). */
		refuseNext: async (method: string, path: string, status: number, body: IDataObject, after = 0) => {
			await call(sb().coreUrl, '/__sandbox/faults', {
				method: 'POST',
				json: [{ method, path, status, body, after, times: 1 }],
			});
		},
	};
}
