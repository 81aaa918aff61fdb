import { FieldOpsFailure } from '../../transport/errors';
import { type Field, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { CLEARABLE, employee, ONE_EMPLOYEE, updateFields } from './common';

const fieldsToClear: Field = shown(on('employee', 'update'), {
	property: {
		displayName: 'Fields to Clear',
		name: 'fieldsToClear',
		type: 'multiOptions',
		default: [],
		options: CLEARABLE.map(([name, value]) => ({ name, value })),
		description:
			'Fields to empty in Field Ops (sent as null). Fields neither set above nor chosen here stay as they are.',
	},
});

export const update: RequestOperation = {
	name: 'Update',
	value: 'update',
	action: 'Update an employee',
	description: 'Change only the fields you set, or clear chosen fields',
	fields: [employee, updateFields, fieldsToClear],
	request: {
		method: 'PATCH',
		path: ONE_EMPLOYEE,
		// "Fields to Clear" are sent as explicit null (the API clears them); omitted fields stay unchanged.
		prepare: (request, item) => {
			const body = request.body as Record<string, unknown>;
			for (const field of item.param<string[]>('fieldsToClear') ?? []) {
				const label = CLEARABLE.find(([, name]) => name === field)?.[0] ?? field;
				if (body[field] !== undefined && body[field] !== '')
					throw new FieldOpsFailure(
						`${label} is both set and cleared`,
						`Remove ${label} either from Update Fields or from Fields to Clear.`,
					);
				body[field] = null;
			}
			if (Object.keys(body).length === 0)
				throw new FieldOpsFailure(
					'Nothing to update',
					'Add a field under Update Fields, or pick one under Fields to Clear.',
				);
		},
	},
};
