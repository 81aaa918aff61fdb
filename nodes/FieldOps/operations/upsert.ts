import {
	NodeApiError,
	NodeOperationError,
	type IDataObject,
	type IDisplayOptions,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
} from 'n8n-workflow';

import { Item, itemName } from '../items/items';
import { locatorValue } from '../lookups/records';
import type { Found } from '../lookups/numbers';
import { sameValue } from '../parameters/compare';
import { labelsOf, shown, type Field } from '../parameters/field';
import { isBlank } from '../parameters/values';
import { FieldOpsFailure, failureDetails, nodeError, settle } from '../transport/errors';

/**
 * Create or Update (upsert) by a number the user knows: every item's record is looked up (one list read for a
 * batch where the API has one, lookups/numbers.ts), compared field by field with what the user mapped
 * (parameters/compare.ts), and created, updated with only what differs, or left alone. Each output item says
 * which, and a failure is the item's own.
 */

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

/** A write's result for one entry: saved (with the record Field Ops answered, if any), or why not. */
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
					`Each ${spec.what} may appear once per run: only item ${first + 1} is used, this one is not sent. Remove the repeated row from the input, or check its number.`,
				);
			const values = await mappedValues(spec.fields, item);
			// Only an item that will be sent claims its key: a later item is then the repeat, never the one used.
			firstWith.set(key.id, index);
			plans.push({ state: 'pending', entry: { item, key }, values });
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
