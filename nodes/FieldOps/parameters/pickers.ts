import type { INodeProperties } from 'n8n-workflow';

import type { Field } from './field';
import { listMode, locator, textMode, type LocatorOptions } from './locators';
import { locatorValue, userId } from '../lookups/records';

/**
 * The fields of Additional/Update Fields that name another record by its ID in the API: each a list to pick from,
 * with the ID as the second mode, so nobody types an ID. Each keeps the name of the text field it replaces, so a
 * saved ID stays what it was (a plain value counts as By ID).
 */

const dependsOnProject = { loadOptionsDependsOn: ['project.value', 'workOrder.value'] };

/**
 * A person: picked from the employees (searched by name, phone, e-mail or number), or given by employee number, or
 * by user ID. `to: 'userId'` sends the user ID (the v4 `identityId`, looked up by employee number); otherwise the
 * employee number goes as it is, which the spec lets a project's foreman and leader be.
 */
export function personLocator(
	property: Pick<INodeProperties, 'displayName' | 'name' | 'description'>,
	send: 'employeeNumber' | 'userId',
	options: LocatorOptions = {},
): Field {
	return locator(
		{
			...property,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			modes: [
				listMode('searchEmployees'),
				textMode('Number', 'employeeNumber', 'e.g. 1042', 'employee number'),
				textMode('By ID', 'id', 'e.g. 0b9f…'),
			],
		},
		send === 'userId'
			? async (item, raw) => {
					const { mode, value } = locatorValue(raw);
					if (mode === 'id' || value === '') return value;
					return await userId(item, { mode: 'employeeNumber', value }, 'identityId');
				}
			: undefined,
		{ to: 'body', optional: true, ...options },
	);
}

/** A value the project's work orders already use (unit, chapter), or its ID. */
function inUseLocator(
	displayName: string,
	name: string,
	searchListMethod: string,
	description: string,
	placeholder: string,
	options: LocatorOptions,
): Field {
	return locator(
		{
			displayName,
			name,
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description,
			typeOptions: dependsOnProject,
			modes: [listMode(searchListMethod), textMode('By ID', 'id', placeholder)],
		},
		undefined,
		{ to: 'body', optional: true, ...options },
	);
}

export const unitLocator = (options: LocatorOptions = {}): Field =>
	inUseLocator(
		'Unit',
		'unitId',
		'searchUnits',
		'The unit of measurement: pick one the project’s work orders already use, or give its ID (By ID)',
		'e.g. m3',
		options,
	);

export const chapterLocator = (options: LocatorOptions = {}): Field =>
	inUseLocator(
		'Chapter',
		'chapterId',
		'searchChapters',
		'The chapter the work order belongs to: pick one the project’s work orders already use, or give its ID (By ID)',
		'e.g. 4c2d…',
		options,
	);

/** The parent of a sub-order: a work order of the same project (parents listed first), or its ID. */
export const parentWorkOrderLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Parent Work Order',
			name: 'parentActivityId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'The work order (of the same project) to nest this one under; it must be marked Is Parent. Pick it from the project’s work orders, or give its ID.',
			typeOptions: dependsOnProject,
			modes: [listMode('searchParentWorkOrders'), textMode('By ID', 'id', 'e.g. 8d1c…')],
		},
		undefined,
		{ to: 'body', optional: true, ...options },
	);

/** The report's Company filter: a company the client reaches, from the list, or by ID. */
export const companyFilter: INodeProperties = {
	displayName: 'Company',
	name: 'companyId',
	type: 'resourceLocator',
	default: { mode: 'list', value: '' },
	description:
		'Only records owned by this company: your own, or a subsidiary. Pick it from the list, or give its ID.',
	modes: [
		listMode('searchCompanies', 'Pick a company', false),
		textMode('By ID', 'id', 'e.g. 6c1f0a52-1d4e-…'),
	],
};
