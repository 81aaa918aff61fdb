/**
 * Every choice the sandbox makes where the spec says "not shown" or is ambiguous, in one table per variant.
 * `default` is the sandbox as it always was; `alt` flips every choice to another plausible answer, so the node
 * can be tested against a service that guessed differently. Each key is one row of docs/assumptions.md (its
 * ID in brackets); the code reads `variant.<key>` exactly where the choice is made.
 */
export type VariantName = 'default' | 'alt';

export const VARIANT_NAMES: readonly VariantName[] = ['default', 'alt'];

export interface Variant {
	name: VariantName;

	// Token server and bearer checks
	/** [A1] A requested scope the client lacks: refused (`invalid_scope`), or left out of the token it grants. */
	unpermittedScope: 'refused' | 'dropped';
	/** [A2] A token request without `scope`: all the client's scopes, or `invalid_scope`. */
	tokenWithoutScope: 'allScopes' | 'invalidScope';
	/** [A3] Client authentication with HTTP Basic besides the form fields. */
	tokenBasicAuth: 'accepted' | 'refused';
	/** [A4] A valid token without the API's scope: 403 insufficient_scope, or 401 invalid_token (audience). */
	missingScopeStatus: 403 | 401;
	/** [A5] Body of the 401/403 answers of the bearer check: the error JSON, or empty. */
	authErrorBody: 'json' | 'empty';

	// Errors and request bodies
	/** [E1] Error bodies outside employees v5: the v5 shape, RFC 7807 problem details, or plain text. */
	errorBody: {
		core: 'v5' | 'problem';
		reporting: 'v5' | 'problem';
		machineState: 'v5' | 'text';
	};
	/** [E2] A duplicate number (project, machine, work order externalId, v4 employee number). */
	duplicateStatus: 400 | 409;
	/** [E3] Unknown JSON fields in a request body. */
	unknownFields: 'refused' | 'ignored';
	/** [E4] Largest JSON body and largest document upload, in bytes (larger → 413). */
	bodyLimits: { json: number; upload: number };
	/** [E5] Query values outside the listed ones (`include`, `activeInactiveAll`, `MaxDimension`, `ChunkLimit`). */
	queryValues: 'refused' | 'lenient';

	// Core API, common
	/** [C1] Status of a successful create (projects, work orders, machines, v4 users, document upload). */
	createStatus: 200 | 201;
	/** [C2] Answer of PUT/PATCH on projects, work orders, machines (ESG too) and v4 users. */
	writeAnswer: 'record' | 'empty';
	/** [C3] Answer of DELETE on projects, work orders, machines and v4 users. */
	deleteAnswer: 'empty' | 'record';
	/** [C4] `createdDateTime`/`modifiedDateTime` on records whose shape the spec does not show with them. */
	unshownTimestamps: 'included' | 'omitted';
	/** [C5] Company scope of plain lists and number lookups. */
	listScope: 'ownCompany' | 'structure';

	// Projects
	/** [P1] How a project answer shows its customer link. */
	customerLink: 'flat' | 'nested';
	/** [P2] DELETE of a project that has work orders. */
	projectDeleteWithWorkOrders: 'cascade' | 'refused';
	/** [P3] `/api/projects/search`: which text matches `searchString`. */
	projectSearch: 'substring' | 'prefix';

	// Work orders
	/** [W1] The "task number" of `by-task-number`: the externalId, or a number the service assigns. */
	taskNumber: 'externalId' | 'generated';
	/** [W2] Template settings copied on create: the sandbox's names for rule 3, or only fields the spec names. */
	inheritedSettings: 'sandboxNames' | 'shownOnly';
	/** [W3] A work order whose `companyId` is not its project's company. */
	taskCompanyMismatch: 'refused' | 'projectWins';
	/** [W4] A parent work order not marked `isParent`. */
	parentMarking: 'required' | 'automatic';
	/** [W5] DELETE of a work order that has sub-orders. */
	deleteWithSubOrders: 'refused' | 'cascade';

