import { z } from 'zod';

import { badRequest, parseIsoDate } from '../http';
import type { Person, TagDefinition, UserTag, World } from '../state';

/**
 * Employee tag assignments (v5 `PUT /employees/{employeeNumber}/tags`): the request is the complete wanted list.
 * Regular tags may be assigned once; payroll tags several times with non-overlapping date ranges.
 */
const isoDate = z.string().refine((v) => parseIsoDate(v) !== undefined, 'must be an ISO 8601 date-time');

export const tagsSchema = z
	.array(
		z
			.object({
				userTagId: z.string().optional(),
				tagId: z.string().optional(),
				tagName: z.string().optional(),
				applicableFromDate: isoDate.nullable().optional(),
				applicableToDate: isoDate.nullable().optional(),
			})
			.strict(),
	)
	.max(1000);

export function tagView(world: World, tag: UserTag) {
	const definition = world.tagDefinitions.find((d) => d.tagId === tag.tagId);
	return { ...tag, tagName: definition?.tagName ?? null, isPayrollTag: definition?.isPayrollTag ?? false };
}

/** Tag replacement: unknown tags are added, tags left out are removed, entries with `userTagId` get new dates. */
export function replaceTags(
	world: World,
	person: Person,
	definitions: TagDefinition[],
	entries: z.infer<typeof tagsSchema>,
) {
	const resolve = (entry: (typeof entries)[number], index: number): TagDefinition => {
		const found = entry.tagId
			? definitions.find((d) => d.tagId === entry.tagId)
			: definitions.find((d) => d.tagName === entry.tagName);
		if (!found)
			throw badRequest(
				`Tag ${entry.tagId ?? entry.tagName ?? '(none)'} does not exist`,
				`[${index}].${entry.tagId ? 'tagId' : 'tagName'}`,
				'UnknownTag',
			);
		return found;
	};
	const next: UserTag[] = [];
	const added: UserTag[] = [];
	const updated: UserTag[] = [];
	entries.forEach((entry, index) => {
		if (entry.userTagId) {
			const existing = person.tags.find((t) => t.userTagId === entry.userTagId);
			if (!existing)
				throw badRequest(
					`No tag assignment ${entry.userTagId} on this employee`,
					`[${index}].userTagId`,
					'UnknownAssignment',
				);
			if (!entry.tagId) throw badRequest('tagId is required when updating an assignment', `[${index}].tagId`);
			const changed = {
				...existing,
				applicableFromDate: entry.applicableFromDate ?? existing.applicableFromDate,
				applicableToDate:
					entry.applicableToDate === undefined ? existing.applicableToDate : entry.applicableToDate,
			};
			next.push(changed);
			updated.push(changed);
			return;
		}
		const definition = resolve(entry, index);
		if (definition.isPayrollTag && !entry.applicableFromDate)
			throw badRequest(
				`Payroll tag ${definition.tagName} needs applicableFromDate`,
				`[${index}].applicableFromDate`,
			);
		const assignment = {
			userTagId: world.newId(),
			tagId: definition.tagId,
			applicableFromDate: entry.applicableFromDate ?? null,
			applicableToDate: entry.applicableToDate ?? null,
		};
		next.push(assignment);
		added.push(assignment);
	});
	// Regular tags: one assignment each; payroll tags: ranges must not overlap.
	for (const definition of definitions) {
		const assignments = next.filter((t) => t.tagId === definition.tagId);
		if (!definition.isPayrollTag && assignments.length > 1)
			throw badRequest(`Tag ${definition.tagName} can be assigned only once`, 'tagId', 'DuplicateTag');
		const ranges = assignments
			.map((t) => [
				Date.parse(t.applicableFromDate ?? '1970-01-01'),
				t.applicableToDate ? Date.parse(t.applicableToDate) : Infinity,
			])
			.sort((a, b) => a[0] - b[0]);
		for (let i = 1; i < ranges.length; i++) {
			if (ranges[i][0] <= ranges[i - 1][1])
				throw badRequest(
					`The date ranges of payroll tag ${definition.tagName} overlap`,
					'applicableFromDate',
					'OverlappingRanges',
				);
		}
	}
	const removed = person.tags.filter((t) => !next.some((n) => n.userTagId === t.userTagId));
	person.tags = next;
	person.modifiedDateTime = world.clock.iso();
	const view = (tags: UserTag[]) => tags.map((tag) => tagView(world, tag));
	return { added: view(added), updated: view(updated), removed: view(removed), currentTags: view(next) };
}
