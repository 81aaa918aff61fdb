import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { projectLocator } from '../parameters/locators';
import { companyFilter } from '../parameters/pickers';
import { locatorValue } from '../lookups/records';
import { feedValues, type ReportFeed, type ReportFilter } from './feeds';
import type { FieldOpsContext } from '../transport/transport';
import { projectIdByNumber } from '../lookups/projects';

/**
 * The "Filters" collection of a reporting feed, each filter shown only for the feeds the spec lists it for.
 * `parameter` is the root parameter that picks the feed (the Report operation, or the trigger's feed).
 */
export function reportFiltersProperty(
	parameter: string,
	show: Record<string, string[]> = {},
): INodeProperties {
	// Inside a collection, a root parameter is named with a leading slash.
	const withFilter = (filter: ReportFilter) => ({
		show: { [`/${parameter}`]: feedValues((feed) => feed.filters.includes(filter)) },
	});
	return {
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		displayOptions: { show: { ...show, [parameter]: feedValues((feed) => feed.filters.length > 0) } },
		options: [
			{
				displayName: 'Approved',
				name: 'approved',
				type: 'boolean',
				default: true,
				displayOptions: withFilter('Approved'),
				description: 'Whether to return only approved (true) or only unapproved (false) absences',
			},
			{
				displayName: 'Approved for Payroll',
				name: 'approvedPayroll',
				type: 'boolean',
				default: true,
				displayOptions: withFilter('ApprovedPayroll'),
				description: 'Whether to return only absences approved for payroll (true) or not (false)',
			},
			{ ...companyFilter, displayOptions: withFilter('CompanyId') },
			{
				displayName: 'Exclude Subsidiaries',
				name: 'excludeDataFromSubsidiaries',
				type: 'boolean',
				default: false,
				displayOptions: withFilter('ExcludeDataFromSubsidiaries'),
				description: 'Whether to leave out data of subsidiary companies (for parent companies)',
			},
			{
				displayName: 'Include Sensitive Data',
				name: 'includeSensitiveData',
				type: 'boolean',
				default: false,
				displayOptions: withFilter('IncludeSensitiveData'),
				description:
					'Whether to include sick-leave reasons and child details. Only use this where you are allowed to process such data.',
			},
			{
				displayName: 'Locked',
				name: 'locked',
				type: 'boolean',
				default: true,
				displayOptions: withFilter('Locked'),
				description: 'Whether to return only locked (true) or only unlocked (false) absences',
			},
			{
				displayName: 'Own Company Data Only',
				name: 'ownCompanyDataOnly',
				type: 'boolean',
				default: false,
				displayOptions: withFilter('OwnCompanyDataOnly'),
				description: 'Whether to return only records owned by your own company',
			},
			{
				...projectLocator().property,
				displayOptions: withFilter('ProjectId'),
				required: false,
				description: 'Only records of this project',
			},
			{
				displayName: 'Require Coordinates',
				name: 'requireGeoCoordinate',
				type: 'boolean',
				default: false,
				displayOptions: withFilter('RequireGeoCoordinate'),
				description:
					'Whether to leave out images without coordinates (neither on the image nor on its parent record)',
			},
			{
				displayName: 'Sources',
				name: 'sources',
				type: 'multiOptions',
				default: [],
				displayOptions: withFilter('Sources'),
				options: [
					{ name: 'Alerts', value: 'alert' },
					{ name: 'Checklists', value: 'checklist' },
					{ name: 'Feed', value: 'feed' },
				],
				description: 'Where the images were taken. None selected means all three.',
			},
		],
	};
}

/** API name of each simple filter and its field in the Filters collection. */
const SIMPLE_FILTERS: Array<[ReportFilter, string]> = [
	['CompanyId', 'companyId'],
	['Approved', 'approved'],
	['ApprovedPayroll', 'approvedPayroll'],
	['Locked', 'locked'],
	['IncludeSensitiveData', 'includeSensitiveData'],
	['RequireGeoCoordinate', 'requireGeoCoordinate'],
	['OwnCompanyDataOnly', 'ownCompanyDataOnly'],
	['ExcludeDataFromSubsidiaries', 'excludeDataFromSubsidiaries'],
];

/**
 * The query parameters of the Filters collection, for the filters the feed accepts. A project given by number
 * is looked up first, as in every other project field.
 */
export async function reportFilterQuery(
	context: FieldOpsContext,
	feed: ReportFeed,
	filters: IDataObject,
	itemIndex?: number,
): Promise<IDataObject> {
	const query: IDataObject = {};
	const project = locatorValue(filters.project ?? '');
	if (feed.filters.includes('ProjectId') && project.value) {
		query.ProjectId =
			project.mode === 'projectNumber'
				? await projectIdByNumber(context, project.value, itemIndex)
				: project.value;
	}
	for (const [apiName, field] of SIMPLE_FILTERS) {
		// A list field (Company) gives its chosen value; a saved plain ID stays that ID.
		const raw = filters[field];
		const value = raw !== null && typeof raw === 'object' ? locatorValue(raw).value : raw;
		if (feed.filters.includes(apiName) && value !== undefined && value !== '') query[apiName] = value;
	}
	const sources = filters.sources as string[] | undefined;
	// The spec does not show how a `string[]` is encoded: repeated keys, never a comma-joined text.
	if (feed.filters.includes('Sources') && sources?.length) query.Sources = [...sources];
	return query;
}
