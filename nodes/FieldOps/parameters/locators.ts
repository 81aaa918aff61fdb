import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { FieldOpsFailure } from '../transport/errors';
import type { Destination, Field } from './field';
import type { Item } from '../items/items';
import { locatorValue, resolveMachine } from '../lookups/records';
import { resolveCompany, resolveProject, resolveWorkOrder } from '../lookups/projects';

export interface LocatorOptions {
	/** Where the resolved ID goes: a path placeholder named like the field (default), a body/query property, or
	 * nowhere (`none`: only other fields use it, e.g. the project of a work order given by external ID). */
	to?: Destination | 'none';
	as?: string;
	/** Extra property settings (description, displayOptions, required). */
	extra?: Partial<INodeProperties>;
	/** How the value becomes the ID the route takes, where it is not the locator's usual way. */
	resolve?: Resolve;
	/** An optional field (Additional/Update Fields): left out when empty, never required. */
	optional?: boolean;
}

export type Resolve = (item: Item, raw: unknown) => Promise<string>;

export const listMode = (
	searchListMethod: string,
	placeholder?: string,
	searchable = true,
): INodePropertyMode => ({
	displayName: 'From List',
	name: 'list',
	type: 'list' as const,
	...(placeholder ? { placeholder } : {}),
	typeOptions: { searchListMethod, searchable },
});

/** An ID as Field Ops makes them (a GUID): what a number mode must not hold. */
const LOOKS_LIKE_ID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';

/**
 * A mode where the user types a value. n8n keeps the value when the mode changes (it cannot be cleared from
 * here): a number mode refuses, at once in the editor, an ID left over from the list or By ID.
 */
export const textMode = (
	displayName: string,
	name: string,
	placeholder: string,
	/** For a number mode: what the number is ("project number"). */
	number?: string,
): INodePropertyMode => ({
	displayName,
	name,
	type: 'string' as const,
	placeholder,
	...(number
		? {
				validation: [
					{
						type: 'regex' as const,
						properties: {
							regex: `^(?!\\s*${LOOKS_LIKE_ID}\\s*$).*`,
							errorMessage: `This is an ID, not a ${number}: enter the ${number} (${placeholder}), or switch to By ID`,
						},
					},
				],
			}
		: {}),
});

export function locator(
	property: INodeProperties,
	usual: Resolve | undefined,
	{ to = 'path', as, extra = {}, resolve = usual, optional = false }: LocatorOptions,
): Field {
	const label = property.displayName;
	return {
		property: { required: !optional, ...property, ...extra },
		to: to === 'none' ? undefined : to,
		as,
		value: async (raw, item) => {
			if (optional && locatorValue(raw).value === '') return undefined;
			const id = resolve ? await resolve(item, raw) : locatorValue(raw).value;
			if (id === '')
				throw new FieldOpsFailure(
					`${label} is empty`,
					`Pick the ${label.toLowerCase()} from the list, or enter it.`,
				);
			return id;
		},
	};
}

export const projectLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Project',
			name: 'project',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'The project: pick it from the list (every project you can reach), or give its ID or its project number (Number)',
			modes: [
				listMode('searchProjects'),
				textMode('By ID', 'id', 'e.g. 3f2b6c1e-…'),
				textMode('Number', 'projectNumber', 'e.g. P1001', 'project number'),
			],
		},
		resolveProject,
		options,
	);

export const workOrderLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Work Order',
			name: 'workOrder',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			// The list is the chosen project's work orders: reloaded when the project changes.
			typeOptions: { loadOptionsDependsOn: ['project.value'] },
			description:
				'The work order: pick it from the work orders of the project chosen above, or give its ID or its external ID (unique within the project)',
			modes: [
				listMode('searchWorkOrders'),
				textMode('By ID', 'id', 'e.g. 8d1c…'),
				textMode('Ext. ID', 'externalId', 'e.g. P1001-03', 'external ID'),
			],
		},
		resolveWorkOrder,
		options,
	);

export const machineLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Machine',
			name: 'machine',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'The machine or equipment: pick it from the list, or give its ID or its machine number (Number)',
			modes: [
				listMode('searchMachines'),
				textMode('By ID', 'id', 'e.g. 5a7e…'),
				textMode('Number', 'machineNumber', 'e.g. M100', 'machine number'),
			],
		},
		resolveMachine,
		options,
	);

export const employeeLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Employee',
			name: 'employee',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'The employee: search by name, phone, e-mail or number, or give the employee number (Number)',
			modes: [
				listMode('searchEmployees'),
				textMode('Number', 'employeeNumber', 'e.g. 1042', 'employee number'),
			],
		},
		undefined,
		options,
	);

/** The v4 user; which ID it stands for (identity or profile) is up to the operation. */
export const userLocator = (resolve: Resolve | undefined, options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'User',
			name: 'user',
			type: 'resourceLocator',
			default: { mode: 'employeeNumber', value: '' },
			description: 'The user (v4): by employee number (Number) or by company profile ID (Profile)',
			modes: [
				textMode('Number', 'employeeNumber', 'e.g. 1042', 'employee number'),
				textMode('Profile', 'profileId', 'e.g. 0b9f…'),
			],
		},
		resolve,
		options,
	);

/**
 * The company a new record belongs to. Empty (the default) is the company of the credential's API client; the
 * list offers every company the client can reach (its own and its subsidiaries); By ID for power users. Named
 * `companyId` as the text field it replaces, so a saved ID stays the company (a plain value counts as By ID).
 */
export const companyLocator = (options: LocatorOptions = {}): Field =>
	locator(
		{
			displayName: 'Company',
			name: 'companyId',
			type: 'resourceLocator',
			default: { mode: 'list', value: '' },
			description:
				'The company the record belongs to. Leave it empty for your own company (the one of the credential’s API client), or pick a subsidiary from the list.',
			modes: [
				listMode('searchCompanies', 'Your own company (leave empty)', false),
				textMode('By ID', 'id', 'e.g. 6c1f0a52-1d4e-…'),
			],
		},
		resolveCompany,
		{ to: 'body', ...options, extra: { required: false, ...options.extra } },
	);
