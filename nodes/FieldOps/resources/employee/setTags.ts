import type { IDataObject } from 'n8n-workflow';

import { FieldOpsFailure } from '../../transport/errors';
import { notice, type Field, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { assignmentDate, employee, ONE_EMPLOYEE } from './common';

const tags: Field = shown(on('employee', 'setTags'), {
	property: {
		displayName: 'Tags',
		name: 'tags',
		type: 'fixedCollection',
		placeholder: 'Add Tag Assignment',
		typeOptions: { multipleValues: true },
		default: {},
		description: 'The complete list of the employee’s tag assignments after this call',
		options: [
			{
				displayName: 'Assignment',
				name: 'assignment',
				values: [
					{
						displayName: 'Applicable From',
						name: 'applicableFromDate',
						type: 'dateTime',
						default: '',
						description: 'From when the tag applies (required for payroll tags)',
					},
					{
						displayName: 'Applicable To',
						name: 'applicableToDate',
						type: 'dateTime',
						default: '',
						description: 'Until when the tag applies; leave empty for open-ended',
					},
					{
						displayName: 'Assignment ID',
						name: 'userTagId',
						type: 'string',
						default: '',
						description:
							'ID of an existing assignment (userTagId), to change its dates; leave empty for a new one',
					},
					{
						displayName: 'Tag ID',
						name: 'tagId',
						type: 'string',
						default: '',
						description: 'ID of the tag; required to change an existing assignment',
					},
					{
						displayName: 'Tag Name',
						name: 'tagName',
						type: 'string',
						default: '',
						description: 'For a new assignment: the tag’s name instead of its ID',
					},
				],
			},
		],
	},
});

/** The Tags rows as the array the API replaces the assignments with; empty values are left out. */
function assignments(rows: IDataObject[]): IDataObject[] {
	return rows.map((row, index) => {
		const position = index + 1;
		const entry: IDataObject = {};
		for (const [key, value] of Object.entries(row))
			if (value !== '' && value !== undefined && value !== null) entry[key] = value;
		if (!entry.tagId && !entry.tagName)
			throw new FieldOpsFailure(
				`Tag assignment ${position} has neither a tag ID nor a tag name`,
				'Give the Tag ID, or the Tag Name for a new assignment.',
			);
		if (entry.userTagId && !entry.tagId)
			throw new FieldOpsFailure(
				`Tag assignment ${position} changes an assignment but has no tag ID`,
				'To change an existing assignment (Assignment ID set), also give its Tag ID.',
			);
		for (const [key, label] of [
			['applicableFromDate', 'From'],
			['applicableToDate', 'To'],
		]) {
			if (entry[key] !== undefined) entry[key] = assignmentDate(position, label)(entry[key]);
		}
		return entry;
	});
}

/** Count and list of one part of the answer (lists or counts: then no list, rather than an empty one) [V8]. */
function part(value: unknown): { count: number; tags?: IDataObject[] } {
	if (Array.isArray(value)) return { count: value.length, tags: value as IDataObject[] };
	return { count: typeof value === 'number' ? value : 0 };
}

/** One item that says plainly what changed. */
function summary(body: unknown): IDataObject[] {
	const result = (body && typeof body === 'object' ? body : {}) as IDataObject;
	const [added, updated, removed] = [result.added, result.updated, result.removed].map(part);
	const currentTags = (Array.isArray(result.currentTags) ? result.currentTags : []) as IDataObject[];
	return [
		{
			summary: `${added.count} added, ${updated.count} updated, ${removed.count} removed; ${currentTags.length} tag(s) now`,
			added: added.count,
			updated: updated.count,
			removed: removed.count,
			...(added.tags ? { addedTags: added.tags } : {}),
			...(updated.tags ? { updatedTags: updated.tags } : {}),
			...(removed.tags ? { removedTags: removed.tags } : {}),
			currentTags,
		},
	];
}

export const setTags: RequestOperation = {
	name: 'Set Tags',
	value: 'setTags',
	action: 'Set an employee’s tags',
	description: 'Replace all tag assignments of the employee; answers what was added, updated and removed',
	returns: 'one summary: how many tags were added, updated and removed, and the tags the employee has now',
	fields: [
		employee,
		shown(
			on('employee', 'setTags'),
			notice(
				'tagsNotice',
				'Tags not listed here are REMOVED from the employee (with no tag listed, all are removed). To keep a tag, list it; to change its dates, give its Assignment ID.',
			),
		),
		tags,
	],
	request: {
		method: 'PUT',
		path: `${ONE_EMPLOYEE}/tags`,
		prepare: (request, item) => {
			request.body = assignments(item.param<{ assignment?: IDataObject[] }>('tags')?.assignment ?? []);
		},
		output: summary,
	},
};
