import { notice, on, shown } from '../../parameters/field';
import { findUser } from '../../lookups/records';
import { userLocator } from '../../parameters/locators';
import type { RequestOperation } from '../../operations/operation';
import { USER_FIELDS, USERS } from './common';

/** Replace needs the identity ID in the path and both IDs in the body: read from the user first. */
const user = shown(on('user', 'replace'), userLocator(undefined, { to: 'none' }));

export const replace: RequestOperation = {
	name: 'Replace',
	value: 'replace',
	action: 'Replace a legacy user',
	description: 'Send the complete user; fields not set are reset',
	fields: [
		user,
		shown(
			on('user', 'replace'),
			notice(
				'replaceNotice',
				'Replace sends the complete user: every field you do not set here is reset. To change only some fields, use Update.',
			),
		),
		...USER_FIELDS,
	],
	request: {
		method: 'PUT',
		path: `${USERS}/{identityId}`,
		prepare: async (request, item) => {
			const found = await findUser(item, item.param('user'));
			request.params.identityId = { label: 'User', value: found.identityId };
			request.body = {
				...(request.body as object),
				identityId: found.identityId,
				companyProfileId: found.companyProfileId,
			};
		},
	},
};
