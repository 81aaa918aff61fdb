/**
 * A record looked up by what the user gave (a number, an employee number, a profile ID) to find the ID a path
 * needs: machines, v4 users, and the helpers every look-up shares.
 */
import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, settle } from '../transport/errors';
import type { Item } from '../items/items';
import { sendJson, type FieldOpsContext } from '../transport/transport';

/** Paths requested only to turn a number the user gave into the ID a path needs. */
export const LOOKUP_PATHS = {
	projects: '/api/v4/integration/projects',
	projectById: '/api/v4/integration/projects/{projectId}',
	projectByNumber: '/api/v4/integration/projects/by-project-number/{projectNumber}',
	machineById: '/api/v4/integration/machines/{machineId}',
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

/** Whether an AI agent fills the node's parameter (`$fromAI`): n8n then holds its value in the By ID mode. */
export function modelSupplied(item: Item, name: string): boolean {
	const raw = item.context.getNode().parameters[name];
	const text = raw && typeof raw === 'object' ? (raw as { value?: unknown }).value : raw;
	return typeof text === 'string' && text.includes('$fromAI(');
}

/** Whether a failure is Field Ops' 404 (the transport's errors carry the status as text). */
export const isNotFound = (error: unknown) => String((error as { httpCode?: unknown }).httpCode) === '404';

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

export function idOf(record: IDataObject, key: string, what: string, value: string): string {
	const id = record[key];
	if ((typeof id === 'string' && id !== '') || typeof id === 'number') return String(id);
	throw new FieldOpsFailure(
		`Field Ops answered the ${what} "${value}" without its ${key}`,
		'Check the value.',
	);
}

export async function recordAt(
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

export async function resolveMachine(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	const byModel = mode === 'id' && modelSupplied(item, 'machine');
	if ((mode !== 'machineNumber' && !byModel) || value === '') return value;
	return await item.once(`machine:${mode}:${value}`, async () => {
		// An agent's value (n8n holds it as By ID) is an ID when Field Ops knows it as one, else a machine number.
		if (byModel) {
			const byId = await settle(
				async () =>
					await recordAt(
						item.context,
						LOOKUP_PATHS.machineById,
						'machineId',
						'Machine',
						value,
						'machine',
						item.index,
					),
			);
			if ('value' in byId) return value;
			if (!isNotFound(byId.error)) throw byId.error;
		}
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
