import type { IDisplayOptions, INodeProperties, NodePropertyTypes } from 'n8n-workflow';

import type { Item } from '../items/items';
import {
	dateValue,
	numberValue,
	requiredDate,
	requiredText,
	timeOfDayValue,
	wholeNumberValue,
} from './values';

/** Where a field's value goes in the request. */
export type Destination = 'body' | 'query' | 'path';

/**
 * One parameter of an operation with its behaviour: the n8n parameter the user fills in, where its value goes in
 * the request (under its own name, or `as`), and how that value is checked and shaped before anything is sent.
 * A collection's entries go where each of its `children` says.
 */
export interface Field {
	property: INodeProperties;
	to?: Destination;
	as?: string;
	/** The value to send from what n8n resolved; undefined leaves it out; throws an error naming the field. */
	value?: (raw: unknown, item: Item) => unknown;
	children?: Field[];
}

/** The parameter shows for these operations of this resource (written at each field, checked by test). */
export const on = (resource: string, ...operations: string[]): IDisplayOptions => ({
	show: { resource: [resource], operation: operations },
});

/** Shown in the node versions from `version` on: a new default for new nodes, the saved ones keep theirs. */
export const since = (version: number) => ({ '@version': [{ _cnd: { gte: version } }] });
/** Shown in the node versions before `version`: what saved nodes keep. */
export const before = (version: number) => ({ '@version': [{ _cnd: { lt: version } }] });

/** A field with where it shows written at its definition; its own conditions (a mode, Return All) are kept. */
export function shown(display: IDisplayOptions, field: Field): Field {
	const own = field.property.displayOptions ?? {};
	return {
		...field,
		property: {
			...field.property,
			displayOptions: { ...own, ...display, show: { ...own.show, ...display.show } },
		},
	};
}

const EMPTY_DEFAULTS: Partial<Record<NodePropertyTypes, INodeProperties['default']>> = {
	boolean: false,
	number: 0,
	dateTime: '',
	string: '',
	options: '',
};

/** A field sent under its own name (body by default): dates and numbers are checked before sending. */
export function bodyField(
	displayName: string,
	name: string,
	type: NodePropertyTypes,
	description: string,
	extra: Partial<INodeProperties> = {},
	to: Destination = 'body',
): Field {
	return {
		property: { displayName, name, type, default: EMPTY_DEFAULTS[type] ?? '', description, ...extra },
		to,
		value:
			type === 'dateTime' ? dateValue(displayName) : type === 'number' ? numberValue(displayName) : undefined,
	};
}

/** A whole-number field, checked before sending (12.5 refused), with an accepted example in its placeholder. */
export function wholeNumberField(
	displayName: string,
	name: string,
	description: string,
	example: string,
	extra: Partial<INodeProperties> = {},
	to: Destination = 'body',
): Field {
	const field = bodyField(displayName, name, 'number', description, { placeholder: example, ...extra }, to);
	return { ...field, value: wholeNumberValue(displayName, example) };
}

/** A time-of-day field (`HH:mm`), checked before sending whatever an expression gives; the editor checks it too. */
export function timeOfDayField(
	displayName: string,
	name: string,
	description: string,
	example: string,
	extra: Partial<INodeProperties> = {},
): Field {
	const editorCheck = pattern(
		'^([01]?\\d|2[0-3]):[0-5]\\d$',
		`Use the 24-hour format HH:mm, e.g. ${example}`,
	);
	const field = bodyField(displayName, name, 'string', description, {
		placeholder: example,
		...editorCheck,
		...extra,
	});
	return { ...field, value: timeOfDayValue(displayName, example) };
}

/** A required field (n8n marks it; an expression that yields nothing is refused before sending). */
export function requiredField(
	displayName: string,
	name: string,
	type: 'string' | 'dateTime',
	description: string,
	extra: Partial<INodeProperties> = {},
	to: Destination | undefined = 'body',
): Field {
	const example = typeof extra.placeholder === 'string' ? extra.placeholder : undefined;
	return {
		property: { displayName, name, type, required: true, default: '', description, ...extra },
		to,
		value: type === 'dateTime' ? requiredDate(displayName) : requiredText(displayName, example),
	};
}

/** "Additional Fields" / "Update Fields": optional fields the user adds one by one. */
export function fieldsCollection(kind: 'additional' | 'update', children: Field[]): Field {
	return {
		property: {
			displayName: kind === 'additional' ? 'Additional Fields' : 'Update Fields',
			name: kind === 'additional' ? 'additionalFields' : 'updateFields',
			type: 'collection',
			placeholder: 'Add Field',
			default: {},
			...(kind === 'update'
				? { description: 'Only the fields you add here change; everything else stays as it is' }
				: {}),
			options: children.map((child) => child.property),
		},
		children,
	};
}

/** A collection of options or filters, each going where it says. */
export function optionsCollection(
	displayName: string,
	name: string,
	children: Field[],
	extra: Partial<INodeProperties> = {},
): Field {
	return {
		property: {
			displayName,
			name,
			type: 'collection',
			placeholder: displayName === 'Filters' ? 'Add Filter' : 'Add Option',
			default: {},
			...extra,
			options: children.map((child) => child.property),
		},
		children,
	};
}

/** A notice shown with an operation: says what it does that a user could not guess. */
export const notice = (name: string, text: string): Field => ({
	property: { displayName: text, name, type: 'notice', default: '' },
});

/** The labels of fields (collections' entries included) by the name the API knows each under. */
export function labelsOf(fields: Field[]): Record<string, string> {
	const labels: Record<string, string> = {};
	for (const field of fields) {
		if (field.children) Object.assign(labels, labelsOf(field.children));
		else if (field.to) labels[field.as ?? field.property.name] = field.property.displayName;
	}
	return labels;
}

/** A regex check of a text field, shown by the editor while typing. */
export function pattern(regex: string, errorMessage: string): Partial<INodeProperties> {
	return {
		typeOptions: { validation: [{ type: 'regex', properties: { regex, errorMessage } }] },
	} as Partial<INodeProperties>;
}
