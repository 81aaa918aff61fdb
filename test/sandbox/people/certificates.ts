import { z } from 'zod';

import { ApiError, parseIsoDate, safeParseWith, type ErrorDetail } from '../http';
import type { Router } from '../router';
import type { World } from '../state';

/**
 * Certificates upsert. A batch is checked whole before anything is saved: an entry whose employeeNumber matches
 * no user, or whose issuedDateTime is after its validUntilDateTime, makes the request a 400 whose `errors` name
 * each bad entry as `[index].field`, and nothing is saved (see test/sandbox/README.md). A valid batch answers
 * one result per entry: `{index, id, employeeNumber, certificateType, created}`.
 */
export interface Certificate {
	id: string;
	companyId: string;
	employeeNumber: string;
	certificateType: string;
	issuedDateTime: string;
	validUntilDateTime: string;
	certificateNumber: string | null;
	notes: string | null;
	modifiedDateTime: string;
}

const isoDate = z.string().refine((v) => parseIsoDate(v) !== undefined, 'must be an ISO 8601 date-time');
const entrySchema = z
	.object({
		employeeNumber: z.string().min(1).max(100),
		certificateType: z.string().min(1).max(200),
		issuedDateTime: isoDate,
		validUntilDateTime: isoDate,
		certificateNumber: z.string().max(200).nullable().optional(),
		notes: z.string().max(5000).nullable().optional(),
	})
	.strict();

export const certificates = (world: World) => world.state('certificates', () => [] as Certificate[]);

export function registerCertificates(router: Router): void {
	router.core('POST', '/api/v4/integration/certificates', async (ctx, { world }) => {
		const body = await ctx.json(z.array(z.unknown()).min(1).max(10_000));
		const errors: ErrorDetail[] = [];
		const entries = body.map((element, index) => {
			const parsed = safeParseWith(entrySchema, element, ctx.ignoreUnknownFields);
			if (!parsed.success) {
				for (const issue of parsed.error.issues)
					errors.push({
						category: 'Validation',
						code: issue.code,
						field: `[${index}].${issue.path.join('.')}`,
						message: issue.message,
					});
				return undefined;
			}
			const entry = parsed.data;
			const person = [...world.people.values()].find(
				(p) =>
					p.employeeNumber === entry.employeeNumber &&
					world.canAccessCompany(ctx.auth.companyId, p.companyId),
			);
			if (!person)
				errors.push({
					category: 'Validation',
					code: 'UnknownEmployee',
					field: `[${index}].employeeNumber`,
					message: `No user with employee number ${entry.employeeNumber}`,
				});
			if (Date.parse(entry.issuedDateTime) > Date.parse(entry.validUntilDateTime)) {
				errors.push({
					category: 'Validation',
					code: 'InvalidPeriod',
					field: `[${index}].issuedDateTime`,
					message: 'issuedDateTime is after validUntilDateTime',
				});
			}
			return person ? { ...entry, companyId: person.companyId } : undefined;
		});
		const refusal = () => new ApiError(400, errors.map((e) => `${e.field}: ${e.message}`).join('; '), errors);
		// [K2] A batch with bad entries: nothing saved, or the good entries saved (the answer is still the 400).
		if (errors.length > 0 && world.variant.certificateBatch === 'atomic') throw refusal();
		const bad = new Set(errors.map((e) => Number(/^\[(\d+)\]/.exec(e.field ?? '')?.[1])));
		const store = certificates(world);
		const now = world.clock.iso();
		const results = entries.flatMap((entry, index) => {
			if (!entry || bad.has(index)) return [];
			const valid = entry;
			// Upsert on employee number + the exact certificate type text, within the employee's company.
			const existing = store.find(
				(c) =>
					c.companyId === valid.companyId &&
					c.employeeNumber === valid.employeeNumber &&
					c.certificateType === valid.certificateType,
			);
			const record: Certificate = {
				id: existing?.id ?? world.newId(),
				companyId: valid.companyId,
				employeeNumber: valid.employeeNumber,
				certificateType: valid.certificateType,
				issuedDateTime: valid.issuedDateTime,
				validUntilDateTime: valid.validUntilDateTime,
				certificateNumber: valid.certificateNumber ?? null,
				notes: valid.notes ?? null,
				modifiedDateTime: now,
			};
			if (existing) Object.assign(existing, record);
			else store.push(record);
			return [
				{
					index,
					id: record.id,
					employeeNumber: record.employeeNumber,
					certificateType: record.certificateType,
					created: !existing,
				},
			];
		});
		if (errors.length > 0) throw refusal();
		// [K1] One result per entry, or counts.
		if (world.variant.certificateAnswer === 'perEntry') return { status: 200, json: results };
		const createdCount = results.filter((r) => r.created).length;
		return { status: 200, json: { created: createdCount, updated: results.length - createdCount } };
	});
}
