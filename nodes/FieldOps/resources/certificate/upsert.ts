import { NodeApiError, type IDataObject, type IExecuteFunctions } from 'n8n-workflow';

import {
	batchSizeField,
	runBatched,
	type ItemOutcome,
	refusedEntries,
	withoutEntry,
	type EntryDetail,
} from '../../operations/batch';
import { epochOf } from '../../parameters/dates';
import { describeErrors, FieldOpsFailure, settle } from '../../transport/errors';
import { bodyField, fieldsCollection, requiredField, on, shown } from '../../parameters/field';
import type { Item } from '../../items/items';
import { fromFields, type CodeOperation } from '../../operations/operation';
import { sendJson } from '../../transport/transport';

const UPSERT_PATH = '/api/v4/integration/certificates';

/** Where the certificate's fields show: its one operation. */
const ON = on('certificate', 'upsert');

const CERTIFICATE_FIELDS = [
	shown(
		ON,
		requiredField(
			'Employee Number',
			'employeeNumber',
			'string',
			'Employee number of the certificate holder; must match an existing employee',
			{
				placeholder: 'e.g. {{ $json.employeeNumber }}',
			},
		),
	),
	shown(
		ON,
		requiredField('Certificate Type', 'certificateType', 'string', 'Name of the course or licence', {
			placeholder: 'e.g. Fallsikring',
			hint: 'Exact text: the same type for the same employee updates that certificate, a different spelling creates a new one',
		}),
	),
	shown(
		ON,
		requiredField(
			'Issued',
			'issuedDateTime',
			'dateTime',
			'When the certificate was issued; must be before Valid Until',
		),
	),
	shown(ON, requiredField('Valid Until', 'validUntilDateTime', 'dateTime', 'When the certificate expires')),
	shown(
		ON,
		fieldsCollection('additional', [
			bodyField(
				'Certificate Number',
				'certificateNumber',
				'string',
				'Number printed on the certificate or card',
			),
			bodyField('Notes', 'notes', 'string', 'Free text about the certificate', { typeOptions: { rows: 2 } }),
		]),
	),
];

/** One certificate from an item's fields; its dates are checked before any request. */
async function buildCertificate(item: Item): Promise<IDataObject> {
	const certificate = (await fromFields(CERTIFICATE_FIELDS, item)).body;
	for (const field of ['certificateNumber', 'notes'])
		if (certificate[field] === '') delete certificate[field];
	const issued = String(certificate.issuedDateTime);
	const validUntil = String(certificate.validUntilDateTime);
	if (epochOf(issued) >= epochOf(validUntil))
		throw new FieldOpsFailure(
			`Issued (${issued}) must be before Valid Until (${validUntil})`,
			'Field Ops refuses a certificate that expires before it is issued. Check the two dates of this item; it was not sent.',
		);
	return certificate;
}

const failed = (details: EntryDetail[], fallback: string): ItemOutcome => ({
	ok: false,
	message: describeErrors(details.map(withoutEntry)).join('; ') || fallback,
});

/** Maps an answer of per-entry results (or a plain success) back onto the elements, in order. */
function fromResults(answer: unknown, elements: IDataObject[]): ItemOutcome[] {
	if (!Array.isArray(answer)) {
		// [K1] No per-entry detail: the batch as a whole was saved; counts tell created/updated only when all agree.
		const counts = (answer && typeof answer === 'object' ? answer : {}) as IDataObject;
		const created =
			counts.created === elements.length ? true : counts.updated === elements.length ? false : undefined;
		return elements.map((element) => ({
			ok: true,
			json: {
				...element,
				success: true,
				...(created === undefined ? {} : { created }),
				...(answer && typeof answer === 'object' ? { response: answer as IDataObject } : {}),
			},
		}));
	}
	return elements.map((element, position) => {
		const result = ((answer as IDataObject[]).find((r) => r?.index === position) ?? answer[position]) as
			| IDataObject
			| undefined;
		if (!result) return { ok: false, message: 'Field Ops returned no result for this certificate' };
		const errors = (result.errors ?? []) as EntryDetail[];
		if (result.success === false || (errors.length > 0 && result.success !== true))
			return failed(errors, String(result.message ?? 'Field Ops did not accept this certificate'));
		const rest = { ...result };
		delete rest.index;
		return { ok: true, json: { ...element, ...rest, success: true } };
	});
}

/**
 * One POST per batch. When Field Ops refuses the whole batch because of some entries (400 naming them), those
 * entries fail and the others are sent again once, so one bad entry does not block the rest.
 */
async function sendBatch(context: IExecuteFunctions, elements: IDataObject[]): Promise<ItemOutcome[]> {
	const post = async (batch: IDataObject[]) =>
		await sendJson(context, { method: 'POST', path: UPSERT_PATH, body: batch, what: 'certificate' });
	const first = await settle(async () => await post(elements));
	if ('value' in first) return fromResults(first.value, elements);
	const error = first.error;
	if (!(error instanceof NodeApiError) || String(error.httpCode) !== '400') throw error;
	// A refusal naming no entry: every certificate of the batch failed for the same reason.
	const byEntry = refusedEntries(error, elements.length);
	if (!byEntry)
		return elements.map(() => ({
			ok: false,
			message: error.message,
			description: error.description ?? undefined,
		}));
	const retry = elements.map((_, position) => position).filter((position) => !byEntry.has(position));
	// [K2] The refused request may have saved these already: the second answer's `created` is not reliable.
	const retried = (
		retry.length > 0
			? fromResults(
					await post(retry.map((p) => elements[p])),
					retry.map((p) => elements[p]),
				)
			: []
	).map((outcome) => {
		if (!outcome.ok) return outcome;
		const json = { ...outcome.json };
		delete json.created;
		return { ok: true as const, json };
	});
	return elements.map((_, position) =>
		byEntry.has(position)
			? failed(byEntry.get(position) ?? [], 'Field Ops did not accept this certificate')
			: retried[retry.indexOf(position)],
	);
}

export const upsert: CodeOperation = {
	name: 'Create or Update',
	value: 'upsert',
	// Also the new node's name in the editor: short. Which certificate is updated is said under Certificate Type.
	action: 'Create or update employee certificates',
	description: 'Create a new record, or update the current one if it already exists (upsert)',
	returns: 'one item per input item: the certificate saved (created or updated), or why not',
	fields: [...CERTIFICATE_FIELDS, shown(ON, batchSizeField())],
	requests: [{ method: 'POST', path: UPSERT_PATH }],
	execute: async (context) =>
		await runBatched(context, {
			what: 'certificate',
			buildElement: buildCertificate,
			send: async (elements) => await sendBatch(context, elements),
		}),
};
