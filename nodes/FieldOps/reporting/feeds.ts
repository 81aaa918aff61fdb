/**
 * The reporting API's feeds, one entry each, and everything the nodes know of a feed: its path, the filters the
 * spec lists for it, its date window (full mode) and tombstones (incremental mode), the files its records link to,
 * Simplify's columns, the trigger's cursor facts (modification field and order, ModifiedBefore, rows per parent,
 * the road-reference wait), how a record is identified, and its words. The Report resource offers one export per
 * entry and the Field Ops Trigger one event per entry: adding a feed is one entry here (and one kind of the
 * sandbox).
 */
import { GUESSED as G, IDS, PDF, shown, WHEN_PRESENT, type Column } from './columns';

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
	/** The action's record in title case where it is not the record's words ("Payroll Line (Extended)"). */
	title?: string;
	/** Simplify's columns, in order, and the IDs and technical fields it leaves out (columns.ts). */
	columns: Column[];
	drop: string[];
	/**
	 * Records carry the day they belong to (the site's work day, the Date column): a period keeps the records of
	 * its days, whatever zone the report is in (docs/assumptions.md N8).
	 */
	workDay?: boolean;
	/**
	 * Full mode (a period) is ordered by one date across the whole read and windowed on it by FromDateTime and
	 * ToDateTime: the spec says so of absences (their date) and machine registrations (their stop time); time
	 * registrations and payroll lines are taken to be the same, by their work day (docs/assumptions.md R19).
	 * Such a period may be read in parallel time slices; this column (the date, or near it) sizes them.
	 */
	fullModeDate?: Column;
	/**
	 * The trigger's cursor: the field carrying the modification time, where the spec SHOWS it, and whether
	 * incremental pages come in that order across the whole read. Without it the trigger uses its poll clock.
	 */
	cursor?: { modified: string; ordered: boolean };
	/**
	 * The spec lists no ModifiedBefore for it ("standard filters incl. ProjectId, ModifiedSince, ContinuationToken"):
	 * the trigger asks once whether the service honours it before it reads a backlog in windows (R3).
	 */
	modifiedBeforeUnlisted?: true;
	/**
	 * Rows per parent record: the fields naming the parent (image rows, one per image and the record it belongs
	 * to). ChunkLimit counts parents, so the trigger sizes its pages by rows per parent; a row is its id with its
	 * parent's.
	 */
	parent?: readonly string[];
	/**
	 * Whether a record still waits for the road reference Field Ops fills in seconds after upload (images with
	 * coordinates): the trigger offers to hold such records back (Wait for Road Reference).
	 */
	awaitsRoadReference?: (record: Record<string, unknown>) => boolean;
}

/** The API's largest page (ChunkLimit 1–10000) on every feed: the Report's Page Size and the trigger's reads. */
export const MAX_CHUNK_LIMIT = 10_000;

/**
 * The field carrying a record's creation time, which tells new from changed: the spec shows it on machine
 * registrations and images; on the other feeds it is read wherever a record carries it (else: first seen).
 */
export const CREATED_FIELD = 'createdDateTime';

const STANDARD: ReportFilter[] = ['ProjectId', 'CompanyId'];
/** Checklists and incidents: of the filters here, the spec names only ProjectId for them. */
const CHECKLIST_FILTERS: ReportFilter[] = ['ProjectId'];
const LISTS: ReportFilter[] = ['ProjectId', 'CompanyId', 'OwnCompanyDataOnly', 'ExcludeDataFromSubsidiaries'];

/** Checklists and incidents: a PDF, no date window; the spec lists no ModifiedBefore for them (R3). */
const registration = (value: string, name: string, record: string, path: string) => ({
	value,
	name,
	record,
	path,
	filters: CHECKLIST_FILTERS,
	dateWindow: false,
	tombstones: false,
	files: 'pdf' as const,
	modifiedBeforeUnlisted: true as const,
});

const payroll = (extended: boolean): Pick<ReportFeed, 'columns' | 'drop'> => ({
	columns: [
		...(extended ? [G.employee] : []),
		G.employeeNumber,
		...(extended ? [G.department] : []),
		G.projectNumber,
		...(extended ? [G.project, G.externalProjectNumber, G.workOrder] : []),
		G.date,
		G.wageCode,
		...(extended ? [G.wageType] : []),
		G.quantity,
		G.unit,
		G.approvedPayroll,
		...(extended ? [G.dimension] : []),
		G.changed,
	],
	drop: [...IDS, 'userId', 'taskId', 'createdDateTime', 'payrollLineId'],
});

