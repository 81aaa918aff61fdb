import type { RequestOperation } from '../../operations/operation';
import { accountState, userByProfile, USERS } from './common';

export const disable: RequestOperation = {
	name: 'Disable',
	value: 'disable',
	action: 'Disable a legacy user',
	description: 'Disable the account: the user can no longer log in',
	returns: 'success, and disabled: true',
	fields: [userByProfile],
	request: { method: 'PATCH', path: `${USERS}/disable/{companyProfileId}`, output: accountState(true) },
};
