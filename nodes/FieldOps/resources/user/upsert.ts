import { on, shown, notice } from '../../parameters/field';
import { idOf, LOOKUP_PATHS } from '../../lookups/records';
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
import { USER_FIELDS, USERS } from './common';

const ON = on('user', 'upsert');
const ONE_PROFILE = `${USERS}/{companyProfileId}`;

/** Create's fields: the employee number is the key; the company says where a new user goes. */
const FIELDS = fieldsForUpsert(ON, USER_FIELDS, {
	keys: {
		employeeNumber: {
			displayName: 'Employee Number to Match On',
			description:
				'The employee number that identifies the user (unique within its company): the user with this number is updated; if there is none, a new user is created with it',
			placeholder: 'e.g. 1042',
		},
	},
	createOnly: {
		companyId:
			'The company of the user’s profile: a new user is created in it, and an existing one is looked for in it. Empty: your own company.',
	},
});
const KEY = FIELDS.find((field) => field.property.name === 'employeeNumber') ?? FIELDS[0];

const spec: UpsertSpec = {
	what: 'user',
	fields: FIELDS,
	createOnly: ['companyId'],
	keyOf: async (item) => numberKey(item, KEY, 'user', true),
	// The list takes the company; the by-number route answers the credential's own company's user.
	lookUp: async (context, entries) =>
		await lookUpByNumber(
			context,
			{
				what: 'user',
				list: { path: USERS, companyQuery: 'companyId' },
				byNumber: { path: LOOKUP_PATHS.userByEmployeeNumber, param: 'employeeNumber', label: 'User' },
				numberOf: (record) => record.employeeNumber,
			},
			entries.map(({ item, key }) => ({
				item,
				number: String(key.json.employeeNumber),
				company: key.company,
			})),
		),
	createBody: async ({ item }) => (await fromFields(FIELDS, item)).body,
	create: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ body, item }) =>
				await sendJson(context, { method: 'POST', path: USERS, body, what: 'user', itemIndex: item.index }),
		),
	// PATCH takes the company profile ID, not the identity ID (spec: Users v4).
	update: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ record, changes, key, item }) =>
				await sendJson(context, {
					method: 'PATCH',
					path: ONE_PROFILE,
					params: {
						companyProfileId: {
							label: 'User',
							value: idOf(record, 'companyProfileId', 'user', String(key.json.employeeNumber)),
						},
					},
					body: changes,
					what: 'user',
					itemIndex: item.index,
				}),
		),
	idOf: (record) => recordId(record, 'companyProfileId'),
};

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a legacy user',
	description: 'Create a new user, or update the current one if it already exists (upsert)',
	returns:
		'one item per input item: result (created, updated or unchanged), id (the company profile ID), changedFields, and the user as Field Ops holds it; or the error',
	fields: [
		KEY,
		shown(
			ON,
			notice(
				'upsertNotice',
				'A user with this employee number gets the fields below that differ from Field Ops (empty fields are left alone). Without one, a new user is created: First Name, Last Name, Mobile (Work), Birth Date and Employment Start Date are then needed.',
			),
		),
		...FIELDS.filter((field) => field !== KEY),
		onlyChangesField(ON),
	],
	requests: [
		{ method: 'GET', path: USERS },
		{ method: 'GET', path: LOOKUP_PATHS.userByEmployeeNumber },
		{ method: 'POST', path: USERS },
		{ method: 'PATCH', path: ONE_PROFILE },
	],
	execute: async (context) => await runUpsert(context, spec),
};
