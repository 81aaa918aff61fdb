/** What the machine operations have in common: their paths and the fields they share. */
import {
	bodyField,
	fieldsCollection,
	requiredField,
	wholeNumberField,
	type Field,
	on,
	shown,
} from '../../parameters/field';
import { companyLocator, machineLocator } from '../../parameters/locators';
import { personLocator } from '../../parameters/pickers';
import { listFields } from '../../parameters/limits';

export const MACHINES = '/api/v4/integration/machines';
export const ONE_MACHINE = `${MACHINES}/{machine}`;

/**
 * Every optional machine field of the spec. The equipment → parent machine link is not offered: the spec does
 * not name its field [M3].
 */
export const machineFields: Field[] = [
	bodyField(
		'Active',
		'active',
		'boolean',
		'Whether the machine is active (new machines are inactive unless set)',
	),
	wholeNumberField('Build Year', 'buildYear', 'Year the machine was built', '2019', {
		typeOptions: { minValue: 1900, maxValue: 2200, numberPrecision: 0 },
	}),
	bodyField('Capacity', 'capacity', 'number', 'Capacity'),
	bodyField('Cost Price', 'costPrice', 'number', 'Cost price'),
	bodyField('Cost Price Machine', 'costPriceMachine', 'number', 'Cost price of the machine itself'),
	bodyField('Department', 'department', 'string', 'Department that owns the machine'),
	bodyField('Emission Class', 'emissionClass', 'string', 'Emission class, e.g. Stage V'),
	bodyField('Engine Number', 'engineNumber', 'string', 'Engine number'),
	bodyField('Hour Meter', 'hourMeter', 'number', 'Current hour meter reading'),
	bodyField(
		'Is Equipment',
		'isEquipment',
		'boolean',
		'Whether this is equipment (attached to a machine) rather than a machine. Equipment types are not checked against the machine types.',
	),
	bodyField(
		'Machine Type Name or ID',
		'typeId',
		'options',
		'The machine type, from the types configured for your company. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		{ typeOptions: { loadOptionsMethod: 'getMachineTypes' } },
	),
	bodyField('Name', 'name', 'string', 'Name or model of the machine'),
	bodyField('Note', 'note', 'string', 'Free text', { typeOptions: { rows: 3 } }),
	bodyField('Price', 'price', 'number', 'Sales price'),
	bodyField('Purchased Date', 'purchasedDate', 'dateTime', 'When the machine was bought'),
	bodyField('Registration Number', 'registrationNumber', 'string', 'Licence plate'),
	bodyField(
		'Responsible Employee Number',
		'responsibleEmployeeNumber',
		'string',
		'Employee number of the person responsible',
	),
	personLocator(
		{
			displayName: 'Responsible User',
			name: 'responsibleId',
			description: 'The person responsible: pick the employee, or give the employee number or the user ID',
		},
		'userId',
	),
	bodyField('Serial Number', 'serialNumber', 'string', 'Serial number'),
	bodyField('Service Date', 'serviceDate', 'dateTime', 'Date of the last or next service'),
	bodyField('Weight (Kg)', 'weight', 'number', 'Weight in kilograms'),
];

export const machine = shown(
	on('machine', 'checkDeletable', 'delete', 'get', 'replace', 'update', 'updateEsg'),
	machineLocator(),
);
export const companyId = shown(on('machine', 'create', 'createMany', 'replace'), companyLocator());
export const machineNumber = shown(
	on('machine', 'create', 'createMany', 'replace'),
	requiredField(
		'Machine Number',
		'machineNumber',
		'string',
		'The machine number, unique within your company',
		{
			placeholder: 'e.g. M120',
		},
	),
);
export const additionalFields = shown(
	on('machine', 'create', 'createMany', 'replace'),
	fieldsCollection('additional', machineFields),
);
/** PATCH takes any subset of the machine, its number and company included. */
export const updateFields = shown(
	on('machine', 'update', 'updateMany'),
	fieldsCollection(
		'update',
		[
			...machineFields,
			bodyField(
				'Machine Number',
				'machineNumber',
				'string',
				'A new machine number, unique within the company',
			),
			bodyField(
				'Company ID',
				'companyId',
				'string',
				'Moves the machine to this company (one of your company structure)',
			),
		].sort((a, b) => a.property.displayName.localeCompare(b.property.displayName)),
	),
);

/** Create and Create Many build a machine from the same fields, with the same checks. */
export const NEW_MACHINE_FIELDS = [companyId, machineNumber, additionalFields];

export const includeEquipment: Field = shown(on('machine', 'get', 'getAll'), {
	property: {
		displayName: 'Include Equipment Details',
		name: 'includeEquipmentDetails',
		type: 'boolean',
		default: false,
		description: 'Whether to include the equipment linked to each machine',
	},
	to: 'query',
});

/** Return All and Limit of Get Many. */
export const LIST = listFields(on('machine', 'getAll'));
