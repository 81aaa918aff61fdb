import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { shown } from './display';
import { FieldOpsFailure, failureDetails, nodeError, settle } from './errors';
import { labelsOf, type Field } from './fields';
import { Item, itemName } from './items';
import { expectList, isNotFound, locatorValue, recordAt } from './lookups';
import { ownCompanyId } from './projects';
import { sendJson, type FieldOpsContext } from './transport';
import { isBlank } from './values';

/**
 * Create or Update (upsert) by a number the user knows: every item's record is looked up (one list read for a
 * batch where the API has one), compared field by field with what the user mapped, and created, updated with only
 * what differs, or left alone. Each output item says which, and a failure is the item's own.
 */

/** Up to this many items, each record is read on its own; above it, one list read serves the batch (see README). */
export const READ_EACH_UP_TO = 10;

/** What an output item says happened to its record. */
export type UpsertResult = 'created' | 'updated' | 'unchanged';

export interface UpsertKey {
	/** The same twice in a run is a duplicate (the company a number belongs to is part of it). */
	id: string;
	/** The record in a message: "employee 1042". */
	name: string;
	/** Echoed on the output item: `{ employeeNumber: '1042' }`. */
	json: IDataObject;
	/** API names of the key's own fields: never compared or patched (they are what matched). */
	fields: string[];
	/** The company a new record goes to, where the resource has one ('' = the credential's own). */
	company?: string;
}

export interface Entry {
	item: Item;
	key: UpsertKey;
}

/** A look-up's answer for one entry: the record, nothing (create it), or why it cannot be told. */
export type Found = { record: IDataObject } | { none: true } | { error: unknown };

export type Written = { ok: true; record?: IDataObject; id?: string } | { ok: false; error: unknown };

