/** What the user (v4) operations have in common: their paths and the fields they share. */
import type { IDataObject } from 'n8n-workflow';

import { userDate, type UserDateFormat } from '../../parameters/dates';
import { FieldOpsFailure } from '../../transport/errors';
import { bodyField, fieldsCollection, requiredField, type Field, on, shown } from '../../parameters/field';
import type { Item } from '../../items/items';
import { locatorValue, userId } from '../../lookups/records';
import { companyLocator, userLocator } from '../../parameters/locators';

export const USERS = '/api/v4/integration/users';

export const byLabel = (a: Field, b: Field) => a.property.displayName.localeCompare(b.property.displayName);

/** A v4 date: sent in the item's chosen Date Format (the API takes yyyy-MM-dd or dd.MM.yyyy). */
function userDateField(displayName: string, name: string, description: string, required = false): Field {
	return {
		property: {
			displayName,
			name,
			type: 'dateTime',
			default: '',
			description,
			...(required ? { required } : {}),
		},
		to: 'body',
		value: (raw, item) => {
			if (raw === '' || raw === null || raw === undefined) {
				if (required)
					throw new FieldOpsFailure(`${displayName} is empty`, `Pick the ${displayName} in the date picker.`);
				return undefined;
			}
			return userDate(displayName, raw, item.param<UserDateFormat>('dateFormat') ?? 'yyyy-MM-dd');
		},
	};
}

/** Key/value tags of a v4 user, sent as `tags: [{key, value}]`. */
export const userTagsField: Field = {
	property: {
		displayName: 'Tags',
		name: 'tags',
		type: 'fixedCollection',
		placeholder: 'Add Tag',
		default: {},
		typeOptions: { multipleValues: true },
		description:
			'Key/value tags of the user, sent as given. On Update, Field Ops may replace the user’s tags with this list or merge it by key (the API does not say which).',
		options: [
			{
				displayName: 'Tag',
				name: 'tag',
				values: [
					{ displayName: 'Key', name: 'key', type: 'string', default: '', placeholder: 'e.g. Union' },
					{ displayName: 'Value', name: 'value', type: 'string', default: '', placeholder: 'e.g. Yes' },
				],
			},
		],
	},
	to: 'body',
	value: (raw) =>
		((raw as { tag?: Array<{ key?: string; value?: string }> }).tag ?? []).map(({ key, value }) => ({
			key,
			value,
		})),
};

/** Every optional field of a v4 user, for Create, Replace (Additional Fields) and Update (Update Fields). */
export const userOptionalFields: Field[] = [
	bodyField('Address', 'address', 'string', 'Home address'),
	bodyField('Car Registration Number', 'carRegNumber', 'string', 'Registration number of the user’s car'),
	bodyField('Card ID', 'cardId', 'string', 'Number of the user’s ID/HSE card'),
	// The spec gives this date no format of its own: it goes as the spec's datetimes do (ISO 8601), time kept.
	bodyField(
		'Card Expiration Date',
		'cardExpirationDate',
		'dateTime',
		'When the ID/HSE card expires; sent as a date and time (ISO 8601), not in the Date Format below',
	),
	bodyField('Closest Relative', 'closestRelative', 'string', 'Name and phone of the next of kin'),
	bodyField(
		'Default Resource Number',
		'defaultResourceNumber',
		'string',
		'Resource number used by default on the user’s registrations',
	),
	bodyField('Department', 'department', 'string', 'Department the user works in'),
	bodyField('Email', 'email', 'string', 'E-mail address', { placeholder: 'name@email.com' }),
	userDateField(
		'Employment End Date',
		'employmentEndDate',
		'Last day of employment (leave empty while employed)',
	),
	bodyField(
		'Hourly Wage (Payroll)',
		'payroll',
		'boolean',
		'Whether the user is paid an hourly wage (on) or a fixed salary (off)',
		{ hint: 'On = hourly wage, off = fixed salary' },
	),
	bodyField(
		'Is Disabled',
		'isDisabled',
		'boolean',
		'Whether the account is disabled (the user cannot log in)',
	),
	bodyField(
		'Main Project Number',
		'mainProjectNumber',
		'string',
		'Project number of the project the user mostly works on',
	),
	bodyField('Mobile (Private)', 'mobilePrivate', 'string', 'Private phone number'),
	bodyField(
		'Organization Number',
		'organizationNumber',
		'string',
		'Organisation number of the user’s company, for people of subcontractor companies',
	),
	bodyField('Personal Info', 'personalInfo', 'string', 'Free text about the user', {
		typeOptions: { rows: 2 },
	}),
	userTagsField,
	bodyField('Work Title', 'workTitle', 'string', 'Job title, e.g. Carpenter'),
	bodyField(
		'Work-Time Arrangement Name',
		'worktimeArrangementName',
		'string',
		'Name of the work-time arrangement (as configured in Field Ops)',
	),
].sort(byLabel);

