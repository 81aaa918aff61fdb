import type { IDataObject } from 'n8n-workflow';

import { on, shown, notice } from '../../parameters/field';
import { LOOKUP_PATHS } from '../../lookups/records';
import { lookUpByNumber, recordId } from '../../lookups/numbers';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import {
	eachAlone,
	fieldsForUpsert,
	numberKey,
	onlyChangesField,
	runUpsert,
	type UpsertSpec,
} from '../../operations/upsert';
import { create } from './create';
import { ONE_PROJECT, PROJECTS } from './common';

const ON = on('project', 'upsert');

/** Create's fields: the project number is the key; the company says where a new project goes. */
const FIELDS = fieldsForUpsert(ON, create.fields, {
	keys: {
		projectNumber: {
			displayName: 'Project Number to Match On',
			description:
				'The project number that identifies the project (unique within its company): the project with this number is updated; if there is none, a new project is created with it',
			placeholder: 'e.g. P2044',
		},
	},
	createOnly: {
		companyId:
			'The company the project belongs to: a new project is created in it, and an existing one is looked for in it. Empty: your own company.',
	},
});
const KEY = FIELDS.find((field) => field.property.name === 'projectNumber') ?? FIELDS[0];

const spec: UpsertSpec = {
	what: 'project',
	fields: FIELDS,
	createOnly: ['companyId'],
	keyOf: async (item) => numberKey(item, KEY, 'project', true),
	lookUp: async (context, entries) =>
		await lookUpByNumber(
			context,
			{
				what: 'project',
				list: { path: PROJECTS },
				byNumber: { path: LOOKUP_PATHS.projectByNumber, param: 'projectNumber', label: 'Project' },
				numberOf: (record) => record.projectNumber,
			},
			entries.map(({ item, key }) => ({
				item,
				number: String(key.json.projectNumber),
				company: key.company,
			})),
		),
	createBody: async ({ item }) => (await fromFields(FIELDS, item)).body,
	create: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ body, item }) =>
				await sendJson(context, {
					method: 'POST',
					path: PROJECTS,
					body,
					what: 'project',
					itemIndex: item.index,
				}),
		),
	update: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ record, changes, item }) =>
				await sendJson(context, {
					method: 'PATCH',
					path: ONE_PROJECT,
					params: { project: { label: 'Project', value: recordId(record) } },
					body: changes,
					what: 'project',
					itemIndex: item.index,
				}),
		),
	idOf: (record: IDataObject) => recordId(record),
};

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a project',
	description: 'Create a new project, or update the current one if it already exists (upsert)',
	returns:
		'one item per input item: result (created, updated or unchanged), the project’s id, changedFields, and the project as Field Ops holds it; or the error',
	fields: [
		KEY,
		shown(
			ON,
			notice(
				'upsertNotice',
				'A project with this number gets the fields below that differ from Field Ops (empty fields are left alone); without one, a new project is created.',
			),
		),
		...FIELDS.filter((field) => field !== KEY),
		onlyChangesField(ON),
	],
	requests: [
		{ method: 'GET', path: PROJECTS },
		{ method: 'GET', path: LOOKUP_PATHS.projectByNumber },
		{ method: 'POST', path: PROJECTS },
		{ method: 'PATCH', path: ONE_PROJECT },
	],
	execute: async (context) => await runUpsert(context, spec),
};
