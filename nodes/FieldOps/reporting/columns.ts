/**
 * Simplify's readable columns. Where the spec shows a record's fields (images, machine registrations, absences,
 * `pdfUrl`), a column reads the field it names. Where it does not (time registrations, payroll lines,
 * checklists, incidents, the `/v1` lists), a column reads the first of the names the service plausibly uses that
 * the record carries with a value: the one table below (docs/assumptions.md, rows F1–F42). A name the column did
 * not use stays in the record under its own name.
 */
export interface Column {
	label: string;
	/** The record fields it is read from, first with a value wins. */
	from: readonly string[];
	/** An instant (shown in the report's time zone), a day, or a number a spreadsheet can sum. */
	kind?: 'time' | 'date' | 'number';
	/** A field of an object-valued field (`roadReference.referenceText`). */
	pick?: string;
}

const guess = (label: string, from: string[], kind?: Column['kind']): Column => ({ label, from, kind });

/** Per readable column of the exports whose fields the spec does not show: the names it is read from. */
export const GUESSED = {
	employee: guess('Employee', ['employeeName', 'userName', 'fullName', 'personName']),
	employeeNumber: guess('Employee Number', ['employeeNumber', 'payrollNumber', 'employeeNo']),
	projectNumber: guess('Project Number', ['projectNumber', 'projectNo']),
	project: guess('Project', ['projectName', 'projectDescription']),
	externalProjectNumber: guess('External Project Number', ['externalProjectNumber', 'projectExternalNumber']),
	workOrder: guess('Work Order', ['taskName', 'workOrderName', 'taskDescription', 'activityName']),
	date: guess('Date', ['date', 'workDate', 'registrationDate', 'transactionDate', 'day'], 'date'),
	start: guess('Start', ['startDateTime', 'startTime', 'fromDateTime', 'start'], 'time'),
	end: guess('End', ['stopDateTime', 'endDateTime', 'endTime', 'stopTime', 'toDateTime', 'end'], 'time'),
	hours: guess('Hours', ['hours', 'qty', 'quantity', 'numberOfHours', 'duration'], 'number'),
	approved: guess('Approved', ['approved', 'isApproved']),
	comment: guess('Comment', ['comment', 'note', 'notes', 'remark', 'description']),
	created: guess('Created', ['createdDateTime', 'createdAt', 'createdTime', 'created'], 'time'),
	changed: guess(
		'Last Changed',
		['modifiedDateTime', 'lastModifiedDateTime', 'modifiedAt', 'updatedAt', 'changedDateTime'],
		'time',
	),
	department: guess('Department', ['department', 'departmentName']),
	wageCode: guess('Wage Code', ['wageCode', 'wageTypeCode', 'payrollCode', 'salaryCode', 'payCode']),
	wageType: guess('Wage Type', ['wageCodeName', 'wageTypeName', 'wageType', 'payrollCodeName']),
	quantity: guess('Quantity', ['quantity', 'qty', 'amount', 'units'], 'number'),
	unit: guess('Unit', ['unit', 'unitName', 'unitOfMeasure', 'uom']),
	approvedPayroll: guess('Approved for Payroll', [
		'approvedPayroll',
		'approvedForPayroll',
		'isApprovedForPayroll',
		'payrollApproved',
	]),
	locked: guess('Locked', ['locked', 'isLocked']),
	dimension: guess('External Dimension 1', ['externalDim01', 'externalDimension1', 'dimension1']),
	checklist: guess('Checklist', ['templateName', 'checklistName', 'checklistTemplateName', 'name', 'title']),
	machine: guess('Machine', ['machineName', 'resourceName']),
	createdBy: guess('Created By', ['createdByUserName', 'createdByName', 'createdBy', 'userName']),
	status: guess('Status', ['status', 'state']),
	title: guess('Title', ['title', 'name', 'subject', 'incidentTitle']),
	description: guess('Description', ['description', 'text', 'details']),
	severity: guess('Severity', ['severity', 'priority', 'level']),
	reportedBy: guess('Reported By', [
		'reportedByUserName',
		'reportedByName',
		'reportedBy',
		'createdByUserName',
		'createdByName',
	]),
	name: guess('Name', ['name', 'activityName', 'resourceName', 'description']),
	projectName: guess('Project', ['name', 'projectName']),
	active: guess('Active', ['active', 'isActive']),
	startDate: guess('Start Date', ['startDate', 'startDateTime'], 'date'),
	finishedDate: guess('Finished Date', ['finishedDate', 'finishDate', 'endDate'], 'date'),
	externalId: guess('External ID', ['externalId', 'externalReference']),
	hasChildren: guess('Has Sub-Items', ['isParent', 'hasChildren']),
	resourceNumber: guess('Number', ['resourceNumber', 'number', 'machineNumber']),
	resourceType: guess('Type', ['resourceType', 'type', 'typeName']),
	firstName: guess('First Name', ['firstName', 'givenName']),
	lastName: guess('Last Name', ['lastName', 'familyName', 'surname']),
	disabled: guess('Disabled', ['isDisabled', 'disabled']),
} satisfies Record<string, Column>;

/** A column whose field the spec names. */
export const shown = (label: string, field: string, kind?: Column['kind']): Column => ({
	label,
	from: [field],
	kind,
});

/**
 * Tombstone fields, shown on any export whose records carry them (the spec names them for machine and absence
 * registrations; a service that reports deletions elsewhere uses the same names).
 */
export const WHEN_PRESENT: Column[] = [
	shown('Deleted', 'isDeleted'),
	{ label: 'Deleted At', from: ['deletedDateTime', 'deletedAt'], kind: 'time' },
];

export const PDF = shown('PDF', 'pdfUrl');
/** IDs a person does not read; the raw records keep them (Simplify off). */
export const IDS = ['id', 'companyId', 'projectId'];
