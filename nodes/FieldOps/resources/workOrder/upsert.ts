import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { on, shown, fieldsCollection, notice, requiredField, type Field } from '../../parameters/field';
import { FieldOpsFailure, settle } from '../../transport/errors';
import type { Item } from '../../items/items';
import { projectAtNumber } from '../../lookups/projects';
import { expectList, idOf, isNotFound, LOOKUP_PATHS } from '../../lookups/records';
import { recordId, single, type Found } from '../../lookups/numbers';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';
import {
	eachAlone,
	fieldsForUpsert,
	keyText,
	onlyChangesField,
	runUpsert,
	type Entry,
	type UpsertSpec,
} from '../../operations/upsert';
import { create } from './create';
import { ONE_WORK_ORDER, TASKS, workOrderFields } from './common';

const ON = on('workOrder', 'upsert');
const BY_NUMBER = `${TASKS}/by-project-number/{projectNumber}/by-task-number/{taskNumber}/list`;
const BY_EXTERNAL_PROJECT = `${TASKS}/by-external-project-number/{externalProjectNumber}`;

type MatchOn = 'number' | 'external';

const matchOn: Field = shown(ON, {
	property: {
		displayName: 'Match On',
		name: 'matchOn',
		type: 'options',
		noDataExpression: true,
		default: 'number',
		options: [
			{
				name: 'Project Number and Work Order Number',
				value: 'number',
				description: 'The numbers Field Ops shows: the project’s number and the work order’s number in it',
			},
			{
				name: 'External Project Number and External ID',
				value: 'external',
				description:
					'Your own system’s numbers: the project’s External Project Number and the work order’s External ID',
			},
		],
		description:
			'Which numbers tell the work order: an existing one with them is updated, otherwise one is created',
	},
});

/** A number that finds the work order: not sent as a field of it. */
const keyField = (
	displayName: string,
	name: string,
	mode: MatchOn,
	description: string,
	placeholder: string,
): Field =>
	shown(ON, {
		...requiredField(displayName, name, 'string', description, {
			placeholder,
			displayOptions: { show: { matchOn: [mode] } },
		}),
		to: undefined,
	});

const projectNumber = keyField(
	'Project Number',
	'projectNumber',
	'number',
	'The number of the work order’s project in Field Ops: the work order is looked for in this project, and a new one is created in it',
	'e.g. P1001',
);
const workOrderNumber = keyField(
	'Work Order Number to Match On',
	'workOrderNumber',
	'number',
	'The work order’s number within the project, as Field Ops numbers it: the work order with this number is updated; if there is none, a new one is created, with this number as its External ID when External ID is empty',
	'e.g. 07',
);
const externalProjectNumber = keyField(
	'External Project Number',
	'externalProjectNumber',
	'external',
	'The project’s number in your own system (its External Project Number in Field Ops): the work order is looked for in this project, and a new one is created in it',
	'e.g. ERP-2026-014',
);

/**
 * Create's fields less its project (the key names it): External ID (the key, or a field), Name, the template notice,
 * and every optional field with Active among them (an existing work order keeps its Active unless it is set).
 */
const CREATE_FIELDS = fieldsForUpsert(ON, create.fields, {
	omit: ['project', 'active', 'additionalFields'],
	reworded: {
		externalId: {
			description:
				'The work order’s ID in your own system, unique within the project. With Match On: External Project Number and External ID it identifies the work order; otherwise it is needed when a work order is created.',
		},
	},
});
const externalId = CREATE_FIELDS.find((field) => field.property.name === 'externalId') as Field;
const additionalFields = shown(
	ON,
	fieldsCollection(
		'additional',
		workOrderFields.filter((field) => field.property.name !== 'name'),
	),
);
const FIELDS = [...CREATE_FIELDS, additionalFields];

const modeOf = (item: Item): MatchOn =>
	item.param<string>('matchOn') === 'external' ? 'external' : 'number';

async function keyOf(item: Item) {
	if (modeOf(item) === 'external') {
		const project = keyText(item, externalProjectNumber);
		const id = keyText(item, externalId);
		return {
			id: `external\u0000${project}\u0000${id}`,
			name: `work order ${id} of project ${project}`,
			json: { externalProjectNumber: project, externalId: id },
			fields: ['externalId'],
		};
	}
	const project = keyText(item, projectNumber);
	const number = keyText(item, workOrderNumber);
	return {
		id: `number\u0000${project}\u0000${number}`,
		name: `work order ${number} of project ${project}`,
		json: { projectNumber: project, workOrderNumber: number },
		fields: [],
	};
}

const text = (entry: Entry, name: string) => String(entry.key.json[name]);

/** The work orders of a project known by its external number, once per run for every item of that project. */
async function ofExternalProject(context: IExecuteFunctions, item: Item, number: string) {
	return await item.shared(`upsert:external-project:${number}`, async () => {
		const read = await settle(
			async () =>
				await sendJson(context, {
					method: 'GET',
					path: BY_EXTERNAL_PROJECT,
					params: { externalProjectNumber: { label: 'External Project Number', value: number } },
					what: 'project',
					itemIndex: item.index,
				}),
		);
		if ('value' in read) return expectList(read.value, 'work order');
		if (isNotFound(read.error))
			throw new FieldOpsFailure(
				`No project has the External Project Number ${number}`,
				'Check the number, or set it as the project’s External Project Number in Field Ops.',
			);
		throw read.error;
	});
}

/**
 * By project and work order number: one read per item (the spec does not show which field of a work order holds
 * that number, so a project's list cannot be matched here; the route can). By external numbers: the project's
 * work orders once, matched by External ID.
 */
