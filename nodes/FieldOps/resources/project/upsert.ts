import type { IDataObject } from 'n8n-workflow';

import { on, shown, notice } from '../../parameters/field';
import { LOOKUP_PATHS } from '../../lookups/records';
import { recordId } from '../../lookups/numbers';
import { fromFields, type CodeOperation } from '../../operations/operation';
import {
	byKeyNumber,
	postEach,
	patchEach,
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
	lookUp: byKeyNumber('projectNumber', {
		what: 'project',
		list: { path: PROJECTS },
		byNumber: { path: LOOKUP_PATHS.projectByNumber, param: 'projectNumber', label: 'Project' },
		numberOf: (record) => record.projectNumber,
	}),
	createBody: async ({ item }) => (await fromFields(FIELDS, item)).body,
	create: postEach(PROJECTS, 'project'),
	update: patchEach(ONE_PROJECT, 'project', ({ record }) => ({
		project: { label: 'Project', value: recordId(record) },
	})),
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
