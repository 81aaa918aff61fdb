import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from './errors';
import { sendJson, type FieldOpsContext } from './transport';

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
