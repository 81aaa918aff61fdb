import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { projectDescription } from './resources/project';

export class FieldOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops',
		name: 'fieldOps',
		icon: { light: 'file:../../icons/fieldops.svg', dark: 'file:../../icons/fieldops.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description: 'Manage projects, work orders, machines and people, push documents and export reports in Field Ops',
		defaults: { name: 'Field Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true }],
		requestDefaults: {
			baseURL: '={{ $credentials.coreUrl.replace(/\\/+$/, "") }}',
			headers: { Accept: 'application/json' },
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [{ name: 'Project', value: 'project' }],
				default: 'project',
			},
			...projectDescription,
		],
	};
}