export interface UpsertSpec {
	/** What one record is, in messages ("employee"). */
	what: string;
	/** The fields the user maps (key fields included): each is compared, and sent, under its API name. */
	fields: Field[];
	/** Sent only when the record is created (a first employment, the company of a new record): never compared. */
	createOnly?: string[];
	/**
	 * The fields the API changes on an existing record, where it names them: another field that differs is reported
	 * (Replace can change it), never written. Default: every field.
	 */
	patchable?: string[];
	keyOf(item: Item): Promise<UpsertKey>;
	lookUp(context: IExecuteFunctions, entries: Entry[]): Promise<Found[]>;
	/** The body that creates the record: the Create operation's fields and checks. */
	createBody(entry: Entry): Promise<IDataObject>;
	create(context: IExecuteFunctions, entries: Array<Entry & { body: IDataObject }>): Promise<Written[]>;
	update(
		context: IExecuteFunctions,
		entries: Array<Entry & { record: IDataObject; changes: IDataObject }>,
	): Promise<Written[]>;
	/** The record's ID as the output says it. */
	idOf(record: IDataObject): string | undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Fields

export interface UpsertFieldOptions {
	/** Fields (by name) that identify the record: labelled for matching, required, and described for AI agents. */
	keys?: Record<string, { displayName: string; description: string; placeholder?: string }>;
	/** Fields (by name) sent only when the record is created, with the hint shown under each. */
	createOnly?: Record<string, string>;
	/** Fields (by name) left out. */
	omit?: string[];
	/** Property settings (by field name) that read differently here: a description, a hint. */
	reworded?: Record<string, Partial<INodeProperties>>;
}

const CREATE_HINT = 'Needed when the record is new. An existing record keeps its value when this is empty.';

/**
 * The Create operation's fields, shown for Create or Update: the same checks and names, but only the key is
 * required by the editor (the others are checked when a record is created, and left alone on an existing one when
 * empty).
 */
export function fieldsForUpsert(
	display: IDisplayOptions,
	createFields: Field[],
	{ keys = {}, createOnly = {}, omit = [], reworded = {} }: UpsertFieldOptions,
): Field[] {
	return createFields
		.filter((field) => !omit.includes(field.property.name))
		.map((field) => {
			const { name } = field.property;
			const key = keys[name];
			const hint = key
				? undefined
				: (createOnly[name] ?? (field.property.required ? CREATE_HINT : undefined));
			return shown(display, {
				...field,
				property: {
					...field.property,
					...(key ?? {}),
					required: Boolean(key),
					...(hint ? { hint } : {}),
					...reworded[name],
				},
			});
		});
}

/** The "Only Write What Changed" switch of every Create or Update. */
export const onlyChangesField = (display: IDisplayOptions): Field =>
	shown(display, {
		property: {
			displayName: 'Only Write What Changed',
			name: 'onlyChanges',
			type: 'boolean',
			default: true,
			description:
				'Whether to compare each existing record with your values first and write only the fields that differ (a record that already matches is not written at all). Off: every field you set is written to every existing record.',
		},
	});

/** A value the user left empty (an empty text, a locator without a value, a collection without entries). */
function blank(raw: unknown): boolean {
	if (isBlank(raw)) return true;
	if (raw && typeof raw === 'object' && !Array.isArray(raw)) {
		const object = raw as { __rl?: unknown; value?: unknown };
		if (object.__rl !== undefined || 'mode' in object) return isBlank(object.value);
		return Object.keys(object).length === 0;
	}
	return false;
}

/** The values the user mapped for one item, under their API names: each checked as the Create operation does. */
export async function mappedValues(fields: Field[], item: Item): Promise<IDataObject> {
	const values: IDataObject = {};
	const place = async (field: Field, raw: unknown) => {
		if (blank(raw)) return;
		if (field.children) {
			for (const [name, value] of Object.entries(raw as IDataObject)) {
				const child = field.children.find((candidate) => candidate.property.name === name);
				if (child) await place(child, value);
			}
			return;
		}
		if (field.to !== 'body') return;
		const value = field.value ? await field.value(raw, item) : raw;
		if (value !== undefined) values[field.as ?? field.property.name] = value as IDataObject[string];
	};
	for (const field of fields) await place(field, item.param(field.property.name));
	return values;
}

/** API names of the date fields among `fields` (collections' entries included). */
function dateFields(fields: Field[]): Set<string> {
	const names = new Set<string>();
	for (const field of fields) {
		if (field.children) for (const name of dateFields(field.children)) names.add(name);
		else if (field.property.type === 'dateTime') names.add(field.as ?? field.property.name);
	}
	return names;
}

/**
 * The key of a record known by one number (an employee, project or machine number): the item's company, if the
 * resource has one (a locator named `companyId`), is part of it, as numbers are unique per company.
 */
export function numberKey(item: Item, field: Field, what: string, withCompany = false): UpsertKey {
	const number = keyText(item, field);
	const name = field.as ?? field.property.name;
	const company = withCompany ? locatorValue(item.param('companyId')).value : undefined;
	return {
		id: `${company ?? ''}\u0000${number}`,
		name: `${what} ${number}`,
		json: { [name]: number },
		fields: [name],
		company,
	};
}

// ---------------------------------------------------------------------------------------------------------------
// Comparing in the service's terms

interface DateParts {
	day: string;
	/** Time of day as `HH:mm:ss.fffffffff`; midnight when only a day was given. */
	time: string;
	dayOnly: boolean;
	/** Offset in minutes; null when the value names no zone. */
	offset: number | null;
}

const MIDNIGHT = '00:00:00.000000000';

/** A date as `yyyy-MM-dd`, `dd.MM.yyyy` (v4) or ISO 8601 with a time, a fraction and a zone; else undefined. */
function dateParts(text: string): DateParts | undefined {
	const dotted = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text);
	if (dotted)
		return { day: `${dotted[3]}-${dotted[2]}-${dotted[1]}`, time: MIDNIGHT, dayOnly: true, offset: null };
	const match =
		/^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(
			text.trim(),
		);
	if (!match) return undefined;
	const [, day, hours, minutes, seconds = '00', fraction = '', zone] = match;
	const offset =
		zone === undefined
			? null
			: /^z$/i.test(zone)
				? 0
				: (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(-2)));
	return {
		day,
		time: hours === undefined ? MIDNIGHT : `${hours}:${minutes}:${seconds}.${fraction.padEnd(9, '0')}`,
		dayOnly: hours === undefined,
		offset,
	};
}

