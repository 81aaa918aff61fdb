import type { RequestOperation } from '../../operations/operation';
import { userByIdentity, USERS } from './common';

export const deleteUser: RequestOperation = {
	name: 'Delete',
	value: 'delete',
	action: 'Delete a legacy user',
	description: 'Delete the user’s identity (check first with Check Deletable)',
	fields: [userByIdentity],
	request: { method: 'DELETE', path: `${USERS}/{identityId}` },
};