const checklist = (machine: boolean): Pick<ReportFeed, 'columns' | 'drop'> => ({
	columns: [
		G.checklist,
		...(machine ? [G.machine] : []),
		G.projectNumber,
		G.createdBy,
		G.status,
		G.created,
		G.changed,
		PDF,
	],
	// The sections are in the PDF; the raw record has them.
	drop: [...IDS, 'machineId', 'createdByUserId', 'sections'],
});

const incident = (machine: boolean): Pick<ReportFeed, 'columns' | 'drop'> => ({
	columns: [
		G.title,
		...(machine ? [G.machine] : []),
		G.description,
		G.severity,
		G.projectNumber,
		G.reportedBy,
		G.status,
		G.created,
		G.changed,
		PDF,
	],
	drop: [...IDS, 'machineId', 'reportedByUserId', 'createdByUserId'],
});

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
		workDay: true,
		fullModeDate: shown('Date', 'date', 'date'),
		columns: [
			shown('Employee Number', 'employeeNumber'),
			shown('Date', 'date', 'date'),
			shown('Hours', 'qty', 'number'),
			shown('Absence Type', 'absenceTypeName'),
			shown('Absence Code', 'absenceTypeCode'),
			G.approved,
			G.approvedPayroll,
			G.locked,
			PDF,
			...WHEN_PRESENT,
			G.changed,
		],
		drop: [...IDS, 'absenceTypeId', 'userId', 'createdDateTime'],
	},
	{
		...registration(
			'checklistRegistrations',
			'Checklist Registrations',
			'checklist registration',
			'/v1/checklist-registrations',
		),
		...checklist(false),
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
		// Incremental image rows come in order only within each source: the trigger reads them in time windows.
		cursor: { modified: 'parentModifiedDateTime', ordered: false },
		parent: ['collectionRef', 'idRef'],
		awaitsRoadReference: (record) =>
			typeof record.latitude === 'number' &&
			typeof record.longitude === 'number' &&
			(record.roadReference === null || record.roadReference === undefined),
		columns: [
			shown('File Name', 'fileNameOriginal'),
			shown('Project Number', 'projectNumber'),
			shown('Project', 'projectName'),
			shown('Work Order', 'taskName'),
			shown('Activity Number', 'activityNumber'),
			shown('Source', 'source'),
			shown('Description', 'originDescription'),
			shown('Created By', 'createdByUserName'),
			shown('Created', 'createdDateTime', 'time'),
			shown('Latitude', 'latitude', 'number'),
			shown('Longitude', 'longitude', 'number'),
			{ label: 'Road Reference', from: ['roadReference'], pick: 'referenceText' },
			shown('Link', 'downloadUrl'),
			shown('Last Changed', 'parentModifiedDateTime', 'time'),
		],
		drop: [
			...IDS,
			...['fileName', 'fileType', 'fileSize', 'thumbnailUrl', 'mediumUrl', 'largeUrl', 'accuracy'],
			...['collectionRef', 'idRef', 'projectCompanyId', 'taskId', 'activityId', 'createdByUserId'],
			'userSecurityLevel',
		],
	},
	{
		...registration(
			'incidentRegistrations',
			'Incident Registrations',
			'incident registration',
			'/v1/incident-registrations',
		),
		...incident(false),
	},
	{
		...registration(
			'machineChecklistRegistrations',
			'Machine Checklist Registrations',
			'machine checklist registration',
			'/v1/machine-checklist-registrations',
		),
		...checklist(true),
	},
	{
		...registration(
			'machineIncidentRegistrations',
			'Machine Incident Registrations',
			'machine incident registration',
			'/v1/machine-incident-registrations',
		),
		...incident(true),
	},
	{
		value: 'machineRegistrations',
		name: 'Machine Registrations',
		path: '/v1/machine-registrations',
		record: 'machine registration',
		filters: [],
		dateWindow: true,
		tombstones: true,
		fullModeDate: shown('End', 'stopDateTime', 'time'),
		cursor: { modified: 'modifiedDateTime', ordered: true },
		columns: [
			shown('Machine', 'machineName'),
			shown('Machine Number', 'resourceNumber'),
			shown('Machine Type', 'machineTypeName'),
			shown('Project Number', 'projectNumber'),
			shown('Project', 'projectName'),
			shown('External Project Number', 'projectExternalNumber'),
			shown('Project Company', 'projectCompanyName'),
			shown('Driver', 'driverName'),
			shown('Driver Company', 'driverCompanyName'),
			shown('Start', 'startDateTime', 'time'),
			shown('End', 'stopDateTime', 'time'),
			shown('Quantity', 'qty', 'number'),
			shown('Approved', 'approved'),
			shown('Created By', 'createdByName'),
			shown('Changed By', 'modifiedByName'),
			...WHEN_PRESENT,
			shown('Last Changed', 'modifiedDateTime', 'time'),
		],
		drop: [...IDS, 'machineId', 'driverId', 'createdById', 'modifiedById', 'createdDateTime'],
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
		workDay: true,
		fullModeDate: G.date,
		...payroll(false),
	},
	{
		value: 'payrollLinesExtended',
		name: 'Payroll Lines (Extended)',
		path: '/v1/payroll-lines-extended',
		record: 'payroll line with full metadata',
		title: 'Payroll Line (Extended)',
		filters: STANDARD,
		dateWindow: true,
		tombstones: false,
		idFields: ['payrollLineId'],
		workDay: true,
		fullModeDate: G.date,
		...payroll(true),
	},
	{
		value: 'projects',
		name: 'Projects',
		path: '/v1/project',
		record: 'project',
		filters: LISTS,
		dateWindow: false,
		tombstones: false,
		idFields: ['projectId'],
		columns: [
			G.projectNumber,
			G.projectName,
			G.externalProjectNumber,
			G.active,
			G.startDate,
			G.finishedDate,
			G.changed,
		],
		drop: IDS,
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
		columns: [G.resourceNumber, G.name, G.resourceType, G.active, G.changed],
		drop: [...IDS, 'typeId', 'resourceId'],
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
		workDay: true,
		fullModeDate: G.date,
		columns: [
			G.employee,
			G.employeeNumber,
			G.projectNumber,
			G.project,
			G.workOrder,
			G.date,
			G.start,
			G.end,
			G.hours,
			G.approved,
			G.comment,
			G.changed,
		],
		drop: [...IDS, 'taskId', 'userId', 'createdDateTime', 'timeRegistrationId'],
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
		columns: [G.firstName, G.lastName, G.employeeNumber, G.disabled, G.changed],
		drop: [...IDS, 'companyProfileId', 'userId'],
	},
	{
		value: 'workBreakdownStructure',
		name: 'Work Breakdown Structure',
		path: '/v1/project/work-breakdown-structure',
		record: 'work breakdown structure element',
		filters: LISTS,
		dateWindow: false,
		tombstones: false,
		idFields: ['activityId'],
		columns: [G.name, G.externalId, G.hasChildren, G.active, G.dimension, G.changed],
		drop: [...IDS, 'parentActivityId', 'activityId'],
	},
];

/** The values of the feeds a test holds for (a display rule lists them). */
export const feedValues = (test: (feed: ReportFeed) => boolean): string[] =>
	REPORT_FEEDS.filter(test).map((feed) => feed.value);

/** The fields naming a row's parent record, as one text (feeds with rows per parent). */
export const parentKey = (feed: ReportFeed, record: Record<string, unknown>): string =>
	(feed.parent ?? []).map((field) => String(record[field])).join('|');

/**
 * The record's own id: a row of a feed with rows per parent is its id with its parent's; a record of a shape the
 * spec does not show has `id` or the feed's own named id (`timeRegistrationId`; a WBS element is an `activityId`,
 * as images call it). Undefined when there is none: the caller decides what identifies the record then.
 */
export function recordKey(feed: ReportFeed, record: Record<string, unknown>): string | undefined {
	if (feed.parent) return `${String(record.id)}|${parentKey(feed, record)}`;
	for (const field of ['id', ...(feed.idFields ?? [])]) {
		const value = record[field];
		// A plain `id` is its own key, as stored trigger states know it.
		if ((typeof value === 'string' && value !== '') || typeof value === 'number')
			return field === 'id' ? String(value) : `${field}:${String(value)}`;
	}
	return undefined;
}
