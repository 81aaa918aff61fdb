import type {
	IDataObject,
	IExecuteSingleFunctions,
	IHttpRequestOptions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { bodyField, companyIdField, returnAllOrLimit } from '../../shared/fields';
import { userLocator } from '../../shared/locators';
import { operation } from '../../shared/routing';
import { apiRequest } from '../../shared/transport';
import type { ResourceModule } from '../../shared/types';
import { bodyDates, type UserDateFormat } from './dates';
import { USER_DATE_FIELDS, userOptionalFields } from './fields';

const USERS = '/api/v4/integration/users';
const show = (operations: string[]) => ({ show: { resource: ['user'], operation: operations } });
const enc = encodeURIComponent;

/** Dates in the format chosen under "Date Format" (the v4 API takes yyyy-MM-dd or dd.MM.yyyy). */
const userDates = bodyDates(
	USER_DATE_FIELDS,
	(context) => context.getNodeParameter('dateFormat', 'yyyy-MM-dd') as UserDateFormat,
);

/** The Tags fixed collection → `tags: [{key, value}]` (only when the user added the Tags field). */
async function tagsPreSend(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const collection = this.getNodeParameter('operation') === 'update' ? 'updateFields' : 'additionalFields';
	const fields = this.getNodeParameter(collection, {}) as IDataObject;
	if (fields.tags !== undefined) {
		const tags = ((fields.tags as IDataObject).tag as IDataObject[] | undefined) ?? [];
		requestOptions.body = { ...(requestOptions.body as IDataObject), tags: tags.map(({ key, value }) => ({ key, value })) };
	}
	return requestOptions;
}

/** Reads the chosen user once (by profile ID or employee number). */
async function lookUpUser(context: IExecuteSingleFunctions): Promise<IDataObject> {
	const locator = context.getNodeParameter('user', {}, { extractValue: false }) as { mode?: string; value?: string };
	const value = String(locator.value ?? '').trim();
	const url =
		locator.mode === 'profileId' ? `${USERS}/by-profile-id/${enc(value)}` : `${USERS}/by-employee-number/${enc(value)}`;
	return await apiRequest<IDataObject>(context, { method: 'GET', url, what: 'user', itemIndex: context.getItemIndex() });
}

/** Get: the lookup route that matches how the user was given (one request). */
async function getUserUrl(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const locator = this.getNodeParameter('user', {}, { extractValue: false }) as { mode?: string; value?: string };
	const value = enc(String(locator.value ?? '').trim());
	requestOptions.url = locator.mode === 'profileId' ? `${USERS}/by-profile-id/${value}` : `${USERS}/by-employee-number/${value}`;
	return requestOptions;
}

/** Replace needs the identity ID in the path and both IDs in the body: read them from the user first. */
async function replaceIdentity(this: IExecuteSingleFunctions, requestOptions: IHttpRequestOptions): Promise<IHttpRequestOptions> {
	const user = await lookUpUser(this);
	requestOptions.url = `${USERS}/${enc(String(user.identityId))}`;
	requestOptions.body = {
		...(requestOptions.body as IDataObject),
		identityId: user.identityId,
		companyProfileId: user.companyProfileId,
	};
	return requestOptions;
}

/** 204 from disable/enable → an item that says what happened. */
function accountState(disabled: boolean) {
	return async function (
		this: IExecuteSingleFunctions,
		items: INodeExecutionData[],
	): Promise<INodeExecutionData[]> {
		const user = this.getNodeParameter('user', {}, { extractValue: false }) as { mode?: string; value?: string };
		return items.map((item) => ({
			...item,
			json: { success: true, disabled, user: { [user.mode ?? 'value']: user.value } },
		}));
	};
}

const writes = ['create', 'replace'];

const properties: INodeProperties[] = [
	{
		displayName:
			'This is the legacy users API (v4). For new integrations use the Employee resource (v5), which also handles employments and tags.',
		name: 'legacyNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { resource: ['user'] } },
	},
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['user'] } },
		options: [
			operation({
				name: 'Check Deletable',
				value: 'checkDeletable',
				action: 'Check whether a legacy user can be deleted',
				description: 'Answers true or false in "result"',
				method: 'GET',
				path: `${USERS}/is-identity-deletable/:user.identityId`,
			}),
			operation({
				name: 'Create',
				value: 'create',
				action: 'Create a legacy user',
				description: 'Create a user with the legacy v4 API',
				method: 'POST',
				path: USERS,
				preSend: [tagsPreSend, userDates],
			}),
			operation({
				name: 'Delete',
				value: 'delete',
				action: 'Delete a legacy user',
				description: 'Delete the user’s identity (check first with Check Deletable)',
				method: 'DELETE',
				path: `${USERS}/:user.identityId`,
			}),
			operation({
				name: 'Disable',
				value: 'disable',
				action: 'Disable a legacy user',
				description: 'Disable the account: the user can no longer log in',
				method: 'PATCH',
				path: `${USERS}/disable/:user.companyProfileId`,
				postReceive: [accountState(true)],
			}),
			operation({
				name: 'Enable',
				value: 'enable',
				action: 'Enable a legacy user',
				description: 'Re-enable a disabled account',
				method: 'PATCH',
				path: `${USERS}/enable/:user.companyProfileId`,
				postReceive: [accountState(false)],
			}),
			operation({
				name: 'Get',
				value: 'get',
				action: 'Get a legacy user',
				description: 'Get one user by employee number or company profile ID',
				method: 'GET',
				path: USERS,
				preSend: [getUserUrl],
			}),
			operation({
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many legacy users',
				description: 'List users, optionally only those changed since a time',
				method: 'GET',
				path: USERS,
			}),
			operation({
				name: 'Replace',
				value: 'replace',
				action: 'Replace a legacy user',
				description: 'Send the complete user; fields not set are reset',
				method: 'PUT',
				path: USERS,
				preSend: [replaceIdentity, tagsPreSend, userDates],
			}),
			operation({
				name: 'Update',
				value: 'update',
				action: 'Update a legacy user',
				description: 'Change only the fields you set',
				method: 'PATCH',
				path: `${USERS}/:user.companyProfileId`,
				preSend: [tagsPreSend, userDates],
			}),
		],
		default: 'get',
	},
	userLocator({
		displayOptions: show(['checkDeletable', 'delete', 'disable', 'enable', 'get', 'replace', 'update']),
	}),
	{
		displayName:
			'Replace sends the complete user: every field you do not set here is reset. To change only some fields, use Update.',
		name: 'replaceNotice',
		type: 'notice',
		default: '',
		displayOptions: show(['replace']),
	},
	companyIdField(show(writes).show),
	{
		displayName: 'Employee Number',
		name: 'employeeNumber',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(writes),
		placeholder: 'e.g. 1042',
		description: 'The employee number, unique within your company',
		routing: { send: { type: 'body', property: 'employeeNumber' } },
	},
	{
		displayName: 'First Name',
		name: 'firstName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(writes),
		routing: { send: { type: 'body', property: 'firstName' } },
	},
	{
		displayName: 'Last Name',
		name: 'lastName',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(writes),
		routing: { send: { type: 'body', property: 'lastName' } },
	},
	{
		displayName: 'Mobile (Work)',
		name: 'mobileWork',
		type: 'string',
		required: true,
		default: '',
		displayOptions: show(writes),
		placeholder: 'e.g. +4791234567',
		description: 'Work phone number; the user logs in with it (SMS)',
		routing: { send: { type: 'body', property: 'mobileWork' } },
	},
	{
		displayName: 'Birth Date',
		name: 'birthDate',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: show(writes),
		routing: { send: { type: 'body', property: 'birthDate' } },
	},
	{
		displayName: 'Employment Start Date',
		name: 'employmentStartDate',
		type: 'dateTime',
		required: true,
		default: '',
		displayOptions: show(writes),
		description: 'First day of employment',
		routing: { send: { type: 'body', property: 'employmentStartDate' } },
	},
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(writes),
		options: userOptionalFields,
	},
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		displayOptions: show(['update']),
		description: 'Only the fields you add here change; everything else stays as it is',
		options: [
			bodyField('Birth Date', 'birthDate', 'dateTime', 'Date of birth'),
			bodyField('Company ID', 'companyId', 'string', 'Move the profile to this company ID'),
			bodyField('Employee Number', 'employeeNumber', 'string', 'A new employee number, unique within your company'),
			bodyField('Employment Start Date', 'employmentStartDate', 'dateTime', 'First day of employment'),
			bodyField('First Name', 'firstName', 'string', 'First name'),
			bodyField('Last Name', 'lastName', 'string', 'Last name'),
			bodyField('Mobile (Work)', 'mobileWork', 'string', 'Work phone number; the user logs in with it (SMS)'),
			...userOptionalFields,
		].sort((a, b) => a.displayName.localeCompare(b.displayName)),
	},
	{
		displayName: 'Date Format',
		name: 'dateFormat',
		type: 'options',
		default: 'yyyy-MM-dd',
		displayOptions: show(['create', 'replace', 'update']),
		description: 'How dates are sent to Field Ops. Both are accepted by the legacy API; pick the one your payroll system uses.',
		options: [
			{ name: 'Day.Month.Year (Dd.MM.yyyy)', value: 'dd.MM.yyyy' },
			{ name: 'Year-Month-Day (Yyyy-MM-Dd)', value: 'yyyy-MM-dd' },
		],
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: show(['getAll']),
		options: [
			{
				displayName: 'Changed Since',
				name: 'changedSince',
				type: 'dateTime',
				default: '',
				description: 'Only users changed after this time',
				hint: 'A slower query: use it for periodic syncs, not on every run',
				routing: { send: { type: 'query', property: 'changedSince' } },
			},
			{
				displayName: 'Company ID',
				name: 'companyId',
				type: 'string',
				default: '',
				description: 'Only users of this company (your company or a subsidiary)',
				routing: { send: { type: 'query', property: 'companyId' } },
			},
			{
				displayName: 'Employment Lookback (Days)',
				name: 'employmentLookbackDays',
				type: 'number',
				default: 30,
				typeOptions: { minValue: 0 },
				description: 'Only users with an active employment, or one that ended within this many days',
				routing: { send: { type: 'query', property: 'employmentLookbackDays' } },
			},
		],
	},
	...returnAllOrLimit({ resource: ['user'], operation: ['getAll'] }),
];

export const userResource: ResourceModule = {
	name: 'User (Legacy)',
	value: 'user',
	description: 'Manage users with the legacy v4 API (use Employee for new integrations)',
	properties,
};
