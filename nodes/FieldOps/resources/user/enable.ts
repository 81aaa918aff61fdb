import type { RequestOperation } from '../../operations/operation';
import { accountState, userByProfile, USERS } from './common';

export const enable: RequestOperation = {
	name: 'Enable',
	value: 'enable',
	action: 'Enable a legacy user',
	description: 'Re-enable a disabled account',
	returns: 'success, and disabled: false',
	fields: [userByProfile],
	request: { method: 'PATCH', path: `${USERS}/enable/{companyProfileId}`, output: accountState(false) },
};
