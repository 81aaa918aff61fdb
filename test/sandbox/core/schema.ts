import { z } from 'zod';

import { badRequest, parseIsoDate, type Reply, safeParseWith } from '../http';
import type { World } from '../state';

/** A real calendar day: `Date` would roll 2026-02-30 over into March. */
function calendarDay(value: string): boolean {
	const [year, month, day] = value.slice(0, 10).split('-').map(Number);
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** Fields typed `datetime` in the spec: ISO 8601 (a date, or a date-time with optional offset). */
export const isoDate = z
	.string()
	.refine(
		(value) => parseIsoDate(value) !== undefined && calendarDay(value),
		'must be an ISO 8601 date or date-time',
	);

/** Work-break start times. */
export const hhmm = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:mm');

/** Free text with a length cap, so a huge string is a 400 naming its field rather than stored. */
export const text = (max = 500) => z.string().max(max);

/** Ids and numbers that identify records. */
export const key = z.string().min(1).max(200);

/** One element of a bulk body, validated on its own so a bad one fails alone (400 naming the field). */
export function parseElement<T>(schema: z.ZodType<T>, element: unknown, world: World): T {
	const parsed = safeParseWith(schema, element, world.variant.unknownFields === 'ignored');
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		throw badRequest(
			parsed.error.issues.map((i) => `${i.path.join('.') || 'item'}: ${i.message}`).join('; '),
			String(issue?.path[0] ?? 'item'),
		);
	}
	return parsed.data;
}

/** [C1] A successful create: 200 or 201 with the record. */
export const created = (world: World, json: unknown): Reply => ({ status: world.variant.createStatus, json });

/** [C2] A successful PUT/PATCH: 200 with the resulting record, or 204. */
export const written = (world: World, json: unknown): Reply =>
	world.variant.writeAnswer === 'record' ? { status: 200, json } : { status: 204 };

/** [C3] A successful DELETE: 204, or 200 with the deleted record. */
export const deleted = (world: World, json: unknown): Reply =>
	world.variant.deleteAnswer === 'empty' ? { status: 204 } : { status: 200, json };

/** [C4] A record as answered: without the timestamps the spec does not show, when the variant omits them. */
export function shownTimes<T extends object>(world: World, record: T): T {
	if (world.variant.unshownTimestamps === 'included') return record;
	const { createdDateTime: _c, modifiedDateTime: _m, ...rest } = record as Record<string, unknown>;
	return rest as T;
}

/**
 * The fields a record has when they are neither sent nor inherited: booleans false and the listed money
 * fields 0; any other field is absent. Create starts from it and PUT resets to it.
 */
export function defaultsOf(
	fields: Record<string, z.ZodTypeAny>,
	zeroes: readonly string[] = [],
): Record<string, unknown> {
	const defaults: Record<string, unknown> = {};
	for (const [name, schema] of Object.entries(fields)) {
		if (zeroes.includes(name)) defaults[name] = 0;
		else if (schema instanceof z.ZodBoolean) defaults[name] = false;
	}
	return defaults;
}