const instantOf = (parts: DateParts) =>
	Date.parse(`${parts.day}T${parts.time.slice(0, 12)}Z`) - (parts.offset ?? 0) * 60_000;

/** A calendar day: a date alone, or midnight without a zone (what the node sends for a date given without a time). */
const isDay = (parts: DateParts) => parts.dayOnly || (parts.offset === null && parts.time === MIDNIGHT);

/**
 * Whether a date Field Ops answers is the date we would send. Formats differ (`2026-11-23`, `…T00:00:00`,
 * `…T00:00:00.000Z`, `23.11.2026`): a day equals midnight of that day however the answer writes its zone (a
 * birth date is a day); times with zones compare as instants. A time of day with a zone on one side only cannot
 * be told apart (the service's own zone is not shown): not the same.
 */
function sameDate(sent: string, read: string): boolean {
	if (sent === read) return true;
	const a = dateParts(sent);
	const b = dateParts(read);
	if (!a || !b) return false;
	if (isDay(a) || isDay(b)) return a.day === b.day && a.time === MIDNIGHT && b.time === MIDNIGHT;
	if (a.offset === null && b.offset === null) return a.day === b.day && a.time === b.time;
	if (a.offset === null || b.offset === null) return false;
	return a.time.slice(12) === b.time.slice(12) && instantOf(a) === instantOf(b);
}

/**
 * Whether the value Field Ops holds is the value we would send, in the service's terms: a number written as text,
 * a date in another format, a list in another order. A field the answer does not show is never the same.
 */
export function sameValue(sent: unknown, read: unknown, isDate = false): boolean {
	if (read === undefined) return false;
	if (sent === null) return read === null;
	if (isDate && typeof sent === 'string') return typeof read === 'string' && sameDate(sent, read);
	if (typeof sent === 'number')
		return read === sent || (typeof read === 'string' && read.trim() !== '' && Number(read) === sent);
	if (typeof sent === 'boolean') return read === sent || String(read).toLowerCase() === String(sent);
	if (typeof sent === 'string') return read === sent || (typeof read === 'number' && String(read) === sent);
	if (Array.isArray(sent)) {
		if (!Array.isArray(read) || read.length !== sent.length) return false;
		const left = [...read];
		return sent.every((element) => {
			const at = left.findIndex((candidate) => sameValue(element, candidate));
			if (at >= 0) left.splice(at, 1);
			return at >= 0;
		});
	}
	if (sent && typeof sent === 'object') {
		if (!read || typeof read !== 'object' || Array.isArray(read)) return false;
		return Object.entries(sent).every(([name, value]) => sameValue(value, (read as IDataObject)[name]));
	}
	return false;
}

// ---------------------------------------------------------------------------------------------------------------
// The run

/** An item whose parameters n8n resolves once: its key, the compare and a create all read the same fields. */
class RunItem extends Item {
	private readonly params = new Map<string, unknown>();

	override param<T = unknown>(name: string): T | null {
		if (!this.params.has(name)) this.params.set(name, super.param(name));
		return this.params.get(name) as T | null;
	}
}

type Plan =
	| { state: 'failed'; error: unknown; key?: UpsertKey }
	| { state: 'pending'; entry: Entry; values: IDataObject }
	| { state: 'create'; entry: Entry; body: IDataObject }
	| {
			state: 'update';
			entry: Entry;
			record: IDataObject;
			write: IDataObject;
			changed: string[];
			notUpdated: string[];
	  }
	| { state: 'unchanged'; entry: Entry; record: IDataObject; notUpdated: string[] }
	| {
			state: 'done';
			entry: Entry;
			result: UpsertResult;
			record: IDataObject;
			id?: string;
			changed: string[];
			notUpdated: string[];
			/** Every field written, when Only Write What Changed is off. */
			written?: string[];
	  };

