import { batchSizeField, runBatched } from '../../shared/batch';
import { machineLocator } from '../../shared/locators';
import { fromFields, type CodeOperation } from '../../shared/operation';
import { expectsList, sendJson } from '../../shared/transport';
import { bulkOutcomes } from './bulk';
import { MACHINES, updateFields } from './fields';

const UPDATE_ARRAY = `${MACHINES}/update/array`;

/** Which machine each item updates: by default the item's own `id`; a machine number is looked up. */
const machineOfItem = machineLocator({
	as: 'id',
	to: 'body',
	extra: {
		default: { mode: 'id', value: '={{ $json.id }}' },
		description: 'The machine each item updates: by default the item’s ID field; or its machine number',
	},
});
const batchSize = batchSizeField();

export const updateMany: CodeOperation = {
	name: 'Update Many',
	value: 'updateMany',
	action: 'Update many machines',
	description: 'Update one machine per input item, sending them in batches (one request per batch)',
	fields: [machineOfItem, updateFields, batchSize],
	requests: [{ method: 'PUT', path: UPDATE_ARRAY }],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine',
			buildElement: async (item) => (await fromFields([machineOfItem, updateFields], item)).body,
			send: async (elements) =>
				bulkOutcomes(
					await sendJson(context, {
						method: 'PUT',
						path: UPDATE_ARRAY,
						body: elements,
						what: 'machine',
						check: expectsList('Machine → Update Many', 'a list of results'),
					}),
					elements,
				),
		}),
};
