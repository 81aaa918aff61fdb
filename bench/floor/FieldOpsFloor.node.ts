/**
 * (d) of the extraction benchmark, the floor: the least a community node can do to read a report inside n8n. It
 * follows the continuation tokens through n8n's `httpRequestWithAuthentication` with the Field Ops credential
 * (n8n's own token handling: the credential's preAuthentication and authenticate) and returns each record as an
 * item: no retries, no checks, no error cleaning. Never part of the package: `bench/floor.ts` loads it into the
 * benchmark's n8n as a custom extension. Type imports only (n8n resolves nothing for a file outside a package).
 */
import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';

interface Page {
	data: IDataObject[];
	continuationToken?: string;
}

export class FieldOpsFloor implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops Floor (benchmark)',
		name: 'fieldOpsFloor',
		group: ['transform'],
		version: 1,
		description: 'Reads one report with n8n’s request helper and nothing else',
		defaults: { name: 'Field Ops Floor' },
		inputs: ['main'],
		outputs: ['main'],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true }],
		properties: [
			{ displayName: 'Path', name: 'path', type: 'string', default: '/v1/time-registrations' },
			{ displayName: 'From', name: 'fromDateTime', type: 'string', default: '' },
			{ displayName: 'To', name: 'toDateTime', type: 'string', default: '' },
			{ displayName: 'Page Size', name: 'pageSize', type: 'number', default: 10000 },
		],
	};

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		const credentials = await this.getCredentials('fieldOpsOAuth2Api');
		const url = `${String(credentials.reportingUrl).replace(/\/+$/, '')}${this.getNodeParameter('path', 0) as string}`;
		const query = {
			FromDateTime: this.getNodeParameter('fromDateTime', 0) as string,
			ToDateTime: this.getNodeParameter('toDateTime', 0) as string,
			ChunkLimit: this.getNodeParameter('pageSize', 0) as number,
		};
		const items: INodeExecutionData[] = [];
		let token = '';
		do {
			const page = (await this.helpers.httpRequestWithAuthentication.call(this, 'fieldOpsOAuth2Api', {
				method: 'GET',
				url,
				qs: token ? { ...query, ContinuationToken: token } : query,
				json: true,
			})) as Page;
			for (const record of page.data) items.push({ json: record });
			token = page.continuationToken ?? '';
		} while (token);
		return [items];
	}
}
