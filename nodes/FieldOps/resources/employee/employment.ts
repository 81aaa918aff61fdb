import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from '../../transport/errors';
import { bodyField, optionsCollection, type Field, on, shown } from '../../parameters/field';
import type { Item } from '../../items/items';
import { choiceValue } from '../../parameters/values';

/** An employment (spec: Employee (v5) → Employment object): a new employee's first, a new one, or changes. */

const PAYROLL = [
	{ name: 'Disabled', value: 0, description: 'No payroll for this employment' },
	{ name: 'Enabled', value: 1, description: 'Hours go to payroll' },
	{ name: 'Variable', value: 2, description: 'Variable payroll' },
];
const payroll: Field = {
	property: {
		displayName: 'Payroll',
		name: 'payroll',
		type: 'options',
		default: 0,
		options: PAYROLL,
		description: 'Payroll mode of the employment',
	},
	to: 'body',
	value: choiceValue('Payroll', PAYROLL),
};

/** Fields of an employment object (spec: Employee (v5) → Employment object). */
export const employmentFields: Field[] = [
	bodyField('Department', 'department', 'string', 'Department of the employment'),
	bodyField('End Date', 'endDate', 'dateTime', 'Last day of the employment; leave empty for open-ended'),
	bodyField(
		'Main Project Number',
		'mainProjectNumber',
		'string',
		'Project number of the employee’s main project',
	),
	payroll,
	bodyField('Start Date', 'startDate', 'dateTime', 'First day of the employment', { required: true }),
];

/** The Employment fixed collection: a new employee's first employment, or the body of Create Employment. */
export const employment: Field = shown(on('employee', 'create', 'createEmployment'), {
	property: {
		displayName: 'Employment',
		name: 'employment',
		type: 'fixedCollection',
		placeholder: 'Add Employment',
		default: {},
		required: true,
		description: 'The employment: Start Date is required, the rest optional',
		options: [
			{ displayName: 'Details', name: 'details', values: employmentFields.map((field) => field.property) },
		],
	},
});

/** The employment object of an item, checked: a start date is required, empty values are left out. */
export async function employmentOf(item: Item): Promise<IDataObject> {
	const details = (item.param<{ details?: IDataObject }>('employment')?.details ?? {}) as IDataObject;
	const result: IDataObject = {};
	for (const field of employmentFields) {
		const raw = details[field.property.name];
		if (raw === undefined || raw === null || raw === '') continue;
		result[field.property.name] = (field.value ? await field.value(raw, item) : raw) as IDataObject[string];
	}
	if (!result.startDate)
		throw new FieldOpsFailure('The employment needs a start date', 'Under Employment, set the Start Date.');
	return result;
}

export const employmentUpdate = shown(
	on('employee', 'updateEmployment'),
	optionsCollection(
		'Employment Fields',
		'employmentUpdate',
		employmentFields.map((field) => ({ ...field, property: { ...field.property, required: false } })),
		{
			placeholder: 'Add Field',
			description: 'Only the fields you add change, on the current active employment',
		},
	),
);
