import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure, nodeError, settle } from '../transport/errors';
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
