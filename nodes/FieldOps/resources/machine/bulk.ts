import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../../operations/batch';
import { describeErrors } from '../../transport/errors';
import { labelsOf } from '../../parameters/field';
import { expectsList } from '../../transport/transport';
import { NEW_MACHINE_FIELDS } from './common';

const LABELS = labelsOf(NEW_MACHINE_FIELDS);
const label = (field?: string) => (field && LABELS[field]) || field;

interface BulkResult {
	index?: number;
	success?: boolean;
	id?: string | null;
	message?: string;
	errors?: Array<{ code?: string; field?: string; message?: string }>;
}

/** The bulk answer's shape check: a list, or nothing (a 2xx without a body saved the batch). */
export const bulkAnswerCheck = (operation: string) => (body: unknown) =>
	body === undefined || body === null || body === ''
		? undefined
		: expectsList(operation, 'a list of results')(body);

/** Per-item results carry `success` or `index`; a bare list of ids or saved machines does not [M1]. */
export function isItemised(answer: unknown): answer is BulkResult[] {
	return (
		Array.isArray(answer) &&
		answer.some(
			(r) =>
				r !== null &&
				typeof r === 'object' &&
				(typeof r.success === 'boolean' || typeof r.index === 'number'),
		)
	);
}

/** Fields by their labels ("Machine Number", not machineNumber); a duplicate says what to do instead. */
export function refused(errors: BulkResult['errors'] = [], fallback: string): ItemOutcome {
	const labelled = errors.map((error) => ({
		...error,
		field: label(error.field),
		message:
			error.field && error.message?.startsWith(`${error.field} `)
				? `${label(error.field)}${error.message.slice(error.field.length)}`
				: error.message,
	}));
	const duplicate = labelled.find((error) => /^duplicate/i.test(error.code ?? ''));
	return {
		ok: false,
		message: describeErrors(labelled).join('; ') || fallback,
		...(duplicate
			? {
					description: `Give another ${duplicate.field ?? 'value'}, or use Update (or Update Many) to change the existing machine.`,
				}
			: {}),
	};
}

/** Maps per-item results (`{index, success, id, errors}`) back onto the batch, in order. */
export function itemisedOutcomes(results: BulkResult[], elements: IDataObject[]): ItemOutcome[] {
	return elements.map((element, position) => {
		const result = results.find((r) => r?.index === position) ?? results[position];
		if (result?.success)
			return { ok: true, json: { ...element, id: result.id ?? element.id, success: true } };
		return refused(result?.errors, result?.message || 'Field Ops did not accept this machine');
	});
}
