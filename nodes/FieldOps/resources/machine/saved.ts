import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../../operations/batch';
import { refused } from './bulk';

/** What a saved element's output says when the answer did not say which element it was [M1]. */
export const NOT_ITEMISED = 'saved, result not itemised';

const recordOf = (entry: unknown): IDataObject =>
	typeof entry === 'string' || typeof entry === 'number'
		? { id: String(entry) }
		: entry && typeof entry === 'object'
			? (entry as IDataObject)
			: {};

/** Whether a saved record is the machine of an element: by ID (updates), else by number and company. */
function sameMachine(record: IDataObject, element: IDataObject): boolean {
	if (element.id !== undefined) return record.id === element.id;
	if (record.machineNumber === undefined || record.machineNumber !== element.machineNumber) return false;
	return !record.companyId || !element.companyId || record.companyId === element.companyId;
}

/**
 * [M1] A bare list of what was saved (ids on create, machines on update; failed elements left out), or no body.
 * Elements are matched by ID, else by machine number (`known`: machines read back to name the ids). Only when
 * every saved entry is accounted for is an unmatched element a failure; when the count shows every element was
 * saved, each is "saved, result not itemised"; otherwise the item says the result is unknown.
 */
export function savedOutcomes(
	answer: unknown,
	elements: IDataObject[],
	known: IDataObject[] = [],
): ItemOutcome[] {
	if (!Array.isArray(answer))
		return elements.map((element) => ({
			ok: true,
			json: { ...element, success: true, result: NOT_ITEMISED },
		}));
	const records = answer
		.map(recordOf)
		.map((record) =>
			record.machineNumber === undefined && record.id !== undefined
				? { ...(known.find((m) => m.id === record.id) ?? {}), ...record }
				: record,
		);
	const used = new Set<number>();
	const matches = elements.map((element) => {
		const at = records.findIndex((record, i) => !used.has(i) && sameMachine(record, element));
		if (at >= 0) used.add(at);
		return at;
	});
	const unmatched = matches.filter((at) => at < 0).length;
	const spare = records.length - used.size;
	return elements.map((element, position): ItemOutcome => {
		const at = matches[position];
		if (at >= 0) return { ok: true, json: { ...element, id: records[at].id ?? element.id, success: true } };
		if (spare >= unmatched) return { ok: true, json: { ...element, success: true, result: NOT_ITEMISED } };
		if (spare > 0)
			return {
				ok: true,
				json: {
					...element,
					success: null,
					result: `Field Ops saved ${records.length} of the ${elements.length} machines of this request without saying which: check this one`,
				},
			};
		return notSaved(element, known);
	});
}

/** An element the answer leaves out while naming every saved one: not saved; a taken number is the likely why. */
function notSaved(element: IDataObject, known: IDataObject[]): ItemOutcome {
	const taken = element.id === undefined ? known.find((m) => sameMachine(m, element)) : undefined;
	if (taken)
		return refused(
			[
				{
					code: 'Duplicate',
					field: 'machineNumber',
					message: `machineNumber ${String(element.machineNumber)} is already used by another machine (ID ${String(taken.id)}); Field Ops did not save this one`,
				},
			],
			'',
		);
	return {
		ok: false,
		message:
			'Field Ops did not save this machine: its answer lists only the saved machines and gives no reason',
		description: 'Check the fields of this item, or send it alone with Create or Update to see why.',
	};
}
