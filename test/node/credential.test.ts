import type { ICredentialDataDecryptedObject, INodeType } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { call, useSandbox, type RunningSandbox } from '../helpers/sandbox';
import { FIELD_OPS_NODE, sandboxClientData } from '../helpers/workflows';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

type Test = (this: unknown, credential: unknown) => Promise<{ status: string; message: string }>;

/** The credential's Test as the editor runs it (n8n-core's real request helper), against one sandbox. */
function credentialTester(harness: () => N8nHarness, sb: () => RunningSandbox) {
	return async (clientId: string, overrides: ICredentialDataDecryptedObject = {}) => {
		const node = harness().nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType;
		const test = (node.methods?.credentialTest as Record<string, Test>).testFieldOpsCredential;
		return await test.call(new core.CredentialTestContext(), {
			id: 'test',
			name: 'test',
			type: 'fieldOpsOAuth2Api',
			data: {
				...sandboxClientData(sb(), clientId),
				useCoreApi: true,
				useReportingApi: true,
				useMachineStateApi: false,
				...overrides,
			},
		});
	};
}

const MACHINE_STATE_READ = '/api/external-excavator-state/latest-timestamp/*';

describe('credential Test: granted scopes', () => {
	// [A1] alt: a token server that leaves a scope the client lacks out of the token instead of refusing it.
	const sb = useSandbox({ variant: 'alt' });
	let harness: N8nHarness;
	const test = credentialTester(() => harness, sb);

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	it('names the API whose scope the token server silently left out, even when its read answers 404', async () => {
		// The machine-state read uses all-zero IDs; some services answer 404 (or a 403 without insufficient_scope)
		// for those whatever the scope: the read alone cannot tell.
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: { path: MACHINE_STATE_READ, status: 404, body: { message: 'Not found' } },
		});

		const result = await test('fieldops-user', { useMachineStateApi: true });

		expect(result.status).toBe('Error');
		expect(result.message).toMatch(/not granted the Machine-State API \(scope masstransportapiv1\)/);
		expect(result.message).toMatch(/Untick Use Machine-State API/);
		await call(sb().coreUrl, '/__sandbox/faults', { method: 'DELETE' });
	});

	it('passes when the token carries every scope ticked', async () => {
		expect(await test('fieldops-admin', { useMachineStateApi: true })).toEqual({
			status: 'OK',
			message: 'Connection successful',
		});
	});
});

describe('credential Test: static token', () => {
	const sb = useSandbox({ variant: 'default' });
	let harness: N8nHarness;
	const test = credentialTester(() => harness, sb);
	const staticToken = async () =>
		(
			(
				await call(sb().coreUrl, '/__sandbox/static-tokens', {
					method: 'POST',
					json: { clientId: 'fieldops-admin' },
				})
			).body as { token: string }
		).token;

	beforeAll(async () => {
		harness = await N8nHarness.load();
	});

	it('reads each API ticked with the static token, without the token server', async () => {
		const token = await staticToken();
		await call(sb().coreUrl, '/__sandbox/stats', { method: 'DELETE' });
		const result = await test('fieldops-admin', {
			authentication: 'staticToken',
			staticToken: token,
			identityUrl: 'http://127.0.0.1:9',
		});
		expect(result).toEqual({ status: 'OK', message: 'Connection successful' });
		expect(
			(await call(sb().coreUrl, '/__sandbox/stats')).body.requests['POST /connect/token'],
		).toBeUndefined();
	});

	it('names the Static Token when Field Ops refuses it, and asks for one when it is empty', async () => {
		const token = await staticToken();
		await call(sb().coreUrl, '/__sandbox/tokens/expire', { method: 'POST' });
		const refused = await test('fieldops-admin', { authentication: 'staticToken', staticToken: token });
		expect(refused.status).toBe('Error');
		expect(refused.message).toMatch(/^Check the Static Token/);
		const empty = await test('fieldops-admin', { authentication: 'staticToken', staticToken: '' });
		expect(empty).toEqual({
			status: 'Error',
			message: 'Enter the Static Token an administrator generated in Field Ops.',
		});
	});
});
