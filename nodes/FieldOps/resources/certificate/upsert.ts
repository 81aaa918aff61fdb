import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IExecuteFunctions,
	type JsonObject,
} from 'n8n-workflow';

import { runBatched, type ItemOutcome } from '../../shared/batch';
import { describeErrors } from '../../shared/errors';
import { apiRequest } from '../../shared/transport';
import type { CustomOperation } from '../../shared/types';
import { isoDateTime } from '../user/dates';

const UPSERT_PATH = '/api/v4/integration/certificates';

interface ErrorDetail {
	code?: string;
	field?: string;
	message?: string;
}

/** One per-entry result of the upsert (shape of the sandbox, see test/sandbox/people). */
interface EntryResult {
	index?: number;
	success?: boolean;
	message?: string;
	errors?: ErrorDetail[];
	[key: string]: unknown;
}

/** Builds one certificate from the node parameters of one item; dates are checked before any request. */
function buildCertificate(context: IExecuteFunctions, itemIndex: number): IDataObject {
	const node = context.getNode();
	const text = (name: string) => String(context.getNodeParameter(name, itemIndex, '') ?? '').trim();
	const employeeNumber = text('employeeNumber');
	const certificateType = text('certificateType');
	for (const [label, value] of [
		['Employee Number', employeeNumber],
		['Certificate Type', certificateType],
	]) {
		if (!value)
			throw new NodeOperationError(node, `${label} is empty`, {
				itemIndex,
				description: `Every item needs a ${label.toLowerCase()}; map it from the input (e.g. {{ $json.${label === 'Employee Number' ? 'employeeNumber' : 'certificateType'} }}).`,
			});
	}
	const issuedDateTime = isoDateTime(node, 'Issued', context.getNodeParameter('issuedDateTime', itemIndex, ''), itemIndex);
	const validUntilDateTime = isoDateTime(node, 'Valid Until', context.getNodeParameter('validUntilDateTime', itemIndex, ''), itemIndex);
	if (Date.parse(issuedDateTime) >= Date.parse(validUntilDateTime)) {
		throw new NodeOperationError(node, `Issued (${issuedDateTime}) must be before Valid Until (${validUntilDateTime})`, {
			itemIndex,
			description: 'Field Ops refuses a certificate that expires before it is issued. Check the two dates of this item; it was not sent.',
		});
	}
	const extra = context.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const certificate: IDataObject = { employeeNumber, certificateType, issuedDateTime, validUntilDateTime };
	for (const field of ['certificateNumber', 'notes']) {
		if (typeof extra[field] === 'string' && extra[field] !== '') certificate[field] = extra[field];
	}
	return certificate;
}

/** The entry position an error points at, when its field names one (`[2].employeeNumber`, `certificates[2]…`, `2.employeeNumber`). */
function entryOf(detail: ErrorDetail): number | undefined {
	const match = /(?:^|\[)(\d+)(?:\]|\.)/.exec(detail.field ?? '');
	return match ? Number(match[1]) : undefined;
}

const failed = (details: ErrorDetail[], fallback: string): ItemOutcome => ({
	ok: false,
	message: describeErrors({ errors: details.map((d) => ({ ...d, field: d.field?.replace(/^.*?\]?\./, '') })) }).join('; ') || fallback,
});

/** Maps an answer of per-entry results (or a plain success) back onto the elements, in order. */
function fromResults(answer: unknown, elements: IDataObject[]): ItemOutcome[] {
	if (!Array.isArray(answer)) {
		// No per-entry detail: the batch as a whole was accepted.
		return elements.map((element) => ({ ok: true, json: { ...element, success: true, ...(answer && typeof answer === 'object' ? { response: answer as IDataObject } : {}) } }));
	}
	return elements.map((element, position) => {
		const result = ((answer as EntryResult[]).find((r) => r?.index === position) ?? answer[position]) as EntryResult | undefined;
		if (!result) return { ok: false, message: 'Field Ops returned no result for this certificate' };
		if (result.success === false || (result.errors?.length ?? 0) > 0 && result.success !== true) {
			return failed(result.errors ?? [], result.message ?? 'Field Ops did not accept this certificate');
		}
		const rest = { ...result } as IDataObject;
		delete rest.index;
		return { ok: true, json: { ...element, ...rest, success: true } };
	});
}

/**
 * Upsert: one POST per batch. When Field Ops refuses the whole batch because of some entries (400 naming
 * them), those entries fail and the others are sent again once, so one bad entry does not block the rest.
 */
export const upsert: CustomOperation = async function (this: IExecuteFunctions) {
	const post = async (elements: IDataObject[]) =>
		await apiRequest<unknown>(this, { method: 'POST', url: UPSERT_PATH, body: elements, what: 'certificate' });

	return await runBatched(this, {
		what: 'certificate',
		buildElement: (itemIndex) => buildCertificate(this, itemIndex),
		send: async (elements) => {
			try {
				return fromResults(await post(elements), elements);
			} catch (error) {
				if (!(error instanceof NodeApiError)) throw new NodeOperationError(this.getNode(), error as Error);
				if (String(error.httpCode) !== '400') throw new NodeApiError(this.getNode(), error as unknown as JsonObject);
				const details = (error.errorResponse?.errors ?? []) as ErrorDetail[];
				const byEntry = new Map<number, ErrorDetail[]>();
				for (const detail of details) {
					const entry = entryOf(detail);
					if (entry !== undefined && entry < elements.length) byEntry.set(entry, [...(byEntry.get(entry) ?? []), detail]);
				}
				// Nothing points at an entry: every certificate of the batch failed for the same reason.
				if (byEntry.size === 0) return elements.map(() => ({ ok: false, message: error.message, description: error.description ?? undefined }));
				const retry = elements.map((_, position) => position).filter((position) => !byEntry.has(position));
				const retried = retry.length > 0 ? fromResults(await post(retry.map((p) => elements[p])), retry.map((p) => elements[p])) : [];
				return elements.map((_, position) =>
					byEntry.has(position)
						? failed(byEntry.get(position) ?? [], 'Field Ops did not accept this certificate')
						: retried[retry.indexOf(position)],
				);
			}
		},
	});
};
