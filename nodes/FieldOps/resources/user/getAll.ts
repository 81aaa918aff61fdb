import { bodyField, optionsCollection, wholeNumberField, on, shown } from '../../parameters/field';
import type { RequestOperation } from '../../operations/operation';
import { USERS } from './common';
import { listFields } from '../../parameters/limits';

const filters = shown(
	on('user', 'getAll'),
	optionsCollection('Filters', 'filters', [
		bodyField(
			'Changed Since',
			'changedSince',
			'dateTime',
			'Only users changed after this time',
			{ hint: 'A slower query: use it for periodic syncs, not on every run' },
			'query',
		),
		bodyField(
			'Company ID',
			'companyId',
			'string',
			'Only users of this company (your company or a subsidiary)',
			{},
			'query',
		),
		wholeNumberField(
			'Employment Lookback (Days)',
			'employmentLookbackDays',
			'Only users with an active employment, or one that ended within this many days',
			'30',
			{ default: 30, typeOptions: { minValue: 0, numberPrecision: 0 } },
			'query',
		),
	]),
);

export const getAll: RequestOperation = {
	name: 'Get Many',
	value: 'getAll',
	action: 'Get many legacy users',
	description: 'List users, optionally only those changed since a time',
	fields: [filters, ...listFields(on('user', 'getAll'))],
	request: { method: 'GET', path: USERS, list: true },
};
