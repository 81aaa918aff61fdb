import { asItems, forEachItem } from '../../items/items';
import { findUser, LOOKUP_PATHS } from '../../lookups/records';
import type { CodeOperation } from '../../operations/operation';
import { userByProfile } from './common';

export const get: CodeOperation = {
	name: 'Get',
	value: 'get',
	action: 'Get a legacy user',
	description: 'Get one user by employee number or company profile ID',
	returns: 'the user, with its identityId and companyProfileId',
	fields: [userByProfile],
	// The route follows how the user was given: one request either way.
	requests: [
		{ method: 'GET', path: LOOKUP_PATHS.userByEmployeeNumber },
		{ method: 'GET', path: LOOKUP_PATHS.userByProfileId },
	],
	execute: async (context) =>
		await forEachItem(context, async (item) => asItems(await findUser(item, item.param('user')))),
};