	// Machines
	/** [M1] Answer of the bulk create/update: per-item results, or a bare array (ids on create, machines on update) of the saved ones. */
	bulkMachineResult: 'itemised' | 'bare';
	/** [M2] `PUT update/array` elements: partial (patch), or complete objects (fields left out reset). */
	bulkUpdate: 'patch' | 'replace';
	/** [M3] Name of the equipment → parent machine link field. */
	equipmentLinkField: 'parentMachineId' | 'parentId';
	/** [M4] Name of the linked-equipment list of `includeEquipmentDetails=true`. */
	equipmentListField: 'equipment' | 'linkedEquipment';
	/** [M5] Machine deletability: not with linked equipment, or always (DELETE unlinks the equipment). */
	machineDeletable: 'noLinkedEquipment' | 'always';
	/** [M6] ESG values on a machine PUT (which cannot send them). */
	esgOnReplace: 'kept' | 'reset';
	/** [M7] The name field of `GET /api/MachineType` entries. */
	machineTypeNameField: 'name' | 'typeName';

	// Lookups
	/** [L1] Field names of `/api/projects…` and `/api/resources…` answers. */
	lookupFields: 'sandbox' | 'renamed';

	// Documents and files
	/** [D1] `files[].url` of the upload result ("relative file path"). */
	documentFileUrl: 'fileEndpoint' | 'storagePath';
	/** [D2] `fileType` of documents and images: the extension, or the MIME type. */
	fileType: 'extension' | 'mime';
	/** [D3] `collectionRef` values (documents, image parents) and image `userSecurityLevel`. */
	enumValues: 'sandbox' | 'alt';
	/** [D4] A `file` part without a filename. */
	unnamedPart: 'named' | 'refused';
	/** [D5] Default section of a work-order upload: number first, or short description first. */
	taskSection: 'numberFirst' | 'descriptionFirst';
	/** [D6] Content-Disposition of downloads: ASCII `filename` plus `filename*`, or `filename*` only. */
	contentDisposition: 'both' | 'extendedOnly';

	// Users v4
	/** [U1] How v4 answers dates: `yyyy-MM-dd`, or `yyyy-MM-ddT00:00:00`. */
	v4DateAnswer: 'date' | 'dateTime';
	/** [U2] Fields of a v4 user answer: every field, or those the spec shows plus the required request fields. */
	v4UserAnswer: 'full' | 'shownOnly';
	/** [U3] `tags` in a v4 PATCH: replaces the list, or merges by key. */
	v4TagsPatch: 'replace' | 'mergeByKey';
	/** [U4] v4 PUT body ids that differ from the path's user. */
	v4PutIds: 'checked' | 'pathWins';
	/** [U5] v4 `changedSince`: inclusive, or exclusive. */
	changedSince: 'inclusive' | 'exclusive';
	/** [U6] When a user/employee is deletable: no active employment, or only once disabled. */
	deletableRule: 'noActiveEmployment' | 'disabledOnly';

	// Employees v5
	/** [V1] Employee answer fields beyond the request fields. */
	employeeAnswer: 'sandbox' | 'alt';
	/** [V2] Employee search hit beyond `hasActiveEmployment`. */
	employeeSearchHit: 'sandbox' | 'nameOnly';
	/** [V3] `GET /employees/{n}` of a subsidiary's employee: only with includeEmployeesFromSubsidiaries, or always. */
	employeeGetSubsidiaries: 'flagNeeded' | 'always';
	/** [V4] Status for another company's employee number. */
	otherCompanyEmployee: 404 | 403;
	/** [V5] `phone` on employee PUT: kept when not sent, or required. */
	employeePutPhone: 'kept' | 'required';
	/** [V6] Answer of the employment/number/phone/project-company actions whose result the spec leaves blank. */
	employeeActionAnswer: 'employee' | 'empty';
	/** [V7] Patchable fields of update-employment. */
	updateEmploymentFields: 'all' | 'noStartDate';
	/** [V8] `added`/`updated`/`removed` of the tags answer: lists of assignments, or counts. */
	tagAnswerParts: 'lists' | 'counts';
	/** [V9] v5 DELETE of an employee that is not deletable: done anyway, or refused (400). */
	v5DeleteChecked: 'no' | 'yes';

