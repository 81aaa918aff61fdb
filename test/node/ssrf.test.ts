import type { ICredentialDataDecryptedObject, INodeType } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { useSandbox } from '../helpers/sandbox';
import { FIELD_OPS_NODE, fieldOpsWorkflow } from '../helpers/workflows';

// n8n 3.0's default: SSRF protection on. The user allows their own service by host name (here the sandbox, on
// localhost); the same service by its loopback address is in a blocked range. n8n reads these when its outbound
// HTTP service starts (the first request of this file), so they are set before any and restored after.
const SETTINGS = { N8N_SSRF_PROTECTION_ENABLED: 'true', N8N_SSRF_ALLOWED_HOSTNAMES: 'localhost' };
const saved = Object.fromEntries(Object.keys(SETTINGS).map((key) => [key, process.env[key]]));
Object.assign(process.env, SETTINGS);

// eslint-disable-next-line @typescript-eslint/no-require-imports
const core = require('n8n-core') as typeof import('n8n-core');

describe('n8n SSRF protection on (n8n 3.0 default)', () => {
	const sb = useSandbox();
	let harness: N8nHarness;
	const onHost = (url: string, host: string) => url.replace('127.0.0.1', host);
	const credential = (host: string): ICredentialDataDecryptedObject => {
		const admin = sb().clients.find((c) => c.administrator) ?? sb().clients[0];
		return {
			coreUrl: onHost(sb().coreUrl, host),
			reportingUrl: onHost(sb().reportingUrl, host),
			identityUrl: onHost(sb().identityUrl, host),
			machineStateUrl: onHost(sb().machineStateUrl, host),
			clientId: admin.clientId,
			clientSecret: admin.clientSecret,
			useCoreApi: true,
			useReportingApi: true,
			useMachineStateApi: false,
		};
	};
	const projects = (credentialId: string) =>
		fieldOpsWorkflow({ resource: 'project', operation: 'getAll', returnAll: true }, { credentialId });
	const testCredential = async (data: ICredentialDataDecryptedObject) => {
		const node = harness.nodeTypes.getByNameAndVersion(FIELD_OPS_NODE, 1) as INodeType;
		const test = (
			node.methods?.credentialTest as Record<
				string,
				(this: unknown, c: unknown) => Promise<{ status: string; message: string }>
			>
		).testFieldOpsCredential;
		return await test.call(new core.CredentialTestContext(), {
			id: 'ssrf',
			name: 'ssrf',
			type: 'fieldOpsOAuth2Api',
			data,
		});
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		harness.setCredential('allowed', credential('localhost'));
		harness.setCredential('blocked', credential('127.0.0.1'));
	});

	afterAll(() => {
		for (const [key, value] of Object.entries(saved))
			if (value === undefined) delete process.env[key];
			else process.env[key] = value;
	});

	it('runs against the service allowed by host name', async () => {
		const result = await harness.run(projects('allowed'));
		expect(result.error).toBeUndefined();
		expect(result.items['Field Ops'].length).toBeGreaterThan(0);
		expect(await testCredential(credential('localhost'))).toMatchObject({ status: 'OK' });
	});

	it('says which setting allows a blocked Field Ops address, in the node and in the credential Test', async () => {
		const result = await harness.run(projects('blocked'));
		expect(result.error?.message).toBe(
			"n8n's SSRF protection blocked the request to 127.0.0.1, the Token Server URL of the Field Ops credential",
		);
		expect((result.error as { description?: string }).description).toMatch(
			/add 127\.0\.0\.1 to N8N_SSRF_ALLOWED_HOSTNAMES \(or its address range to N8N_SSRF_ALLOWED_IP_RANGES\)/,
		);

		const tested = await testCredential(credential('127.0.0.1'));
		expect(tested.status).toBe('Error');
		expect(tested.message).toMatch(/^Check the Token Server URL: n8n's SSRF protection blocked/);
		expect(tested.message).toMatch(/N8N_SSRF_ALLOWED_HOSTNAMES/);
		expect(tested.message).not.toMatch(/could not reach|connection failed/);
	});

	it('names the API address field when only that address is blocked', async () => {
		harness.setCredential('core-blocked', { ...credential('localhost'), coreUrl: sb().coreUrl });
		const result = await harness.run(projects('core-blocked'));
		expect(result.error?.message).toMatch(/blocked the request to 127\.0\.0\.1, the Core API URL/);
		const tested = await testCredential({ ...credential('localhost'), coreUrl: sb().coreUrl });
		expect(tested.message).toMatch(/^Check the Core API URL: n8n's SSRF protection blocked/);
	});
});
