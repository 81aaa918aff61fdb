import { batchSizeField, runBatched } from '../../shared/batch';
import { notice } from '../../shared/fields';
import { fromFields, type CodeOperation } from '../../shared/operation';
import { expectsList, sendJson } from '../../shared/transport';
import { bulkOutcomes } from './bulk';
import { MACHINES, NEW_MACHINE_FIELDS } from './fields';

const CREATE_ARRAY = `${MACHINES}/create/array`;
const batchSize = batchSizeField();
const onePerItem = notice(
	'createManyNotice',
	'Makes one machine per input item: give the fields from the input (drag them in, or an expression such as {{ $json.number }}). The items are sent in batches; each gets its own result.',
);

export const createMany: CodeOperation = {
	name: 'Create Many',
	value: 'createMany',
	action: 'Create one machine per input item',
	description: 'Create one machine per input item, sending them in batches (one request per batch)',
	fields: [onePerItem, ...NEW_MACHINE_FIELDS, batchSize],
	requests: [{ method: 'POST', path: CREATE_ARRAY }],
	execute: async (context) =>
		await runBatched(context, {
			what: 'machine',
			buildElement: async (item) => (await fromFields(NEW_MACHINE_FIELDS, item)).body,
			send: async (elements) =>
				bulkOutcomes(
					await sendJson(context, {
						method: 'POST',
						path: CREATE_ARRAY,
						body: elements,
						what: 'machine',
						check: expectsList('Machine → Create Many', 'a list of results'),
					}),
					elements,
				),
		}),
};
