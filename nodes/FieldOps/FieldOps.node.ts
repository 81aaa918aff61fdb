import { NodeConnectionTypes, type INodeType, type INodeTypeDescription } from 'n8n-workflow';

import { searchEmployees, searchMachines, searchProjects, searchWorkOrders } from './listSearch';
import { RESOURCES } from './resources';
import { getMachineTypes } from './resources/machine/loadOptions';

export class FieldOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops',
		name: 'fieldOps',
		icon: { light: 'file:../../icons/fieldops.svg', dark: 'file:../../icons/fieldops.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{ $parameter["operation"] + ": " + $parameter["resource"] }}',
		description:
			'Manage projects, work orders, machines and people, push documents and export reports in Field Ops',
		defaults: { name: 'Field Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true }],
		requestDefaults: {
			baseURL: '={{ $credentials.coreUrl.replace(/\\/+$/, "") }}',
			headers: { Accept: 'application/json' },
			json: true,
			// Error statuses reach the postReceive hook, which explains them; a 401 still throws so n8n renews the token.
			ignoreHttpStatusErrors: { ignore: true, except: [401] },
		},
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: RESOURCES.map(({ name, value, description }) => ({ name, value, description })),
				default: 'project',
			},
			...RESOURCES.flatMap((resource) => resource.properties),
		],
	};

	customOperations = Object.fromEntries(
		RESOURCES.filter((resource) => resource.customOperations).map((resource) => [
			resource.value,
			resource.customOperations ?? {},
		]),
	);

	methods = {
		listSearch: { searchProjects, searchWorkOrders, searchMachines, searchEmployees },
		loadOptions: { getMachineTypes },
	};
}
