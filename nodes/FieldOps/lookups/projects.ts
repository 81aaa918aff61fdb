/**
 * Projects and their companies looked up over the API: a project's summary as the lookup routes answer it, a
 * project by number or by an agent's words, and what a project (or company) picked in the node stands for on each
 * route family: the v4 routes take the project's `id`, the lookup routes their own summary's id, a work order its
 * project's company (L2); the client's own company.
 */
import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, nodeError, settle } from '../transport/errors';
import type { Item } from '../items/items';
import { LOOKUP_PATHS, expectList, idOf, isNotFound, locatorValue, modelSupplied, recordAt } from './records';
import { readSettings } from '../transport/settings';
import { sendJson, type FieldOpsContext } from '../transport/transport';

/**
 * The fields of a project summary from the lookup routes (`/api/projects…`). The spec does not show their names
 * (assumptions L1), so each is read under the plausible names, in one place; a field not found is undefined.
 */
export interface ProjectSummary {
	id?: string;
	projectNumber?: string;
	name?: string;
	active?: boolean;
	companyId?: string;
}

const text = (...values: unknown[]) =>
	values.find((v): v is string | number => (typeof v === 'string' && v !== '') || typeof v === 'number');

const flag = (...values: unknown[]) => values.find((v): v is boolean => typeof v === 'boolean');

export function projectSummary(record: IDataObject): ProjectSummary {
	const id = text(record.id, record.projectId);
	const projectNumber = text(record.projectNumber, record.number);
	const name = text(record.name, record.projectName);
	const companyId = text(record.companyId);
	return {
		id: id === undefined ? undefined : String(id),
		projectNumber: projectNumber === undefined ? undefined : String(projectNumber),
		name: name === undefined ? undefined : String(name),
		active: flag(record.active, record.isActive),
		companyId: companyId === undefined ? undefined : String(companyId),
	};
}

/**
 * The one project a number names among those the lookup search reaches, for a number the by-number route did
 * not find: that route's scope is not shown (C5) and may be the client's own company only. Undefined if none.
 */
export async function projectBySearch(
	context: FieldOpsContext,
	projectNumber: string,
	itemIndex?: number,
): Promise<IDataObject | undefined> {
	const hits = await sendJson(context, {
		method: 'GET',
		path: '/api/projects/search',
		qs: { searchString: projectNumber, activeOnly: false },
		what: 'project',
		itemIndex,
	});
	const matches = (Array.isArray(hits) ? (hits as IDataObject[]) : [])
		.map(projectSummary)
		.filter((p) => p.projectNumber === projectNumber && p.id !== undefined);
	if (matches.length > 1)
		throw new FieldOpsFailure(
			`Project number ${projectNumber} is used in ${matches.length} companies you reach`,
			'Pick the project from the list, or give it By ID.',
		);
	return matches[0] ? { ...matches[0] } : undefined;
}

/**
 * The client's own company among the companies of its project list. "Projects of the company" may include the
 * subsidiaries' (C5); the by-number route answers the caller's own company's project first (or only), so a
 * company answered for another company's number is the own one, and a company whose number is not found is not.
 * Undefined when that leaves more than one.
 */
export async function ownAmong(
	context: FieldOpsContext,
	projects: IDataObject[],
	itemIndex?: number,
): Promise<string | undefined> {
	const numbers = new Map<string, string>();
	for (const { companyId, projectNumber } of projects.map(projectSummary))
		if (companyId && projectNumber && !numbers.has(companyId)) numbers.set(companyId, projectNumber);
	if (numbers.size <= 1) return [...numbers.keys()][0];
	const candidates: string[] = [];
	for (const [companyId, projectNumber] of numbers) {
		const answer = await settle(
			async () =>
				await sendJson(context, {
					method: 'GET',
					path: '/api/v4/integration/projects/by-project-number/{projectNumber}',
					params: { projectNumber: { label: 'Project', value: projectNumber } },
					what: 'project',
					itemIndex,
				}),
		);
		if (!('value' in answer)) {
			if (String((answer.error as { httpCode?: unknown }).httpCode) === '404') continue;
			throw nodeError(context.getNode(), answer.error, itemIndex);
		}
		const found = projectSummary((answer.value ?? {}) as IDataObject).companyId;
		if (found && found !== companyId) return found;
		if (found) candidates.push(found);
	}
	return candidates.length === 1 ? candidates[0] : undefined;
}