export const dateFormat: Field = shown(on('user', 'create', 'replace', 'update'), {
	property: {
		displayName: 'Date Format',
		name: 'dateFormat',
		type: 'options',
		default: 'yyyy-MM-dd',
		description:
			'How Birth Date and the employment dates are sent. The legacy API accepts both; pick the one your payroll system uses. (Card Expiration Date always goes as a date and time.)',
		options: [
			{ name: 'Day.Month.Year (Dd.MM.yyyy)', value: 'dd.MM.yyyy' },
			{ name: 'Year-Month-Day (Yyyy-MM-Dd)', value: 'yyyy-MM-dd' },
		],
	},
});

/** The user a path needs: by identity ID (delete, replace) or company profile ID (update, disable, enable). */
export const userByIdentity = shown(
	on('user', 'checkDeletable', 'delete'),
	userLocator(async (item, raw) => await userId(item, raw, 'identityId'), {
		as: 'identityId',
	}),
);
export const userByProfile = shown(
	on('user', 'disable', 'enable', 'get', 'update'),
	userLocator(async (item, raw) => await userId(item, raw, 'companyProfileId'), {
		as: 'companyProfileId',
	}),
);

export const companyId = shown(on('user', 'create', 'replace'), companyLocator());
export const employeeNumber = shown(
	on('user', 'create', 'replace'),
	requiredField(
		'Employee Number',
		'employeeNumber',
		'string',
		'The employee number, unique within your company',
		{
			placeholder: 'e.g. 1042',
		},
	),
);
export const firstName = shown(
	on('user', 'create', 'replace'),
	requiredField('First Name', 'firstName', 'string', 'First name'),
);
export const lastName = shown(
	on('user', 'create', 'replace'),
	requiredField('Last Name', 'lastName', 'string', 'Last name'),
);
export const mobileWork = shown(
	on('user', 'create', 'replace'),
	requiredField(
		'Mobile (Work)',
		'mobileWork',
		'string',
		'Work phone number; the user logs in with it (SMS)',
		{
			placeholder: 'e.g. +4791234567',
		},
	),
);
export const birthDate = shown(
	on('user', 'create', 'replace'),
	userDateField('Birth Date', 'birthDate', 'Date of birth', true),
);
export const employmentStartDate = shown(
	on('user', 'create', 'replace'),
	userDateField('Employment Start Date', 'employmentStartDate', 'First day of employment', true),
);
export const additionalFields = shown(
	on('user', 'create', 'replace'),
	fieldsCollection('additional', userOptionalFields),
);

/** Create and Replace send the same complete user. */
export const USER_FIELDS = [
	companyId,
	employeeNumber,
	firstName,
	lastName,
	mobileWork,
	birthDate,
	employmentStartDate,
	additionalFields,
	dateFormat,
];

export const updateFields = shown(
	on('user', 'update'),
	fieldsCollection(
		'update',
		[
			userDateField('Birth Date', 'birthDate', 'Date of birth'),
			bodyField('Company ID', 'companyId', 'string', 'The ID of the company of this profile'),
			bodyField(
				'Employee Number',
				'employeeNumber',
				'string',
				'A new employee number, unique within your company',
			),
			userDateField('Employment Start Date', 'employmentStartDate', 'First day of employment'),
			bodyField('First Name', 'firstName', 'string', 'First name'),
			bodyField('Last Name', 'lastName', 'string', 'Last name'),
			bodyField('Mobile (Work)', 'mobileWork', 'string', 'Work phone number; the user logs in with it (SMS)'),
			...userOptionalFields,
		].sort(byLabel),
	),
);

/** Disable and Enable: the API answers 204, so the item says what happened. */
export function accountState(disabled: boolean) {
	return (_body: unknown, item: Item): IDataObject[] => {
		const { mode, value } = locatorValue(item.param('user'));
		return [{ success: true, disabled, user: { [mode]: value } }];
	};
}