	// Certificates
	/** [K1] Answer of a valid certificate batch. */
	certificateAnswer: 'perEntry' | 'counts';
	/** [K2] A batch with bad entries: nothing saved, or the good entries saved (still 400). */
	certificateBatch: 'atomic' | 'partial';

	// Machine-state API
	/** [S1] Allowed `state` values. */
	stateValues: 'free' | 'enumerated';
	/** [S2] Body of the single-record 201. */
	stateCreateAnswer: 'record' | 'empty';
	/** [S3] Import with bad records: the good ones saved and the bad ones listed, or all refused. */
	importAnswer: 'perRecord' | 'allOrNothing';
	/** [S4] latest-timestamp answer: an object, or a bare timestamp. */
	latestTimestamp: 'object' | 'bare';
	/** [S5] aggregated-data-per-state request and answer shapes. */
	aggregatedShape: 'sandbox' | 'alt';
	/** [S6] A record whose endTime is before its startTime. */
	stateTimeOrder: 'checked' | 'unchecked';

	// Reporting API
	/** [R1] Name of the identity field of records whose shape the spec does not show. */
	unshownRecordId: 'id' | 'named';
	/** [R2] Query parameters an endpoint does not list (and the checklist/incident "standard filters"). */
	unknownFilters: 'ignored' | 'refused';
	/** [R3] Where `ModifiedBefore` needs a later `ModifiedSince`. */
	modifiedBeforeCheck: 'everyEndpoint' | 'imagesOnly';
	/** [R4] `ToDateTime`: inclusive, or exclusive. */
	toDateTime: 'inclusive' | 'exclusive';
	/** [R5] `ModifiedSince`: inclusive, or exclusive. */
	modifiedSince: 'inclusive' | 'exclusive';
	/** [R6] What the full-mode window applies to on feeds whose window date the spec does not name. */
	fullModeDate: 'recordDate' | 'createdTime';
	/** [R7] A continuation token sent with other parameters than the first request's. */
	tokenParameters: 'tied' | 'free';
	/** [R8] The last page: `continuationToken: ""` and `links.next: null`, or both absent. */
	lastPage: 'emptyToken' | 'absent';
	/** [R9] `meta` of the envelope and what image `recordCount` counts. */
	envelope: 'sandbox' | 'alt';
	/** [R10] Tombstones in incremental mode: only the feeds the spec names, or every registration feed but images. */
	tombstoneFeeds: 'shown' | 'allRegistrations';
	/** [R11] Name of the deletion time on absence tombstones ("deletion metadata"). */
	absenceDeletedField: 'deletedDateTime' | 'deletedAt';
	/** [R12] How another company's people are hidden on machine registrations ("returned empty"). */
	privacyBlank: 'emptyString' | 'null';
	/** [R13] Where `IncludeSensitiveData=true` puts the sensitive absence fields. */
	sensitiveFields: 'flat' | 'nested';
	/** [R14] `Sources`: repeated or comma-separated, or repeated only. */
	sourcesParameter: 'repeatedOrComma' | 'repeatedOnly';
	/** [R15] Order in which image sources are read. */
	sourceOrder: readonly ('feed' | 'alert' | 'checklist')[];
	/** [R16] Image row `id`: the file reference id, or an id of its own. */
	imageId: 'fileId' | 'ownId';
	/** [R17] Delay (virtual clock) before the road reference of a new image is filled in, ms. */
	roadReferenceDelayMs: number;
	/** [R18] Format of the times the sandbox stamps on reporting records. */
	timestampFormat: 'isoUtc' | 'unzoned7';
	/**
	 * [F1–F42] Field names of the records the spec does not show (time registrations, payroll lines, checklists,
	 * incidents): the sandbox's, or other plausible ones (each kind's `altNames`, reporting/kinds.ts).
	 */
	recordFieldNames: 'sandbox' | 'alt';

