/**
 * Report → Output → File with n8n's in-memory binary data (`N8N_DEFAULT_BINARY_DATA_MODE=default`; queue mode's
 * database and S3 stores take the same path): n8n reads the file through the stream events, not by iterating it,
 * and a CSV whose columns grow is rewritten from the bytes held in the item.
 */
import type { IBinaryData, IDataObject } from 'n8n-workflow';

import { N8nHarness } from '../harness';
import { csvRecords } from '../helpers/csv';
import { call, useSandbox } from '../helpers/sandbox';
import { fieldOpsWorkflow, useSandboxCredential } from '../helpers/workflows';

const previousMode = process.env.N8N_DEFAULT_BINARY_DATA_MODE;
process.env.N8N_DEFAULT_BINARY_DATA_MODE = 'default';

describe('Field Ops → Report → Output → File, in-memory binary data', () => {
	const sb = useSandbox({ scale: 100 });
	let harness: N8nHarness;
	const run = async (parameters: IDataObject) => {
		const workflow = fieldOpsWorkflow({
			resource: 'report',
			operation: 'timeRegistrations',
			syncMode: 'window',
			fromDateTime: '2000-01-01T00:00:00Z',
			toDateTime: '2100-01-01T00:00:00Z',
			returnAll: true,
			output: 'file',
			...parameters,
		});
		workflow.nodes[1].typeVersion = 1.1;
		const result = await harness.run(workflow);
		expect(result.error).toBeUndefined();
		return result.items['Field Ops'][0];
	};

	beforeAll(async () => {
		harness = await N8nHarness.load();
		useSandboxCredential(harness, sb());
	});

	afterAll(() => {
		if (previousMode === undefined) delete process.env.N8N_DEFAULT_BINARY_DATA_MODE;
		else process.env.N8N_DEFAULT_BINARY_DATA_MODE = previousMode;
	});

	it('holds the whole file in the item (no id), every record one row', async () => {
		const item = await run({ options: { pageSize: 30 } });
		const binary = item.binary?.data as IBinaryData;
		expect(binary.id).toBeUndefined();
		const { records } = csvRecords(Buffer.from(binary.data, 'base64').toString('utf8'));
		expect(records).toHaveLength(item.json.records as number);
		expect(records.length).toBeGreaterThan(30);
	});

	it('rewrites a CSV whose columns grew from the bytes in memory', async () => {
		await call(sb().coreUrl, '/__sandbox/faults', {
			method: 'POST',
			json: [
				{
					path: '/v1/time-registrations',
					status: 200,
					body: { data: [{ id: 'a' }], continuationToken: 't1' },
				},
				{
					path: '/v1/time-registrations',
					status: 200,
					body: { data: [{ id: 'b', hours: 7.5 }], continuationToken: '' },
				},
			],
		});
		const item = await run({ simplify: false, fileFormat: 'csv', fileOptions: { delimiter: '\t' } });
		expect(Buffer.from((item.binary?.data as IBinaryData).data, 'base64').toString('utf8')).toBe(
			'id\thours\r\na\t\r\nb\t7.5\r\n',
		);
	});
});
