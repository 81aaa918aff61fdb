import type { RequestOperation } from '../../operations/operation';
import { dateFormat, updateFields, userByProfile, USERS } from './common';

export const update: RequestOperation = {
	name: 'Update',
	value: 'update',
	action: 'Update a legacy user',
	description: 'Change only the fields you set',
	fields: [userByProfile, updateFields, dateFormat],
	request: {
		method: 'PATCH',
		path: `${USERS}/{companyProfileId}`,
		changes: { collection: 'updateFields', label: 'Update Fields', example: 'Email' },
	},
};
