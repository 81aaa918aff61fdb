import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';
import { labelsOf } from '../../shared/fields';
import { NEW_MACHINE_FIELDS } from './fields';

const LABELS = labelsOf(NEW_MACHINE_FIELDS);

interface BulkResult {
	index?: number;
	success?: boolean;
	id?: string | null;
	message?: string;
	errors?: Array<{ code?: string; field?: string; message?: string }>;
}

/** Maps the bulk endpoints' per-item results back onto the batch, in order (see the sandbox README for the shape). */
export function bulkOutcomes(answer: unknown, elements: IDataObject[]): ItemOutcome[] {
	const results = (Array.isArray(answer) ? answer : []) as BulkResult[];
	return elements.map((element, position) => {
		const result = results.find((r) => r?.index === position) ?? results[position];
		if (result?.success)
			return { ok: true, json: { ...element, id: result.id ?? element.id, success: true } };
		// Fields by their labels ("Machine Number", not machineNumber); a duplicate says what to do instead.
		const label = (field?: string) => (field && LABELS[field]) || field;
		const errors = (result?.errors ?? []).map((error) => ({
			...error,
			field: label(error.field),
			message:
				error.field && error.message?.startsWith(`${error.field} `)
					? `${label(error.field)}${error.message.slice(error.field.length)}`
					: error.message,
		}));
		const details = describeErrors(errors);
		const duplicate = errors.find((error) => /^duplicate/i.test(error.code ?? ''));
		return {
			ok: false,
			message: details.join('; ') || result?.message || 'Field Ops did not accept this machine',
			...(duplicate
				? {
						description: `Give another ${duplicate.field ?? 'value'}, or use Update (or Update Many) to change the existing machine.`,
					}
				: {}),
		};
	});
}
