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
	filters: ReportFilter[];
	/** Full mode takes FromDateTime/ToDateTime; metadata lists have no date window. */
	dateWindow: boolean;
	/** Incremental mode reports deleted records with `isDeleted: true`. */
	tombstones: boolean;
	/** Files the records link to: image variants, or a generated PDF (`pdfUrl`). */
	files?: 'image' | 'pdf';
}

const STANDARD: ReportFilter[] = ['ProjectId', 'CompanyId'];

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
		filters: STANDARD,
		dateWindow: true,
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
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'machineChecklistRegistrations',
		name: 'Machine Checklist Registrations',
		path: '/v1/machine-checklist-registrations',
		record: 'machine checklist registration',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		files: 'pdf',
	},
	{
		value: 'machineIncidentRegistrations',
		name: 'Machine Incident Registrations',
		path: '/v1/machine-incident-registrations',
		record: 'machine incident registration',
		filters: STANDARD,
		dateWindow: true,
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
	},
	{
		value: 'payrollLinesExtended',
		name: 'Payroll Lines (Extended)',
		path: '/v1/payroll-lines-extended',
		record: 'payroll line with full metadata',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
	},
	{
		value: 'projects',
		name: 'Projects',
		path: '/v1/project',
		record: 'project',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		dateWindow: false,
		tombstones: false,
	},
	{
		value: 'resources',
		name: 'Resources',
		path: '/v1/resource',
		record: 'resource',
		filters: STANDARD,
		dateWindow: false,
		tombstones: false,
	},
	{
		value: 'timeRegistrations',
		name: 'Time Registrations',
		path: '/v1/time-registrations',
		record: 'time registration',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
	},
	{
		value: 'users',
		name: 'Users',
		path: '/v1/user',
		record: 'user',
		filters: ['CompanyId'],
		dateWindow: false,
		tombstones: false,
	},
	{
		value: 'workBreakdownStructure',
		name: 'Work Breakdown Structure',
		path: '/v1/project/work-breakdown-structure',
		record: 'work breakdown structure element',
		filters: ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'],
		dateWindow: false,
		tombstones: false,
	},
];

export const MAX_CHUNK_LIMIT = 10_000;

/** Row identity: image rows are one per (image, parent record); every other record has its own id. */
export function recordKey(feed: ReportFeed, record: Record<string, unknown>): string {
	return feed.value === 'images'
		? `${String(record.id)}|${String(record.collectionRef)}|${String(record.idRef)}`
		: String(record.id);
}
