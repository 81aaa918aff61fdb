/**
 * The reporting API's feeds, as the spec lists them: path, the filters each accepts, whether it has a date window
 * (full mode) and tombstones (incremental mode), and which files its records link to. The Report resource and the
 * Field Ops Trigger are both built from this table.
 */
export type ReportFilter =
	| 'ProjectId'
	| 'CompanyId'
	| 'Approved'
	| 'ApprovedPayroll'
	| 'Locked'
	| 'IncludeSensitiveData'
	| 'Sources'
	| 'RequireGeoCoordinate'
	| 'OwnCompanyDataOnly'
	| 'ExcludeDataFromSubsidiaries';

export interface ReportFeed {
	value: string;
	name: string;
	path: string;
	/** What one record is, for descriptions ("time registration"). */
	record: string;
	/** The action's words where a clerk searches for others than the feed's name (the node creator matches them). */
	action?: string;
	filters: ReportFilter[];
	/**
	 * The spec lists FromDateTime/ToDateTime for it. Metadata lists have none; checklists and incidents take
	 * "standard filters incl. ProjectId, ModifiedSince, ContinuationToken", which names no date window.
	 */
	dateWindow: boolean;
	/**
	 * The spec says incremental mode reports deleted records with `isDeleted: true`. Other feeds may too (not
	 * shown): `isDeleted === true` is read on every record that carries it.
	 */
	tombstones: boolean;
	/** Where the spec does not show the record's id field: the names tried after `id`, in order. */
	idFields?: string[];
	/** Files the records link to: image variants, or a generated PDF (`pdfUrl`). */
	files?: 'image' | 'pdf';
}

const STANDARD: ReportFilter[] = ['ProjectId', 'CompanyId'];
/** Checklists and incidents: of the filters here, the spec names only ProjectId for them. */
const CHECKLIST_FILTERS: ReportFilter[] = ['ProjectId'];

export const REPORT_FEEDS: ReportFeed[] = [
	{
		value: 'absenceRegistrations',
		name: 'Absence Registrations',
		path: '/v1/absence-registrations',
		record: 'absence registration',
		filters: ['ProjectId', 'CompanyId', 'Approved', 'ApprovedPayroll', 'Locked', 'IncludeSensitiveData'],
		dateWindow: true,
		tombstones: true,
		files: 'pdf',
	},
	{
		value: 'checklistRegistrations',
		name: 'Checklist Registrations',
		path: '/v1/checklist-registrations',
		record: 'checklist registration',
		filters: CHECKLIST_FILTERS,
		dateWindow: false,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'images',
		name: 'Images',
		path: '/v1/images',
		record: 'image',
		filters: [
			'ProjectId',
			'CompanyId',
			'Sources',
			'RequireGeoCoordinate',
			'OwnCompanyDataOnly',
			'ExcludeDataFromSubsidiaries',
		],
		dateWindow: true,
		tombstones: false,
		files: 'image',
	},
	{
		value: 'incidentRegistrations',
		name: 'Incident Registrations',
		path: '/v1/incident-registrations',
		record: 'incident registration',
		filters: CHECKLIST_FILTERS,
		dateWindow: false,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'machineChecklistRegistrations',
		name: 'Machine Checklist Registrations',
		path: '/v1/machine-checklist-registrations',
		record: 'machine checklist registration',
		filters: CHECKLIST_FILTERS,
		dateWindow: false,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'machineIncidentRegistrations',
		name: 'Machine Incident Registrations',
		path: '/v1/machine-incident-registrations',
		record: 'machine incident registration',
		filters: CHECKLIST_FILTERS,
		dateWindow: false,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'machineRegistrations',
		name: 'Machine Registrations',
		path: '/v1/machine-registrations',
		record: 'machine registration',
		filters: [],
		dateWindow: true,
		tombstones: true,
	},
	{
		value: 'payrollLines',
		name: 'Payroll Lines',
		path: '/v1/payroll-lines',
		record: 'payroll line',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		idFields: ['payrollLineId'],
	},
	{
		value: 'payrollLinesExtended',
		name: 'Payroll Lines (Extended)',
		path: '/v1/payroll-lines-extended',
		record: 'payroll line with full metadata',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		idFields: ['payrollLineId'],
	},
	{
		value: 'projects',
		name: 'Projects',
		path: '/v1/project',
		record: 'project',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		dateWindow: false,
		tombstones: false,
		idFields: ['projectId'],
	},
	{
		value: 'resources',
		name: 'Resources',
		path: '/v1/resource',
		record: 'resource',
		filters: STANDARD,
		dateWindow: false,
		tombstones: false,
		idFields: ['resourceId'],
	},
	{
		value: 'timeRegistrations',
		name: 'Time Registrations',
		path: '/v1/time-registrations',
		record: 'time registration',
		action: 'Export hours and timesheets (time registrations)',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		idFields: ['timeRegistrationId'],
	},
	{
		value: 'users',
		name: 'Users',
		path: '/v1/user',
		record: 'user',
		filters: ['CompanyId'],
		dateWindow: false,
		tombstones: false,
		idFields: ['userId'],
	},
	{
		value: 'workBreakdownStructure',
		name: 'Work Breakdown Structure',
		path: '/v1/project/work-breakdown-structure',
		record: 'work breakdown structure element',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		dateWindow: false,
		tombstones: false,
		idFields: ['activityId'],
	},
];

export const MAX_CHUNK_LIMIT = 10_000;

/**
 * The record's own id: image rows are one per (image, parent record); a record of a shape the spec does not show
 * has `id` or the feed's own named id (`timeRegistrationId`; a WBS element is an `activityId`, as images call it).
 * Undefined when there is none: the caller decides what identifies the record then.
 */
export function recordKey(feed: ReportFeed, record: Record<string, unknown>): string | undefined {
	if (feed.value === 'images')
		return `${String(record.id)}|${String(record.collectionRef)}|${String(record.idRef)}`;
	for (const field of ['id', ...(feed.idFields ?? [])]) {
		const value = record[field];
		// A plain `id` is its own key, as stored trigger states know it.
		if ((typeof value === 'string' && value !== '') || typeof value === 'number')
			return field === 'id' ? String(value) : `${field}:${String(value)}`;
	}
	return undefined;
}
