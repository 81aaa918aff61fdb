/**
 * Simplify's columns per export: the readable name, the record field it shows, and whether that field is an
 * instant (shown in the workflow's time zone) or a day. Field names come from the spec where it shows the
 * record (images, machine registrations, absences, `pdfUrl` of checklists and incidents) and from the records
 * the service returns where it does not. `drop` names the IDs and technical fields a person does not read; the
 * raw record keeps them (Simplify off).
 */
export interface Column {
	label: string;
	from: string;
	kind?: 'time' | 'date';
	/** A field of an object-valued field (`roadReference.referenceText`). */
	pick?: string;
}

export interface ColumnTable {
	columns: Column[];
	drop: string[];
}

/**
 * Tombstone fields, shown on any export whose records carry them (the spec names them for machine and absence
 * registrations, whose tables list them; a service that reports deletions elsewhere uses the same names).
 */
export const WHEN_PRESENT: Column[] = [
	{ label: 'Deleted', from: 'isDeleted' },
	{ label: 'Deleted At', from: 'deletedDateTime', kind: 'time' },
];

const col = (label: string, from: string, kind?: Column['kind']): Column => ({ label, from, kind });

const PROJECT_NUMBER = col('Project Number', 'projectNumber');
const PROJECT = col('Project', 'projectName');
const WORK_ORDER = col('Work Order', 'taskName');
const DAY = col('Date', 'date', 'date');
const START = col('Start', 'startDateTime', 'time');
const END = col('End', 'stopDateTime', 'time');
const APPROVED = col('Approved', 'approved');
const CREATED = col('Created', 'createdDateTime', 'time');
const CHANGED = col('Last Changed', 'modifiedDateTime', 'time');
const DELETED = WHEN_PRESENT;
const PDF = col('PDF', 'pdfUrl');
const MACHINE = col('Machine', 'machineName');
const EMPLOYEE = col('Employee', 'employeeName');
const EMPLOYEE_NUMBER = col('Employee Number', 'employeeNumber');
const ACTIVE = col('Active', 'active');
const EXTERNAL_DIMENSION = col('External Dimension 1', 'externalDim01');
const IDS = ['id', 'companyId', 'projectId'];

const payroll = (extended: boolean): ColumnTable => ({
	columns: [
		...(extended ? [EMPLOYEE] : []),
		EMPLOYEE_NUMBER,
		...(extended ? [col('Department', 'department')] : []),
		PROJECT_NUMBER,
		...(extended ? [PROJECT, col('External Project Number', 'externalProjectNumber'), WORK_ORDER] : []),
		DAY,
		col('Wage Code', 'wageCode'),
		...(extended ? [col('Wage Type', 'wageCodeName')] : []),
		col('Quantity', 'quantity'),
		col('Unit', 'unit'),
		col('Approved for Payroll', 'approvedPayroll'),
		...(extended ? [EXTERNAL_DIMENSION] : []),
		CHANGED,
	],
	drop: [...IDS, 'userId', 'taskId', 'createdDateTime'],
});

const checklist = (machine: boolean): ColumnTable => ({
	columns: [
		col('Checklist', 'templateName'),
		...(machine ? [MACHINE] : []),
		PROJECT_NUMBER,
		col('Created By', 'createdByUserName'),
		col('Status', 'status'),
		CREATED,
		CHANGED,
		PDF,
	],
	// The sections are in the PDF; the raw record has them.
	drop: [...IDS, 'machineId', 'createdByUserId', 'sections'],
});

const incident = (machine: boolean): ColumnTable => ({
	columns: [
		col('Title', 'title'),
		...(machine ? [MACHINE] : []),
		col('Description', 'description'),
		col('Severity', 'severity'),
		PROJECT_NUMBER,
		col('Reported By', 'reportedByUserName'),
		col('Status', 'status'),
		CREATED,
		CHANGED,
		PDF,
	],
	drop: [...IDS, 'machineId', 'reportedByUserId'],
});