async function lookUp(context: IExecuteFunctions, entries: Entry[]): Promise<Found[]> {
	const found: Found[] = [];
	for (const entry of entries) {
		const read = await settle(async () => {
			if ('externalId' in entry.key.json) {
				const list = await ofExternalProject(context, entry.item, text(entry, 'externalProjectNumber'));
				return single(
					list.filter((workOrder) => String(workOrder.externalId ?? '') === text(entry, 'externalId')),
					'work order',
					text(entry, 'externalId'),
					'External IDs are unique within a project: several projects have this External Project Number.',
				);
			}
			const list = expectList(
				await sendJson(context, {
					method: 'GET',
					path: BY_NUMBER,
					params: {
						projectNumber: { label: 'Project Number', value: text(entry, 'projectNumber') },
						taskNumber: { label: 'Work Order Number', value: text(entry, 'workOrderNumber') },
					},
					what: 'project',
					itemIndex: entry.item.index,
				}),
				'work order',
			);
			return single(
				list,
				'work order',
				text(entry, 'workOrderNumber'),
				'Match on External Project Number and External ID instead: External IDs are unique within a project.',
			);
		});
		found.push('error' in read ? { error: read.error } : read.value);
	}
	return found;
}

/** The project a new work order goes to: its ID and company (the API takes only the project's company). */
async function projectOf(entry: Entry): Promise<IDataObject> {
	const { item } = entry;
	const { context } = item;
	if (!('externalId' in entry.key.json)) {
		const number = text(entry, 'projectNumber');
		return await item.shared(
			`upsert:project:${number}`,
			async () => await projectAtNumber(context, number, item.index),
		);
	}
	const number = text(entry, 'externalProjectNumber');
	const siblings = await ofExternalProject(context, item, number);
	const projects = new Map(
		siblings.map((workOrder) => [
			String(workOrder.projectId),
			{ id: workOrder.projectId, companyId: workOrder.companyId },
		]),
	);
	if (projects.size === 1) return [...projects.values()][0] as IDataObject;
	if (projects.size > 1)
		throw new FieldOpsFailure(
			`${projects.size} projects have the External Project Number ${number}`,
			'Match on Project Number and Work Order Number instead.',
		);
	// A project without work orders: found in the company's project list by its external number.
	const all = await item.shared('upsert:projects', async () =>
		expectList(
			await sendJson(context, { method: 'GET', path: LOOKUP_PATHS.projects, what: 'project' }),
			'project',
		),
	);
	const found = single(
		all.filter((project) => String(project.externalProjectNumber ?? '') === number),
		'project',
		number,
		'Match on Project Number and Work Order Number instead.',
	);
	if ('record' in found) return found.record;
	if ('error' in found) throw found.error;
	throw new FieldOpsFailure(
		`No project of your company has the External Project Number ${number}`,
		'Check the number, or set it as the project’s External Project Number in Field Ops.',
	);
}

const spec: UpsertSpec = {
	what: 'work order',
	fields: FIELDS,
	keyOf,
	lookUp,
	createBody: async (entry) => {
		const body = (await fromFields(FIELDS, entry.item)).body;
		// A new work order must be found by its number next run: where Field Ops numbers work orders by their
		// External ID (W1), only an External ID equal to the number does that.
		if (entry.key.json.workOrderNumber !== undefined && !body.externalId)
			body.externalId = entry.key.json.workOrderNumber;
		const project = await projectOf(entry);
		const number = String(entry.key.json.projectNumber ?? entry.key.json.externalProjectNumber);
		return {
			// Active as Create makes it: on, unless set.
			active: true,
			...body,
			projectId: idOf(project, 'id', 'project', number),
			companyId: idOf(project, 'companyId', 'project', number),
		};
	},
	create: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ body, item }) =>
				await sendJson(context, {
					method: 'POST',
					path: TASKS,
					body,
					what: 'work order',
					itemIndex: item.index,
				}),
		),
	update: async (context, entries) =>
		await eachAlone(
			entries,
			async ({ record, changes, item }) =>
				await sendJson(context, {
					method: 'PATCH',
					path: ONE_WORK_ORDER,
					params: { workOrder: { label: 'Work Order', value: recordId(record) } },
					body: changes,
					what: 'work order',
					itemIndex: item.index,
				}),
		),
	idOf: (record) => recordId(record),
};

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	action: 'Create or update a work order',
	description: 'Create a new work order, or update the current one if it already exists (upsert)',
	returns:
		'one item per input item: result (created, updated or unchanged), the work order’s id, changedFields, and the work order as Field Ops holds it; or the error',
	fields: [
		matchOn,
		projectNumber,
		workOrderNumber,
		externalProjectNumber,
		externalId,
		shown(
			ON,
			notice(
				'upsertNotice',
				'A work order with these numbers gets the fields below that differ from Field Ops (empty fields are left alone). Without one, a new work order is created in the project: Name and External ID are then needed, and it is active unless Active is set.',
			),
		),
		...FIELDS.filter((field) => field !== externalId),
		onlyChangesField(ON),
	],
	requests: [
		{ method: 'GET', path: BY_NUMBER },
		{ method: 'GET', path: BY_EXTERNAL_PROJECT },
		{ method: 'GET', path: LOOKUP_PATHS.projectByNumber },
		{ method: 'GET', path: LOOKUP_PATHS.projects },
		{ method: 'GET', path: '/api/projects/search' },
		{ method: 'POST', path: TASKS },
		{ method: 'PATCH', path: ONE_WORK_ORDER },
	],
	execute: async (context) => await runUpsert(context, spec),
};
