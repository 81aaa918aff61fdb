import type { IDataObject } from 'n8n-workflow';

import type { ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';

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
		const details = describeErrors(result?.errors ?? []);
		return {
			ok: false,
			message: details.join('; ') || result?.message || 'Field Ops did not accept this machine',
		};
	});
}