export const SIMPLE_COLUMNS: Record<string, ColumnTable> = {
	timeRegistrations: {
		columns: [
			EMPLOYEE,
			EMPLOYEE_NUMBER,
			PROJECT_NUMBER,
			PROJECT,
			WORK_ORDER,
			DAY,
			START,
			END,
			col('Hours', 'hours'),
			APPROVED,
			col('Comment', 'comment'),
			CHANGED,
		],
		drop: [...IDS, 'taskId', 'userId', 'createdDateTime'],
	},
	payrollLines: payroll(false),
	payrollLinesExtended: payroll(true),
	absenceRegistrations: {
		columns: [
			EMPLOYEE_NUMBER,
			DAY,
			col('Hours', 'qty'),
			col('Absence Type', 'absenceTypeName'),
			col('Absence Code', 'absenceTypeCode'),
			APPROVED,
			col('Approved for Payroll', 'approvedPayroll'),
			col('Locked', 'locked'),
			PDF,
			...DELETED,
			CHANGED,
		],
		drop: [...IDS, 'absenceTypeId', 'userId', 'createdDateTime'],
	},
	machineRegistrations: {
		columns: [
			MACHINE,
			col('Machine Number', 'resourceNumber'),
			col('Machine Type', 'machineTypeName'),
			PROJECT_NUMBER,
			PROJECT,
			col('External Project Number', 'projectExternalNumber'),
			col('Project Company', 'projectCompanyName'),
			col('Driver', 'driverName'),
			col('Driver Company', 'driverCompanyName'),
			START,
			END,
			col('Quantity', 'qty'),
			APPROVED,
			col('Created By', 'createdByName'),
			col('Changed By', 'modifiedByName'),
			...DELETED,
			CHANGED,
		],
		drop: [...IDS, 'machineId', 'driverId', 'createdById', 'modifiedById', 'createdDateTime'],
	},
	checklistRegistrations: checklist(false),
	machineChecklistRegistrations: checklist(true),
	incidentRegistrations: incident(false),
	machineIncidentRegistrations: incident(true),
	images: {
		columns: [
			col('File Name', 'fileNameOriginal'),
			PROJECT_NUMBER,
			PROJECT,
			WORK_ORDER,
			col('Activity Number', 'activityNumber'),
			col('Source', 'source'),
			col('Description', 'originDescription'),
			col('Created By', 'createdByUserName'),
			CREATED,
			col('Latitude', 'latitude'),
			col('Longitude', 'longitude'),
			{ label: 'Road Reference', from: 'roadReference', pick: 'referenceText' },
			col('Link', 'downloadUrl'),
			col('Last Changed', 'parentModifiedDateTime', 'time'),
		],
		drop: [
			...IDS,
			...['fileName', 'fileType', 'fileSize', 'thumbnailUrl', 'mediumUrl', 'largeUrl', 'accuracy'],
			...['collectionRef', 'idRef', 'projectCompanyId', 'taskId', 'activityId', 'createdByUserId'],
			'userSecurityLevel',
		],
	},
	projects: {
		columns: [
			PROJECT_NUMBER,
			col('Project', 'name'),
			col('External Project Number', 'externalProjectNumber'),
			ACTIVE,
			col('Start Date', 'startDate', 'date'),
			col('Finished Date', 'finishedDate', 'date'),
			CHANGED,
		],
		drop: IDS,
	},
	workBreakdownStructure: {
		columns: [
			col('Name', 'name'),
			col('External ID', 'externalId'),
			col('Has Sub-Items', 'isParent'),
			ACTIVE,
			EXTERNAL_DIMENSION,
			CHANGED,
		],
		drop: [...IDS, 'parentActivityId'],
	},
	resources: {
		columns: [
			col('Number', 'resourceNumber'),
			col('Name', 'name'),
			col('Type', 'resourceType'),
			ACTIVE,
			CHANGED,
		],
		drop: [...IDS, 'typeId'],
	},
	users: {
		columns: [
			col('First Name', 'firstName'),
			col('Last Name', 'lastName'),
			EMPLOYEE_NUMBER,
			col('Disabled', 'isDisabled'),
			CHANGED,
		],
		drop: [...IDS, 'companyProfileId'],
	},
};
