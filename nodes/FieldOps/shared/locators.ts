import type { INodeProperties, INodePropertyMode } from 'n8n-workflow';

import { FieldOpsFailure } from './errors';
import type { Destination, Field } from './fields';
import type { Item } from './items';
import { locatorValue, resolveMachine, resolveProject, resolveWorkOrder } from './lookups';

interface LocatorOptions {
	/** Where the resolved ID goes: a path placeholder named like the field (default), a body/query property, or
	 * nowhere (`none`: only other fields use it, e.g. the project of a work order given by external ID). */
	to?: Destination | 'none';
	as?: string;
	/** Extra property settings (description, displayOptions, required). */
	extra?: Partial<INodeProperties>;
}

type Resolve = (item: Item, raw: unknown) => Promise<string>;

const listMode = (searchListMethod: string): INodePropertyMode => ({
	displayName: 'From List',
	name: 'list',
	type: 'list' as const,
	typeOptions: { searchListMethod, searchable: true },
});

const textMode = (displayName: string, name: string, placeholder: string): INodePropertyMode => ({
	displayName,
	name,
	type: 'string' as const,
	placeholder,
});

function locator(
	property: INodeProperties,
	resolve: Resolve | undefined,
	{ to = 'path', as, extra = {} }: LocatorOptions,
): Field {
	const label = property.displayName;
	return {
		property: { required: true, ...property, ...extra },
		to: to === 'none' ? undefined : to,
		as,
		value: async (raw, item) => {
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
			description: 'The project: pick it from the list, or give its ID or its project number',
			modes: [
				listMode('searchProjects'),
				textMode('By ID', 'id', 'e.g. 3f2b6c1e-…'),
				textMode('By Project Number', 'projectNumber', 'e.g. P1001'),
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
			description:
				'The work order: pick it from the work orders of the project, or give its ID or its external ID (unique within the project)',
			modes: [
				listMode('searchWorkOrders'),
				textMode('By ID', 'id', 'e.g. 8d1c…'),
				textMode('By External ID', 'externalId', 'e.g. P1001-03'),
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
			description: 'The machine or equipment: pick it from the list, or give its ID or its machine number',
			modes: [
				listMode('searchMachines'),
				textMode('By ID', 'id', 'e.g. 5a7e…'),
				textMode('By Machine Number', 'machineNumber', 'e.g. M100'),
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
			description: 'The employee: search by name, phone, e-mail or number, or give the employee number',
			modes: [listMode('searchEmployees'), textMode('By Employee Number', 'employeeNumber', 'e.g. 1042')],
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
			description: 'The user (v4): by company profile ID or by employee number',
			modes: [
				textMode('By Employee Number', 'employeeNumber', 'e.g. 1042'),
				textMode('By Profile ID', 'profileId', 'e.g. 0b9f…'),
			],
		},
		resolve,
		options,
	);
