import type { INodeProperties, NodePropertyTypes } from 'n8n-workflow';

/** A field sent as a JSON body property of the same name (for Additional Fields / Update Fields collections). */
/** Body properties that hold a date (from `bodyField(…, 'dateTime')`): checked before any request is sent. */
export const DATE_BODY_FIELDS = new Set<string>();

export function bodyField(
	displayName: string,
	name: string,
	type: NodePropertyTypes,
	description: string,
	extra: Partial<INodeProperties> = {},
): INodeProperties {
	if (type === 'dateTime') DATE_BODY_FIELDS.add(name);
	const defaults: Partial<Record<NodePropertyTypes, unknown>> = {
		boolean: false,
		number: 0,
		dateTime: '',
		string: '',
		options: '',
	};
	return {
		displayName,
		name,
		type,
		default: (defaults[type] ?? '') as INodeProperties['default'],
		description,
		routing: { send: { type: 'body', property: name } },
		...extra,
	};
}

/** A regex validation for string fields, checked by n8n before the node runs. */
export function pattern(regex: string, errorMessage: string): Partial<INodeProperties> {
	return {
		typeOptions: { validation: [{ type: 'regex', properties: { regex, errorMessage } }] },
	} as Partial<INodeProperties>;
}

/** Return All / Limit for list endpoints that answer everything at once (the limit is applied by n8n). */
export function returnAllOrLimit(show: Record<string, string[]>): INodeProperties[] {
	return [
		{
			displayName: 'Return All',
			name: 'returnAll',
			type: 'boolean',
			displayOptions: { show },
			default: false,
			description: 'Whether to return all results or only up to a given limit',
		},
		{
			displayName: 'Limit',
			name: 'limit',
			type: 'number',
			displayOptions: { show: { ...show, returnAll: [false] } },
			typeOptions: { minValue: 1 },
			default: 50,
			routing: { output: { maxResults: '={{ $value }}' } },
			description: 'Max number of results to return',
		},
	];
}

export const companyIdField = (show: Record<string, string[]>): INodeProperties => ({
	displayName: 'Company ID',
	name: 'companyId',
	type: 'string',
	required: true,
	default: '',
	displayOptions: { show },
	placeholder: 'e.g. 6c1f0a52-1d4e-…',
	hint: 'The ID of your company in Field Ops (shown on the integration page of the web administration, and as companyId on any project)',
	routing: { send: { type: 'body', property: 'companyId' } },
});

/**
 * The "Additional Fields" / "Update Fields" collection of a resource: optional fields the user adds one by one.
 * Update Fields says that only what is added changes.
 */
export function fieldsCollection(kind: 'additional' | 'update', displayOptions: INodeProperties['displayOptions'], options: INodeProperties[]): INodeProperties {
	return {
		displayName: kind === 'additional' ? 'Additional Fields' : 'Update Fields',
		name: kind === 'additional' ? 'additionalFields' : 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions,
		...(kind === 'update' ? { description: 'Only the fields you add here change; everything else stays as it is' } : {}),
		options,
	};
}
