import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { on, shown, labelsOf, notice } from '../../parameters/field';
import { settle } from '../../transport/errors';
import { expectList } from '../../lookups/records';
import { READ_EACH_UP_TO, byNumber, recordId, single, type Found } from '../../lookups/numbers';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import {
	eachAlone,
	fieldsForUpsert,
	numberKey,
	onlyChangesField,
	runUpsert,
	type Entry,
	type UpsertSpec,
} from '../../operations/upsert';
import { create } from './create';
import { EMPLOYEES, ONE_EMPLOYEE } from './common';
import { update } from './update';

const ON = on('employee', 'upsert');

/** Create's fields: the employee number is the key; the first employment goes only with a new employee. */
const FIELDS = fieldsForUpsert(ON, create.fields, {
	keys: {
		employeeNumber: {
			displayName: 'Employee Number to Match On',
			description:
				'The employee number that identifies the employee (unique in your company structure): the employee with this number is updated; if there is none, a new employee is created with it',
			placeholder: 'e.g. 1042',
		},
	},
	createOnly: {
		employment:
			'Sent only when the employee is new (the first employment). An existing employee’s employments stay as they are: change them with Create Employment, Update Employment or End Employment.',
	},
});
const KEY = FIELDS[0];

/**
 * The employee list with its `employeeNumber` filter, subsidiaries included (numbers are unique in the company
 * structure). The filter is matched again here: a service that ignored it would answer every employee.
 */
async function employees(context: IExecuteFunctions, number?: string, itemIndex?: number) {
	return expectList(
		await sendJson(context, {
			method: 'GET',
			path: EMPLOYEES,
			qs: {
				includeEmployeesFromSubsidiaries: true,
				...(number === undefined ? {} : { employeeNumber: number }),
			},
			what: 'employee',
			itemIndex,
		}),
		'employee',
	);
}

const numberOf = (entry: Entry) => String(entry.key.json.employeeNumber);
const withNumber = (list: IDataObject[]) => {
	const index = byNumber(list, (employee) => employee.employeeNumber);
	return (number: string): Found =>
		single(
			index.get(number) ?? [],
			'employee',
			number,
			'Employee numbers are unique in the company structure: check the number in Field Ops.',
		);
};

/** A few employees: one filtered read each; more: the whole list once. */
async function lookUp(context: IExecuteFunctions, entries: Entry[]): Promise<Found[]> {
	if (entries.length > READ_EACH_UP_TO) {
		const find = withNumber(await employees(context));
		return entries.map((entry) => find(numberOf(entry)));
	}
	const found: Found[] = [];
	for (const entry of entries) {
		const read = await settle(async () => await employees(context, numberOf(entry), entry.item.index));
		found.push('error' in read ? { error: read.error } : withNumber(read.value)(numberOf(entry)));
	}
	return found;
}

const spec: UpsertSpec = {
	what: 'employee',
	fields: FIELDS,
	createOnly: ['employment'],
	// PATCH changes only the profile fields the spec lists: those of Update.
	patchable: Object.keys(labelsOf(update.fields)),
	keyOf: async (item) => numberKey(item, KEY, 'employee'),
	lookUp,
	createBody: async ({ item }) => {
		const request = await fromFields(FIELDS, item);
		await create.request.prepare?.(request, item);
		return request.body as IDataObject;
	},
	create: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ body, item }) =>
				await sendJson(context, {
					method: 'POST',
					path: EMPLOYEES,
					body,
					what: 'employee',
					itemIndex: item.index,
				}),
		),
	update: async (context, entries) =>
		await eachAlone(
			entries,
			async (entry) =>
				await sendJson(context, {
					method: 'PATCH',
					path: ONE_EMPLOYEE,
					params: { employee: { label: 'Employee', value: numberOf(entry) } },
					body: entry.changes,
					what: 'employee',
					itemIndex: entry.item.index,
				}),
		),
	// v5 knows an employee by its number (spec: Versioning 2).
	idOf: (record) => recordId(record, 'employeeNumber'),
};

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update an employee',
	description: 'Create a new employee, or update the current one if it already exists (upsert)',
	returns:
		'one item per input item: result (created, updated or unchanged), id (the employee number), changedFields, and the employee as Field Ops holds it; or the error',
	fields: [
		KEY,
		shown(
			ON,
			notice(
				'upsertNotice',
				'An employee with this number gets the fields below that differ from Field Ops (empty fields are left alone). Without one, a new employee is created: First Name, Last Name, Phone, Birth Date and the Employment’s Start Date are then needed.',
			),
		),
		...FIELDS.slice(1),
		onlyChangesField(ON),
	],
	requests: [
		{ method: 'GET', path: EMPLOYEES },
		{ method: 'POST', path: EMPLOYEES },
		{ method: 'PATCH', path: ONE_EMPLOYEE },
	],
	execute: async (context) => await runUpsert(context, spec),
};