const capitalised = (text: string) => `${text[0].toUpperCase()}${text.slice(1)}`;

/** An API name in a message replaced by the field's label ("phone" → "Phone"). */
function withLabels(text: string, fields: string[], labels: Record<string, string>): string {
	return fields.reduce((result, field) => {
		if (!labels[field]) return result;
		const name = new RegExp(`\\b${field.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g');
		return result.replace(name, labels[field]);
	}, text);
}

/**
 * The error of one item as the user reads it: the record by its key, the service's own words with fields by their
 * labels, and the item by its number (n8n's editor appends "[item <index>]" to a message without "item <index>").
 */
function itemFailure(
	context: IExecuteFunctions,
	plan: Extract<Plan, { state: 'failed' }>,
	index: number,
	labels: Record<string, string>,
	note?: string,
): NodeApiError | NodeOperationError {
	const failure = nodeError(context.getNode(), plan.error, index);
	const fields = failureDetails(plan.error)
		.map((detail) => detail.field)
		.filter((field): field is string => typeof field === 'string' && field !== '');
	const said = withLabels(failure.message, fields, labels).replace(/\s*\[item \d+[^\]]*\]/g, '');
	const count = context.getInputData().length;
	const message = `${plan.key ? `${capitalised(plan.key.name)}: ` : ''}${said}${count > 1 ? ` [${itemName(index, count)}]` : ''}`;
	failure.message = message;
	failure.description =
		[withLabels(failure.description ?? '', fields, labels), note].filter(Boolean).join('\n\n') || null;
	failure.context.itemIndex = index;
	return failure;
}

/** What was done to the other items, for the message of a run that stops at a failure. */
function others(plans: Plan[]): string {
	const count = (result: UpsertResult) =>
		plans.filter((plan) => plan.state === 'done' && plan.result === result).length;
	const done = (['created', 'updated', 'unchanged'] as const)
		.map((result) => `${count(result)} ${result}`)
		.join(', ');
	return plans.some((plan) => plan.state === 'done')
		? `The other items: ${done}. Running the node again finds the records it created and writes only what still differs.`
		: 'Nothing was written to Field Ops.';
}

/** Runs Create or Update for every input item. */
export async function runUpsert(
	context: IExecuteFunctions,
	spec: UpsertSpec,
): Promise<INodeExecutionData[][]> {
	const count = context.getInputData().length;
	const labels = labelsOf(spec.fields);
	const dates = dateFields(spec.fields);
	const createOnly = new Set(spec.createOnly ?? []);
	const patchable = spec.patchable && new Set(spec.patchable);
	const notPatchable = { has: (name: string) => patchable !== undefined && !patchable.has(name) };
	const plans: Plan[] = [];
	const firstWith = new Map<string, number>();

	// 1. The key and the mapped values of each item, checked before anything is sent.
	for (let index = 0; index < count; index++) {
		const item = new RunItem(context, index);
		let key: UpsertKey | undefined;
		try {
			key = await spec.keyOf(item);
			const first = firstWith.get(key.id);
			if (first !== undefined)
				throw new FieldOpsFailure(
					`the same ${spec.what} is in item ${first + 1} too`,
					`Each ${spec.what} may appear once per run: item ${first + 1} was written, this one was not. Remove the repeated row from the input, or check its number.`,
				);
			firstWith.set(key.id, index);
			plans.push({ state: 'pending', entry: { item, key }, values: await mappedValues(spec.fields, item) });
		} catch (error) {
			plans.push({ state: 'failed', error, key });
		}
	}

	// 2. One look-up for the batch (or one per item, for a few).
	const pending = plans.flatMap((plan, index) => (plan.state === 'pending' ? [{ plan, index }] : []));
	const looked = await settle(
		async () =>
			await spec.lookUp(
				context,
				pending.map(({ plan }) => plan.entry),
			),
	);
	if ('error' in looked && !context.continueOnFail()) throw nodeError(context.getNode(), looked.error);

	// 3. Each item's plan: create, update only what differs, or leave it alone.
	const onlyChanges = context.getNodeParameter('onlyChanges', 0, true) !== false;
	for (const [position, { plan, index }] of pending.entries()) {
		const found: Found = 'error' in looked ? { error: looked.error } : looked.value[position];
		const { entry, values } = plan;
		try {
			if ('error' in found) throw found.error;
			if ('none' in found) {
				plans[index] = { state: 'create', entry, body: await spec.createBody(entry) };
				continue;
			}
			const { record } = found;
			const compared = Object.keys(values).filter(
				(name) => !createOnly.has(name) && !entry.key.fields.includes(name),
			);
			const differs = compared.filter((name) => !sameValue(values[name], record[name], dates.has(name)));
			const notUpdated = differs.filter((name) => notPatchable.has(name));
			const changed = differs.filter((name) => !notPatchable.has(name));
			const written = (onlyChanges ? changed : compared.filter((name) => !notPatchable.has(name))).sort();
			plans[index] =
				written.length === 0
					? { state: 'unchanged', entry, record, notUpdated }
					: {
							state: 'update',
							entry,
							record,
							write: Object.fromEntries(written.map((name) => [name, values[name]])),
							changed: changed.sort(),
							notUpdated,
						};
		} catch (error) {
			plans[index] = { state: 'failed', error, key: entry.key };
		}
	}

	// Without Continue On Fail, a problem found before writing stops the node before anything is written.
	const firstFailed = () => plans.findIndex((plan) => plan.state === 'failed');
	const stop = (note: string) => {
		const index = firstFailed();
		const plan = plans[index];
		if (plan?.state === 'failed') throw itemFailure(context, plan, index, labels, note);
	};
	if (!context.continueOnFail()) stop(others(plans));

	// 4. The writes: creates, then updates (each resource sends them one by one or in batches).
	const write = async <P extends Plan & { entry: Entry }, E>(
		state: P['state'],
		entryOf: (plan: P) => E,
		send: (entries: E[]) => Promise<Written[]>,
		done: (plan: P, written: Extract<Written, { ok: true }>) => Plan,
	) => {
		const chosen = plans.flatMap((plan, index) => (plan.state === state ? [{ plan: plan as P, index }] : []));
		if (chosen.length === 0) return;
		const sent = await settle(async () => await send(chosen.map(({ plan }) => entryOf(plan))));
		chosen.forEach(({ plan, index }, position) => {
			const written: Written =
				'error' in sent
					? { ok: false, error: sent.error }
					: (sent.value[position] ?? {
							ok: false,
							error: new FieldOpsFailure(`Field Ops gave no result for this ${spec.what}`),
						});
			plans[index] = written.ok
				? done(plan, written)
				: { state: 'failed', error: written.error, key: plan.entry.key };
		});
	};
	await write<Extract<Plan, { state: 'create' }>, Entry & { body: IDataObject }>(
		'create',
		(plan) => ({ ...plan.entry, body: plan.body }),
		async (entries) => await spec.create(context, entries),
		(plan, written) => {
			const record = written.record ?? plan.body;
			return {
				state: 'done',
				entry: plan.entry,
				result: 'created',
				record,
				id: written.id ?? spec.idOf(record),
				changed: [],
				notUpdated: [],
			};
		},
	);
	await write<Extract<Plan, { state: 'update' }>, Entry & { record: IDataObject; changes: IDataObject }>(
		'update',
		(plan) => ({ ...plan.entry, record: plan.record, changes: plan.write }),
		async (entries) => await spec.update(context, entries),
		(plan, written) => ({
			state: 'done',
			entry: plan.entry,
			result: 'updated',
			// An answer without the record (204): the record as read, with what was written.
			record: written.record ?? { ...plan.record, ...plan.write },
			id: spec.idOf(plan.record),
			changed: plan.changed,
			notUpdated: plan.notUpdated,
			...(onlyChanges ? {} : { written: Object.keys(plan.write).sort() }),
		}),
	);
	for (const [index, plan] of plans.entries())
		if (plan.state === 'unchanged')
			plans[index] = {
				state: 'done',
				entry: plan.entry,
				result: 'unchanged',
				record: plan.record,
				id: spec.idOf(plan.record),
				changed: [],
				notUpdated: plan.notUpdated,
			};

	if (!context.continueOnFail()) stop(others(plans));

	return [
		plans.map((plan, index): INodeExecutionData => {
			if (plan.state === 'done')
				return {
					json: {
						result: plan.result,
						id: plan.id ?? null,
						...plan.entry.key.json,
						changedFields: plan.changed,
						...(plan.written ? { writtenFields: plan.written } : {}),
						...(plan.notUpdated.length > 0
							? {
									notUpdatedFields: plan.notUpdated,
									note: `Field Ops cannot change ${plan.notUpdated.join(', ')} of an existing ${spec.what} this way: use Replace for that.`,
								}
							: {}),
						record: plan.record,
					},
					pairedItem: { item: index },
				};
			const failed =
				plan.state === 'failed'
					? plan
					: { state: 'failed' as const, error: new FieldOpsFailure('Not written'), key: plan.entry.key };
			const error = itemFailure(context, failed, index, labels);
			// Only `error` and `details`: n8n keeps such an item whole (one with an error object is cut down to its
			// message) and routes it to the error output when the node has one.
			const details: IDataObject = { result: 'failed', ...(failed.key?.json ?? {}) };
			if (error.description) details.description = error.description;
			if (error instanceof NodeApiError && error.httpCode) details.httpCode = error.httpCode;
			return { json: { error: error.message, details }, pairedItem: { item: index } };
		}),
	];
}

// ---------------------------------------------------------------------------------------------------------------
// Writes one request per item

/** Sends each entry's request on its own; a refusal fails only its entry. */
export async function eachAlone<E>(entries: E[], send: (entry: E) => Promise<unknown>): Promise<Written[]> {
	const results: Written[] = [];
	for (const entry of entries) {
		const sent = await settle(async () => await send(entry));
		results.push(
			'error' in sent
				? { ok: false, error: sent.error }
				: {
						ok: true,
						record:
							sent.value && typeof sent.value === 'object' && !Array.isArray(sent.value)
								? (sent.value as IDataObject)
								: undefined,
					},
		);
	}
	return results;
}

// ---------------------------------------------------------------------------------------------------------------
// Look-ups by a number unique within a company (projects, machines, v4 users)

export interface NumberLookUp {
	what: string;
	/** The company's records: one read serves a batch. */
	list: { path: string; companyQuery?: string };
	/** One record by its number: a 404 means none. */
	byNumber: { path: string; param: string; label: string };
	/** The number a record carries. */
	numberOf(record: IDataObject): unknown;
	/** The number an entry looks for. */
	number(entry: Entry): string;
}

const companyOf = (record: IDataObject) =>
	typeof record.companyId === 'string' && record.companyId !== '' ? record.companyId : undefined;

/** One record, or a failure naming how many: a number is unique where the key holds, so several is no match. */
export function single(
	matches: IDataObject[],
	what: string,
	number: string,
	hint = 'Pick the Company the record belongs to, so the node knows which one is meant.',
): Found {
	if (matches.length === 0) return { none: true };
	if (matches.length === 1) return { record: matches[0] };
	return {
		error: new FieldOpsFailure(
			`Field Ops has ${matches.length} ${what}s with the number ${number}, so the node cannot tell which to update`,
			hint,
		),
	};
}

/** The records of a list by the number each carries (several where a number repeats): one pass for a batch. */
export function byNumber(
	list: IDataObject[],
	numberOf: (record: IDataObject) => unknown,
): Map<string, IDataObject[]> {
	const index = new Map<string, IDataObject[]>();
	for (const record of list) {
		const number = String(numberOf(record) ?? '');
		index.set(number, [...(index.get(number) ?? []), record]);
	}
	return index;
}

/** The text of a key field, trimmed; refused when empty, naming the field by its label. */
export function keyText(item: Item, field: Field): string {
	const raw = item.param(field.property.name);
	const text = isBlank(raw) ? '' : String(raw).trim();
	if (text === '') {
		const example = typeof field.property.placeholder === 'string' ? `, ${field.property.placeholder}` : '';
		throw new FieldOpsFailure(
			`${field.property.displayName} is empty`,
			`Every item needs the ${field.property.displayName}${example}: it tells which record to update or create. Nothing was sent for this item.`,
		);
	}
	return text;
}

async function readByNumber(context: FieldOpsContext, spec: NumberLookUp, entry: Entry): Promise<Found> {
	const number = spec.number(entry);
	const read = await settle(
		async () =>
			await recordAt(
				context,
				spec.byNumber.path,
				spec.byNumber.param,
				spec.byNumber.label,
				number,
				spec.what,
				entry.item.index,
			),
	);
	if ('error' in read) return isNotFound(read.error) ? { none: true } : { error: read.error };
	// A record of another company than the one chosen is not this company's (numbers are unique per company).
	const company = entry.key.company;
	const other = company && companyOf(read.value) && companyOf(read.value) !== company;
	return other ? { none: true } : { record: read.value };
}

/**
 * Records by number for a batch. A few items of the credential's own company: one read per item by number (the
 * service's own rule decides which company's record a number names). More, or a company chosen: one list read.
 * The list may show the company only or its whole structure: a number found in several companies is narrowed to
 * the company chosen, or to the credential's own (as the by-number route answers the own company's first); a
 * chosen company the list does not show is read per item. Where the list takes a company (v4 users), it is asked
 * for that company's records.
 */
export async function lookUpByNumber(
	context: IExecuteFunctions,
	spec: NumberLookUp,
	entries: Entry[],
): Promise<Found[]> {
	const lists = new Map<string, Promise<{ list: IDataObject[]; index: Map<string, IDataObject[]> }>>();
	const listOf = async (query: string) => {
		if (!lists.has(query))
			lists.set(
				query,
				(async () => {
					const list = expectList(
						await sendJson(context, {
							method: 'GET',
							path: spec.list.path,
							qs: query ? { [spec.list.companyQuery as string]: query } : undefined,
							what: spec.what,
						}),
						spec.what,
					);
					return { list, index: byNumber(list, spec.numberOf) };
				})(),
			);
		return await (lists.get(query) as Promise<{ list: IDataObject[]; index: Map<string, IDataObject[]> }>);
	};
	const fewItems = entries.length <= READ_EACH_UP_TO;
	let own: string | undefined;
	const found: Found[] = [];
	for (const entry of entries) {
		const company = entry.key.company ?? '';
		const byCompany = company !== '' && spec.list.companyQuery !== undefined;
		// A company chosen is looked for in the list first: the by-number route may answer the own company only.
		if (fewItems && company === '') {
			found.push(await readByNumber(context, spec, entry));
			continue;
		}
		const { list, index } = await listOf(byCompany ? company : '');
		const number = spec.number(entry);
		let matches = index.get(number) ?? [];
		let scope = byCompany ? '' : company;
		if (scope !== '' && !list.some((record) => companyOf(record) === scope)) {
			found.push(await readByNumber(context, spec, entry));
			continue;
		}
		if (scope === '' && !byCompany && new Set(matches.map(companyOf)).size > 1)
			scope = own ??= await ownCompanyId(context);
		if (scope !== '') matches = matches.filter((record) => [undefined, scope].includes(companyOf(record)));
		found.push(single(matches, spec.what, number));
	}
	return found;
}

/** The ID a record carries, as text. */
export const recordId = (record: IDataObject, key = 'id'): string | undefined => {
	const id = record[key];
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};
