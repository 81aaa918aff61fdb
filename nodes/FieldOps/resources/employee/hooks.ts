import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type IN8nHttpFullResponse,
	type INodeExecutionData,
} from 'n8n-workflow';

import { bodyDates, isoDateTime } from '../user/dates';

/** Profile date-times as ISO 8601; an unreadable date is refused before sending. */
export const employeeDates = bodyDates({ birthDate: 'Birth Date', workCardExpirationDate: 'Work Card Expiration Date', endDate: 'End Date', startDate: 'Start Date' }, () => 'iso');

const bodyOf = (requestOptions: IHttpRequestOptions) => (requestOptions.body ?? {}) as IDataObject;

/** Empty optional values (a field added but left blank) are left out rather than sent as "". */
const compact = (values: IDataObject): IDataObject =>
	Object.fromEntries(Object.entries(values).filter(([, v]) => v !== '' && v !== undefined && v !== null));

/** The Employment fixed collection: the `employment` of a new employee, or (asBody) the whole body of create-employment. */
export function employmentBody(asBody: boolean) {
	return async function (this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
		const employment = compact(this.getNodeParameter('employment.details', {}) as IDataObject);
		if (!employment.startDate) {
			throw new NodeOperationError(this.getNode(), 'The employment needs a start date', {
				description: 'Under Employment, set the Start Date.',
				itemIndex: this.getItemIndex(),
			});
		}
		for (const [field, label] of [['startDate', 'Start Date'], ['endDate', 'End Date']]) {
			if (employment[field] !== undefined) employment[field] = isoDateTime(this.getNode(), label, employment[field], this.getItemIndex());
		}
		requestOptions.body = asBody ? employment : { ...bodyOf(requestOptions), employment };
		return requestOptions;
	};
}

const LABELS: Record<string, string> = {
	address: 'Address',
	carRegistrationNumber: 'Car Registration Number',
	closestRelative: 'Closest Relative',
	email: 'Email',
	personalInfo: 'Personal Info',
	workTitle: 'Work Title',
};

/** Update: "Fields to Clear" are sent as explicit null (the API clears them); omitted fields stay unchanged. */
export async function clearFields(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const body = bodyOf(requestOptions);
	for (const field of this.getNodeParameter('fieldsToClear', []) as string[]) {
		if (body[field] !== undefined && body[field] !== '') {
			const label = LABELS[field] ?? field;
			throw new NodeOperationError(this.getNode(), `${label} is both set and cleared`, {
				description: `Remove ${label} either from Update Fields or from Fields to Clear.`,
				itemIndex: this.getItemIndex(),
			});
		}
		body[field] = null;
	}
	if (Object.keys(body).length === 0) {
		throw new NodeOperationError(this.getNode(), 'Nothing to update', {
			description: 'Add a field under Update Fields, or pick one under Fields to Clear.',
			itemIndex: this.getItemIndex(),
		});
	}
	requestOptions.body = body;
	return requestOptions;
}

/** Set Tags: the Tags fixed collection becomes the array the API replaces the assignments with. */
export async function tagsBody(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const rows = (this.getNodeParameter('tags.assignment', []) as IDataObject[]) ?? [];
	requestOptions.body = rows.map((row, position) => {
		const entry = compact(row);
		if (!entry.tagId && !entry.tagName) {
			throw new NodeOperationError(this.getNode(), `Tag assignment ${position + 1} has neither a tag ID nor a tag name`, {
				description: 'Give the Tag ID, or the Tag Name for a new assignment.',
				itemIndex: this.getItemIndex(),
			});
		}
		if (entry.userTagId && !entry.tagId) {
			throw new NodeOperationError(this.getNode(), `Tag assignment ${position + 1} changes an assignment but has no tag ID`, {
				description: 'To change an existing assignment (Assignment ID set), also give its Tag ID.',
				itemIndex: this.getItemIndex(),
			});
		}
		for (const [field, label] of [['applicableFromDate', 'From'], ['applicableToDate', 'To']]) {
			if (entry[field] !== undefined) entry[field] = isoDateTime(this.getNode(), `Tag assignment ${position + 1}: ${label}`, entry[field], this.getItemIndex());
		}
		return entry;
	});
	return requestOptions;
}

/** Count and list of one part of the tag-replacement answer (lists or counts). */
function part(value: unknown): { count: number; tags: IDataObject[] } {
	if (Array.isArray(value)) return { count: value.length, tags: value as IDataObject[] };
	return { count: typeof value === 'number' ? value : 0, tags: [] };
}

/** Set Tags: one item that says plainly what changed. */
export async function summarizeTags(
	this: IExecuteSingleFunctions,
	items: INodeExecutionData[],
	response: IN8nHttpFullResponse,
): Promise<INodeExecutionData[]> {
	const result = (response.body ?? {}) as IDataObject;
	const [added, updated, removed] = [result.added, result.updated, result.removed].map(part);
	const currentTags = (Array.isArray(result.currentTags) ? result.currentTags : []) as IDataObject[];
	const json: IDataObject = {
		summary: `${added.count} added, ${updated.count} updated, ${removed.count} removed; ${currentTags.length} tag(s) now`,
		added: added.count,
		updated: updated.count,
		removed: removed.count,
		addedTags: added.tags,
		updatedTags: updated.tags,
		removedTags: removed.tags,
		currentTags,
	};
	return [{ json, pairedItem: items[0]?.pairedItem ?? { item: this.getItemIndex() } }];
}
