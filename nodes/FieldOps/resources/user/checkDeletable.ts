import type { RequestOperation } from '../../operations/operation';
import { userByIdentity, USERS } from './common';

export const checkDeletable: RequestOperation = {
	name: 'Check Deletable',
	value: 'checkDeletable',
	action: 'Check whether a legacy user can be deleted',
	description: 'Answers true or false in "result"',
	returns: 'result: true or false',
	fields: [userByIdentity],
	request: { method: 'GET', path: `${USERS}/is-identity-deletable/{identityId}` },
};
