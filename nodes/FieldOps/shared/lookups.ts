import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from './errors';
import type { Item } from './items';
import { sendJson, type FieldOpsContext } from './transport';

/** Paths requested only to turn a number the user gave into the ID a path needs. */
export const LOOKUP_PATHS = {
	projectByNumber: '/api/v4/integration/projects/by-project-number/{projectNumber}',
	machineByNumber: '/api/v4/integration/machines/by-machine-number/{machineNumber}',
	workOrdersOfProject: '/api/v4/integration/tasks/project/{projectId}',
	userByProfileId: '/api/v4/integration/users/by-profile-id/{profileId}',
	userByEmployeeNumber: '/api/v4/integration/users/by-employee-number/{employeeNumber}',
};

export interface LocatorValue {
	mode: string;
	value: string;
}

/** A resource locator's mode and (trimmed) value; a plain value from an expression counts as an ID. */
export function locatorValue(raw: unknown): LocatorValue {
	if (raw && typeof raw === 'object') {
		const { mode, value } = raw as { mode?: unknown; value?: unknown };
		return {
			mode: String(mode ?? 'id'),
			value: value === undefined || value === null ? '' : String(value).trim(),
		};
	}
	return { mode: 'id', value: raw === undefined || raw === null ? '' : String(raw).trim() };
}

/** The answer as an object, or a failure saying the answer was not the record expected. */
export function expectRecord(body: unknown, what: string): IDataObject {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as IDataObject;
	throw new FieldOpsFailure(
		`Field Ops answered the ${what} lookup with something other than a ${what}`,
		'The answer did not have the shape the API documents. Check the Core API URL of the credential.',
	);
}

/** The answer as a list, or a failure saying it was not one. */
export function expectList(body: unknown, what: string): IDataObject[] {
	if (Array.isArray(body)) return body as IDataObject[];
	throw new FieldOpsFailure(
		`Field Ops answered the ${what} lookup with something other than a list`,
		'The answer did not have the shape the API documents. Check the Core API URL of the credential.',
	);
}

function idOf(record: IDataObject, key: string, what: string, value: string): string {
	const id = record[key];
	if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
	throw new FieldOpsFailure(
		`Field Ops answered the ${what} "${value}" without its ${key}`,
		'Check the value.',
	);
}

async function recordAt(
	context: FieldOpsContext,
	path: string,
	param: string,
	label: string,
	value: string,
	what: string,
	itemIndex?: number,
) {
	const body = await sendJson(context, {
		method: 'GET',
		path,
		params: { [param]: { label, value } },
		what,
		itemIndex,
	});
	return expectRecord(body, what);
}

export async function projectIdByNumber(context: FieldOpsContext, projectNumber: string, itemIndex?: number) {
	const project = await recordAt(
		context,
		LOOKUP_PATHS.projectByNumber,
		'projectNumber',
		'Project',
		projectNumber,
		'project',
		itemIndex,
	);
	return idOf(project, 'id', 'project', projectNumber);
}

/** The project ID a project locator stands for (a project number costs one lookup per item). */
export async function resolveProject(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode !== 'projectNumber' || value === '') return value;
	return await item.once(
		`project:${value}`,
		async () => await projectIdByNumber(item.context, value, item.index),
	);
}

export async function resolveMachine(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode !== 'machineNumber' || value === '') return value;
	return await item.once(`machine:${value}`, async () => {
		const machine = await recordAt(
			item.context,
			LOOKUP_PATHS.machineByNumber,
			'machineNumber',
			'Machine',
			value,
			'machine',
			item.index,
		);
		return idOf(machine, 'id', 'machine', value);
	});
}

/** A work order by ID, or by external ID within the item's chosen project. */
export async function resolveWorkOrder(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode !== 'externalId' || value === '') return value;
	const projectId = await resolveProject(item, item.param('project'));
	const workOrders = expectList(
		await sendJson(item.context, {
			method: 'GET',
			path: LOOKUP_PATHS.workOrdersOfProject,
			params: { projectId: { label: 'Project', value: projectId } },
			what: 'project',
			itemIndex: item.index,
		}),
		'work order',
	);
	const match = workOrders.find((workOrder) => workOrder?.externalId === value);
	if (!match)
		throw new FieldOpsFailure(
			`No work order with external ID "${value}" in this project`,
			'External IDs are unique within a project: check the project and the external ID.',
		);
	return idOf(match, 'id', 'work order', value);
}

/** A v4 user, by company profile ID or by employee number (one request). */
export async function findUser(item: Item, raw: unknown): Promise<IDataObject> {
	const { mode, value } = locatorValue(raw);
	return await item.once(`user:${mode}:${value}`, async () =>
		mode === 'profileId'
			? await recordAt(
					item.context,
					LOOKUP_PATHS.userByProfileId,
					'profileId',
					'User',
					value,
					'user',
					item.index,
				)
			: await recordAt(
					item.context,
					LOOKUP_PATHS.userByEmployeeNumber,
					'employeeNumber',
					'User',
					value,
					'user',
					item.index,
				),
	);
}

/** One ID of a v4 user (identityId or companyProfileId): a profile ID given as such costs no request. */
export async function userId(
	item: Item,
	raw: unknown,
	key: 'identityId' | 'companyProfileId',
): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode === 'profileId' && key === 'companyProfileId') return value;
	return idOf(await findUser(item, raw), key, 'user', value);
}