	// Versioning
	/** [X1] v4 answers carry `Deprecation`/`Sunset` headers. */
	v4Deprecation: 'none' | 'headers';
}

const MiB = 1024 * 1024;

export const DEFAULT_VARIANT: Variant = {
	name: 'default',
	unpermittedScope: 'refused',
	tokenWithoutScope: 'allScopes',
	tokenBasicAuth: 'accepted',
	missingScopeStatus: 403,
	authErrorBody: 'json',
	errorBody: { core: 'v5', reporting: 'v5', machineState: 'v5' },
	duplicateStatus: 400,
	unknownFields: 'refused',
	bodyLimits: { json: 5 * MiB, upload: 1024 * MiB },
	queryValues: 'refused',
	createStatus: 200,
	writeAnswer: 'record',
	deleteAnswer: 'empty',
	unshownTimestamps: 'included',
	listScope: 'ownCompany',
	customerLink: 'flat',
	projectDeleteWithWorkOrders: 'cascade',
	projectSearch: 'substring',
	taskNumber: 'externalId',
	inheritedSettings: 'sandboxNames',
	taskCompanyMismatch: 'refused',
	parentMarking: 'required',
	deleteWithSubOrders: 'refused',
	bulkMachineResult: 'itemised',
	bulkUpdate: 'patch',
	equipmentLinkField: 'parentMachineId',
	equipmentListField: 'equipment',
	machineDeletable: 'noLinkedEquipment',
	esgOnReplace: 'kept',
	machineTypeNameField: 'name',
	lookupFields: 'sandbox',
	documentFileUrl: 'fileEndpoint',
	fileType: 'extension',
	enumValues: 'sandbox',
	unnamedPart: 'named',
	taskSection: 'numberFirst',
	contentDisposition: 'both',
	v4DateAnswer: 'date',
	v4UserAnswer: 'full',
	v4TagsPatch: 'replace',
	v4PutIds: 'checked',
	changedSince: 'inclusive',
	deletableRule: 'noActiveEmployment',
	employeeAnswer: 'sandbox',
	employeeSearchHit: 'sandbox',
	employeeGetSubsidiaries: 'flagNeeded',
	otherCompanyEmployee: 404,
	employeePutPhone: 'kept',
	employeeActionAnswer: 'employee',
	updateEmploymentFields: 'all',
	tagAnswerParts: 'lists',
	v5DeleteChecked: 'no',
	certificateAnswer: 'perEntry',
	certificateBatch: 'atomic',
	stateValues: 'free',
	stateCreateAnswer: 'record',
	importAnswer: 'perRecord',
	latestTimestamp: 'object',
	aggregatedShape: 'sandbox',
	stateTimeOrder: 'checked',
	unshownRecordId: 'id',
	unknownFilters: 'ignored',
	modifiedBeforeCheck: 'everyEndpoint',
	toDateTime: 'inclusive',
	modifiedSince: 'inclusive',
	fullModeDate: 'recordDate',
	tokenParameters: 'tied',
	lastPage: 'emptyToken',
	envelope: 'sandbox',
	tombstoneFeeds: 'shown',
	absenceDeletedField: 'deletedDateTime',
	privacyBlank: 'emptyString',
	sensitiveFields: 'flat',
	sourcesParameter: 'repeatedOrComma',
	sourceOrder: ['feed', 'alert', 'checklist'],
	imageId: 'fileId',
	roadReferenceDelayMs: 3000,
	timestampFormat: 'isoUtc',
	recordFieldNames: 'sandbox',
	v4Deprecation: 'none',
};

