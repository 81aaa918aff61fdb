import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, nodeError, settle } from './errors';
import type { Item } from './items';
import { readSettings } from './settings';
import { ownAmong, projectBySearch } from './summaries';
import { sendJson, type FieldOpsContext } from './transport';

/** Paths requested only to turn a number the user gave into the ID a path needs. */
export const LOOKUP_PATHS = {
	projects: '/api/v4/integration/projects',
	projectById: '/api/v4/integration/projects/{projectId}',
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

/** A project by number: the by-number route, else (404) the one project the lookup search finds (C5). */
async function projectAtNumber(context: FieldOpsContext, projectNumber: string, itemIndex?: number) {
	const path = LOOKUP_PATHS.projectByNumber;
	const answer = await settle(
		async () =>
			await recordAt(context, path, 'projectNumber', 'Project', projectNumber, 'project', itemIndex),
	);
	if ('value' in answer) return answer.value;
	// The transport's errors (n8n's NodeApiError) carry the status as text.
	const notFound = String((answer.error as { httpCode?: unknown }).httpCode) === '404';
	const found = notFound ? await projectBySearch(context, projectNumber, itemIndex) : undefined;
	if (found) return found;
	throw nodeError(context.getNode(), answer.error, itemIndex);
}

export async function projectIdByNumber(context: FieldOpsContext, projectNumber: string, itemIndex?: number) {
	return idOf(await projectAtNumber(context, projectNumber, itemIndex), 'id', 'project', projectNumber);
}

/** The project record a project locator stands for: one request per project and node run, whatever the items. */
async function projectRecord(item: Item, raw: unknown): Promise<IDataObject> {
	const { mode, value } = locatorValue(raw);
	const byNumber = mode === 'projectNumber';
	return await item.shared(`project:${byNumber ? 'number' : 'id'}:${value}`, async () =>
		byNumber
			? await projectAtNumber(item.context, value, item.index)
			: await recordAt(
					item.context,
					LOOKUP_PATHS.projectById,
					'projectId',
					'Project',
					value,
					'project',
					item.index,
				),
	);
}

/** The project ID a project locator stands for (a project number costs one lookup). */
export async function resolveProject(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode !== 'projectNumber' || value === '') return value;
	return idOf(await projectRecord(item, raw), 'id', 'project', value);
}

/**
 * The project ID a locator stands for on the lookup routes (`/api/projects/{projId}…`): a project number is looked
 * up among the lookup routes' own projects, so the ID is the one those routes use, whatever the v4 routes use.
 */
export async function resolveLookupProject(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (mode !== 'projectNumber' || value === '') return value;
	const found = await item.shared(`lookup-project:${value}`, async () =>
		projectBySearch(item.context, value, item.index),
	);
	if (found?.id === undefined)
		throw new FieldOpsFailure(
			`No project with number ${value}`,
			'Check the project number, or pick the project from the list.',
		);
	return String(found.id);
}

/** The company of the project a project locator stands for (a work order belongs to its project's company). */
export async function projectCompanyId(item: Item, raw: unknown): Promise<string> {
	const { value } = locatorValue(raw);
	if (value === '') return '';
	return idOf(await projectRecord(item, raw), 'companyId', 'project', value);
}

const OWN_COMPANY_TTL_MS = 10 * 60_000;
const ownCompanies = new Map<string, { companyId: Promise<string>; until: number }>();

/**
 * The company of the credential's API client. The API names no company endpoint and the token says nothing of
 * it; the project list is "of the company" (spec: Projects), and every project carries its `companyId`.
 */
export async function ownCompanyId(context: FieldOpsContext, itemIndex?: number): Promise<string> {
	const settings = await readSettings(context);
	const key = `${settings.urls.core}\n${settings.client.clientId}`;
	const cached = ownCompanies.get(key);
	if (cached && Date.now() < cached.until) return await cached.companyId;
	const companyId = (async () => {
		const projects = expectList(
			await sendJson(context, { method: 'GET', path: LOOKUP_PATHS.projects, what: 'project', itemIndex }),
			'project',
		);
		const found = await ownAmong(context, projects, itemIndex);
		if (found) return found;
		throw new FieldOpsFailure(
			`Could not tell which company is yours: Field Ops shows it only on projects, and ${projects.length > 0 ? 'they belong to several companies' : 'your company has none yet'}`,
			'Pick the company from the list, or set Company → By ID to your company’s ID (on the integration page of the Field Ops web administration).',
		);
	})();
	ownCompanies.set(key, { companyId, until: Date.now() + OWN_COMPANY_TTL_MS });
	companyId.catch(() => ownCompanies.delete(key));
	return await companyId;
}

/** The company a company locator stands for: the one chosen, or (empty) the credential's own. */
export async function resolveCompany(item: Item, raw: unknown): Promise<string> {
	const { value } = locatorValue(raw);
	return value !== '' ? value : await ownCompanyId(item.context, item.index);
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
