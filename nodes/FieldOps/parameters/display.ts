import type { IDisplayOptions } from 'n8n-workflow';

import type { Field } from './field';

/** The parameter shows for these operations of this resource (written at each field, checked by test). */
export const on = (resource: string, ...operations: string[]): IDisplayOptions => ({
	show: { resource: [resource], operation: operations },
});

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