export const ALT_VARIANT: Variant = {
	name: 'alt',
	unpermittedScope: 'dropped',
	tokenWithoutScope: 'invalidScope',
	tokenBasicAuth: 'refused',
	missingScopeStatus: 401,
	authErrorBody: 'empty',
	errorBody: { core: 'problem', reporting: 'problem', machineState: 'text' },
	duplicateStatus: 409,
	unknownFields: 'ignored',
	bodyLimits: { json: 1 * MiB, upload: 100 * MiB },
	queryValues: 'lenient',
	createStatus: 201,
	writeAnswer: 'empty',
	deleteAnswer: 'record',
	unshownTimestamps: 'omitted',
	listScope: 'structure',
	customerLink: 'nested',
	projectDeleteWithWorkOrders: 'refused',
	projectSearch: 'prefix',
	taskNumber: 'generated',
	inheritedSettings: 'shownOnly',
	taskCompanyMismatch: 'projectWins',
	parentMarking: 'automatic',
	deleteWithSubOrders: 'cascade',
	bulkMachineResult: 'bare',
	bulkUpdate: 'replace',
	equipmentLinkField: 'parentId',
	equipmentListField: 'linkedEquipment',
	machineDeletable: 'always',
	esgOnReplace: 'reset',
	machineTypeNameField: 'typeName',
	lookupFields: 'renamed',
	documentFileUrl: 'storagePath',
	fileType: 'mime',
	enumValues: 'alt',
	unnamedPart: 'refused',
	taskSection: 'descriptionFirst',
	contentDisposition: 'extendedOnly',
	v4DateAnswer: 'dateTime',
	v4UserAnswer: 'shownOnly',
	v4TagsPatch: 'mergeByKey',
	v4PutIds: 'pathWins',
	changedSince: 'exclusive',
	deletableRule: 'disabledOnly',
	employeeAnswer: 'alt',
	employeeSearchHit: 'nameOnly',
	employeeGetSubsidiaries: 'always',
	otherCompanyEmployee: 403,
	employeePutPhone: 'required',
	employeeActionAnswer: 'empty',
	updateEmploymentFields: 'noStartDate',
	tagAnswerParts: 'counts',
	v5DeleteChecked: 'yes',
	certificateAnswer: 'counts',
	certificateBatch: 'partial',
	stateValues: 'enumerated',
	stateCreateAnswer: 'empty',
	importAnswer: 'allOrNothing',
	latestTimestamp: 'bare',
	aggregatedShape: 'alt',
	stateTimeOrder: 'unchecked',
	unshownRecordId: 'named',
	unknownFilters: 'refused',
	modifiedBeforeCheck: 'imagesOnly',
	toDateTime: 'exclusive',
	modifiedSince: 'exclusive',
	fullModeDate: 'createdTime',
	tokenParameters: 'free',
	lastPage: 'absent',
	envelope: 'alt',
	tombstoneFeeds: 'allRegistrations',
	absenceDeletedField: 'deletedAt',
	privacyBlank: 'null',
	sensitiveFields: 'nested',
	sourcesParameter: 'repeatedOnly',
	sourceOrder: ['checklist', 'alert', 'feed'],
	imageId: 'ownId',
	roadReferenceDelayMs: 10_000,
	timestampFormat: 'unzoned7',
	recordFieldNames: 'alt',
	v4Deprecation: 'headers',
};

export function variantByName(name: string | undefined): Variant {
	if (name === undefined || name === '' || name === 'default') return DEFAULT_VARIANT;
	if (name === 'alt') return ALT_VARIANT;
	throw new Error(`Unknown sandbox variant "${name}" (known: ${VARIANT_NAMES.join(', ')})`);
}

/** [S1] The `state` values of the `enumerated` choice. */
export const ENUMERATED_STATES = ['working', 'idle', 'off', 'transport', 'maintenance'];

/** [R18] A time the sandbox stamps on a reporting record, in the variant's format. */
export function stampTime(variant: Variant, ms: number): string {
	const iso = new Date(ms).toISOString();
	// .NET's DateTime with an unspecified kind: no zone designator, seven fractional digits.
	return variant.timestampFormat === 'isoUtc' ? iso : `${iso.slice(0, 23)}0000`;
}
