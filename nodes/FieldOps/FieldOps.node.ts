import {
	NodeConnectionTypes,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeType,
	type INodeTypeDescription,
} from 'n8n-workflow';

import { testFieldOpsCredential } from './transport/credentialTest';
import { describeResources, subtitleOf } from './operations/describe';
import { execute } from './operations/operation';
import { DESCRIPTION, EVERYDAY, RESOURCES } from './resources';
import { listSearch, loadOptions } from './methods';

export class FieldOps implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Field Ops',
		name: 'fieldOps',
		icon: { light: 'file:../../icons/fieldops.svg', dark: 'file:../../icons/fieldops.dark.svg' },
		group: ['transform'],
		// 1.1: Report → Simplify is on for new nodes; nodes saved at 1 keep the raw records.
		// 1.2: Report → Period is Last Week for new nodes and each item says what it covers; saved nodes keep From/To.
		// 1.3: Report → Return All on, Time Zone a choice, a file named after its period, the summary once per run.
		version: [1, 1.1, 1.2, 1.3],
		defaultVersion: 1.3,
		subtitle: subtitleOf(RESOURCES),
		description: DESCRIPTION,
		defaults: { name: 'Field Ops' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'fieldOpsOAuth2Api', required: true, testedBy: 'testFieldOpsCredential' }],
		properties: describeResources(RESOURCES, 'project', EVERYDAY),
	};

	methods = { listSearch, loadOptions, credentialTest: { testFieldOpsCredential } };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await execute(RESOURCES, this);
	}
}