/** A project by number: the by-number route, else (404) the one project the lookup search finds (C5). */
export async function projectAtNumber(context: FieldOpsContext, projectNumber: string, itemIndex?: number) {
	const path = LOOKUP_PATHS.projectByNumber;
	const answer = await settle(
		async () =>
			await recordAt(context, path, 'projectNumber', 'Project', projectNumber, 'project', itemIndex),
	);
	if ('value' in answer) return answer.value;
	// The transport's errors (n8n's NodeApiError) carry the status as text.
	const found = isNotFound(answer.error)
		? await projectBySearch(context, projectNumber, itemIndex)
		: undefined;
	if (found) return found;
	throw nodeError(context.getNode(), answer.error, itemIndex);
}

export async function projectIdByNumber(context: FieldOpsContext, projectNumber: string, itemIndex?: number) {
	return idOf(await projectAtNumber(context, projectNumber, itemIndex), 'id', 'project', projectNumber);
}

/**
 * A project an AI agent named: an agent says what it knows (a project number, a name, sometimes an ID), and n8n puts
 * it in the By ID mode; it is taken as an ID, else a project number, else the one project with that name.
 */
async function projectNamedByModel(item: Item, text: string): Promise<IDataObject> {
	const byId = await settle(
		async () =>
			await recordAt(
				item.context,
				LOOKUP_PATHS.projectById,
				'projectId',
				'Project',
				text,
				'project',
				item.index,
			),
	);
	if ('value' in byId) return byId.value;
	if (!isNotFound(byId.error)) throw byId.error;
	const byNumber = await settle(async () => await projectAtNumber(item.context, text, item.index));
	if ('value' in byNumber) return byNumber.value;
	if (!isNotFound(byNumber.error)) throw byNumber.error;
	const named = await namedInSearch(item, text);
	if (named) return { ...named };
	throw new FieldOpsFailure(
		`No project "${text}": neither its ID, its number nor its name`,
		'Give the project number (e.g. P1001), the exact project name, or the project ID.',
	);
}

/**
 * The one project the lookup search finds for an agent's words: by exact number, exact name, or the only hit;
 * undefined for none, a failure listing them for several.
 */
async function namedInSearch(item: Item, text: string) {
	const hits = expectList(
		await sendJson(item.context, {
			method: 'GET',
			path: '/api/projects/search',
			qs: { searchString: text, activeOnly: false },
			what: 'project',
			itemIndex: item.index,
		}),
		'project',
	)
		.map(projectSummary)
		.filter((p) => p.id !== undefined);
	const exact = (value?: string) => value?.toLowerCase() === text.toLowerCase();
	const numbered = hits.filter((p) => exact(p.projectNumber));
	const named = hits.filter((p) => exact(p.name));
	const candidates = numbered.length > 0 ? numbered : named.length > 0 ? named : hits;
	if (candidates.length <= 1) return candidates[0];
	throw new FieldOpsFailure(
		`"${text}" matches ${candidates.length} projects: ${candidates
			.slice(0, 5)
			.map((p) => `${p.projectNumber ?? p.id} ${p.name ?? ''}`.trim())
			.join(', ')}${candidates.length > 5 ? ', …' : ''}`,
		'Give the project number (e.g. P1001), the exact project name, or the project ID.',
	);
}

/** The project record a project locator stands for: one request per project and node run, whatever the items. */
async function projectRecord(item: Item, raw: unknown): Promise<IDataObject> {
	const { mode, value } = locatorValue(raw);
	const byNumber = mode === 'projectNumber';
	if (!byNumber && modelSupplied(item, 'project'))
		return await item.shared(`project:model:${value}`, async () => await projectNamedByModel(item, value));
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

/** The project ID a project locator stands for (a project number, or an agent's words, cost a lookup). */
export async function resolveProject(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (value === '' || (mode !== 'projectNumber' && !modelSupplied(item, 'project'))) return value;
	return idOf(await projectRecord(item, raw), 'id', 'project', value);
}

/**
 * The project ID a locator stands for on the lookup routes (`/api/projects/{projId}…`): a project number is looked
 * up among the lookup routes' own projects, so the ID is the one those routes use, whatever the v4 routes use.
 */
export async function resolveLookupProject(item: Item, raw: unknown): Promise<string> {
	const { mode, value } = locatorValue(raw);
	if (value !== '' && mode !== 'projectNumber' && modelSupplied(item, 'project')) {
		// An agent's words that name no project in the search may be the lookup routes' own ID.
		const named = await namedInSearch(item, value);
		return named ? String(named.id) : value;
	}
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
