import { NodeOperationError, type IExecuteFunctions, type IExecuteSingleFunctions, type INodeProperties } from 'n8n-workflow';

import { apiRequest } from './transport';

interface LocatorValue {
	mode: string;
	value: string;
}

type Resolver = (context: IExecuteSingleFunctions, locator: LocatorValue, field?: string) => Promise<string>;

const enc = encodeURIComponent;

/** The identifier a lookup answered, or a clear error when the answer has none. */
function pick(
	record: Record<string, unknown>,
	key: string,
	context: IExecuteSingleFunctions,
	what: string,
	value: string,
): string {
	const id = record?.[key];
	if (typeof id !== 'string' || id === '') {
		throw new NodeOperationError(context.getNode(), `Could not find the ${what} "${value}"`, {
			itemIndex: context.getItemIndex(),
		});
	}
	return id;
}

/**
 * How each resource locator turns what the user chose (an ID, a number, an item from a list) into the value
 * a path needs. Modes other than `id`/`list` cost one lookup request.
 */
const RESOLVERS: Record<string, Resolver> = {
	project: async (context, { mode, value }) => {
		if (mode !== 'projectNumber') return value;
		const project = await apiRequest<Record<string, unknown>>(context, {
			method: 'GET',
			url: `/api/v4/integration/projects/by-project-number/${enc(value)}`,
			what: 'project',
		});
		return pick(project, 'id', context, 'project number', value);
	},
	machine: async (context, { mode, value }) => {
		if (mode !== 'machineNumber') return value;
		const machine = await apiRequest<Record<string, unknown>>(context, {
			method: 'GET',
			url: `/api/v4/integration/machines/by-machine-number/${enc(value)}`,
			what: 'machine',
		});
		return pick(machine, 'id', context, 'machine number', value);
	},
	workOrder: async (context, { mode, value }) => {
		if (mode !== 'externalId') return value;
		const projectId = await resolveLocator(context, 'project');
		const workOrders = await apiRequest<Array<Record<string, unknown>>>(context, {
			method: 'GET',
			url: `/api/v4/integration/tasks/project/${enc(projectId)}`,
			what: 'project',
		});
		const match = workOrders.find((w) => w.externalId === value);
		if (!match) {
			throw new NodeOperationError(
				context.getNode(),
				`No work order with external ID "${value}" in this project`,
				{
					description: 'External IDs are unique within a project: check the project and the external ID.',
					itemIndex: context.getItemIndex(),
				},
			);
		}
		return pick(match, 'id', context, 'work order', value);
	},
	user: async (context, { mode, value }, field = 'companyProfileId') => {
		if (mode === 'profileId' && field === 'companyProfileId') return value;
		const url =
			mode === 'profileId'
				? `/api/v4/integration/users/by-profile-id/${enc(value)}`
				: `/api/v4/integration/users/by-employee-number/${enc(value)}`;
		const user = await apiRequest<Record<string, unknown>>(context, { method: 'GET', url, what: 'user' });
		return pick(user, field, context, 'user', value);
	},
};

/** Reads parameter `name` (a resource locator or a plain value) and resolves it for a path. */
export async function resolveLocator(
	context: IExecuteSingleFunctions,
	name: string,
	field?: string,
): Promise<string> {
	const raw = context.getNodeParameter(name, '', { extractValue: false }) as unknown;
	const locator: LocatorValue =
		raw && typeof raw === 'object'
			? { mode: String((raw as LocatorValue).mode ?? 'id'), value: String((raw as LocatorValue).value ?? '') }
			: { mode: 'id', value: String(raw ?? '') };
	locator.value = locator.value.trim();
	if (locator.value === '') {
		throw new NodeOperationError(context.getNode(), `"${name}" is empty`, {
			description: 'Enter a value or pick one from the list.',
			itemIndex: context.getItemIndex(),
		});
	}
	const resolver = RESOLVERS[name.replace(/^parent/, '').replace(/^./, (c) => c.toLowerCase())];
	return resolver ? await resolver(context, locator, field) : locator.value;
}

type LocatorOverrides = Partial<INodeProperties> & Pick<INodeProperties, 'displayOptions'>;

const idMode = (placeholder: string) => ({
	displayName: 'By ID',
	name: 'id',
	type: 'string' as const,
	placeholder,
});

export function projectLocator(overrides: LocatorOverrides): INodeProperties {
	return {
		displayName: 'Project',
		name: 'project',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The project: pick it from the list, or give its ID or its project number',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchProjects', searchable: true },
			},
			idMode('e.g. 3f2b6c1e-…'),
			{ displayName: 'By Project Number', name: 'projectNumber', type: 'string', placeholder: 'e.g. P1001' },
		],
		...overrides,
	};
}

export function workOrderLocator(overrides: LocatorOverrides): INodeProperties {
	return {
		displayName: 'Work Order',
		name: 'workOrder',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description:
			'The work order: pick it from the work orders of the project, or give its ID or its external ID (unique within the project)',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchWorkOrders', searchable: true },
			},
			idMode('e.g. 8d1c…'),
			{ displayName: 'By External ID', name: 'externalId', type: 'string', placeholder: 'e.g. P1001-03' },
		],
		...overrides,
	};
}

export function machineLocator(overrides: LocatorOverrides): INodeProperties {
	return {
		displayName: 'Machine',
		name: 'machine',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The machine or equipment: pick it from the list, or give its ID or its machine number',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchMachines', searchable: true },
			},
			idMode('e.g. 5a7e…'),
			{ displayName: 'By Machine Number', name: 'machineNumber', type: 'string', placeholder: 'e.g. M100' },
		],
		...overrides,
	};
}

export function employeeLocator(overrides: LocatorOverrides): INodeProperties {
	return {
		displayName: 'Employee',
		name: 'employee',
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: 'The employee: search by name, phone, e-mail or number, or give the employee number',
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod: 'searchEmployees', searchable: true },
			},
			{ displayName: 'By Employee Number', name: 'employeeNumber', type: 'string', placeholder: 'e.g. 1042' },
		],
		...overrides,
	};
}

export function userLocator(overrides: LocatorOverrides): INodeProperties {
	return {
		displayName: 'User',
		name: 'user',
		type: 'resourceLocator',
		default: { mode: 'employeeNumber', value: '' },
		required: true,
		description: 'The user (v4): by company profile ID or by employee number',
		modes: [
			{ displayName: 'By Employee Number', name: 'employeeNumber', type: 'string', placeholder: 'e.g. 1042' },
			{ displayName: 'By Profile ID', name: 'profileId', type: 'string', placeholder: 'e.g. 0b9f…' },
		],
		...overrides,
	};
}

/**
 * Code operations work on all items at once: this is one item's view of them, so the declarative helpers
 * (locator resolution, hooks) serve code operations too.
 */
export function itemContext(context: IExecuteFunctions, itemIndex: number): IExecuteSingleFunctions {
	return new Proxy(context, {
		get(target, property) {
			if (property === 'getItemIndex') return () => itemIndex;
			if (property === 'getNodeParameter') {
				return (name: string, fallback?: unknown, options?: object) => target.getNodeParameter(name, itemIndex, fallback, options);
			}
			const value = Reflect.get(target, property) as unknown;
			return typeof value === 'function' ? value.bind(target) : value;
		},
	}) as unknown as IExecuteSingleFunctions;
}
