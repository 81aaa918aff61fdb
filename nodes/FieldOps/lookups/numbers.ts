import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { Item } from '../items/items';
import { FieldOpsFailure, settle } from '../transport/errors';
import { sendJson, type FieldOpsContext } from '../transport/transport';
import { ownCompanyId } from './projects';
import { expectList, isNotFound, recordAt } from './records';

/**
 * Records found by the number a user knows, for a whole batch of items (Create or Update): one list read where one
 * serves the batch, one read per item for a few.
 */

/**
 * Up to this many items, each record is read on its own; above, one list read serves the batch. A read per item
 * costs a round trip each; a list read costs one round trip and the whole list's bytes (a few hundred bytes per
 * record): ten round trips weigh about one list of a few thousand records.
 */
export const READ_EACH_UP_TO = 10;

/** A look-up's answer for one item: the record, nothing (create it), or why it cannot be told. */
export type Found = { record: IDataObject } | { none: true } | { error: unknown };

/** What one item looks for: a number, in the company chosen ('' or none: the credential's own). */
export interface Wanted {
	item: Item;
	number: string;
	company?: string;
}

/** How a resource's records are found by number: a list of the company's records and a by-number route. */
export interface NumberLookUp {
	what: string;
	/** The company's records: one read serves a batch; `companyQuery` names the list's company parameter, if any. */
	list: { path: string; companyQuery?: string };
	/** One record by its number: a 404 means none. */
	byNumber: { path: string; param: string; label: string };
	/** The number a record carries. */
	numberOf(record: IDataObject): unknown;
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

async function readByNumber(context: FieldOpsContext, spec: NumberLookUp, wanted: Wanted): Promise<Found> {
	const read = await settle(
		async () =>
			await recordAt(
				context,
				spec.byNumber.path,
				spec.byNumber.param,
				spec.byNumber.label,
				wanted.number,
				spec.what,
				wanted.item.index,
			),
	);
	if ('error' in read) return isNotFound(read.error) ? { none: true } : { error: read.error };
	// A record of another company than the one chosen is not this company's (numbers are unique per company).
	const company = wanted.company;
	const other = company && companyOf(read.value) && companyOf(read.value) !== company;
	return other ? { none: true } : { record: read.value };
}

interface Listed {
	list: IDataObject[];
	index: Map<string, IDataObject[]>;
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
	batch: Wanted[],
): Promise<Found[]> {
	const lists = new Map<string, Promise<Listed>>();
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
		return await (lists.get(query) as Promise<Listed>);
	};
	const fewItems = batch.length <= READ_EACH_UP_TO;
	let own: string | undefined;
	const found: Found[] = [];
	for (const wanted of batch) {
		const company = wanted.company ?? '';
		const byCompany = company !== '' && spec.list.companyQuery !== undefined;
		// A company chosen is looked for in the list first: the by-number route may answer the own company only.
		if (fewItems && company === '') {
			found.push(await readByNumber(context, spec, wanted));
			continue;
		}
		const { list, index } = await listOf(byCompany ? company : '');
		let matches = index.get(wanted.number) ?? [];
		let scope = byCompany ? '' : company;
		if (scope !== '' && !list.some((record) => companyOf(record) === scope)) {
			found.push(await readByNumber(context, spec, wanted));
			continue;
		}
		if (scope === '' && !byCompany && new Set(matches.map(companyOf)).size > 1)
			scope = own ??= await ownCompanyId(context);
		if (scope !== '') matches = matches.filter((record) => [undefined, scope].includes(companyOf(record)));
		found.push(single(matches, spec.what, wanted.number));
	}
	return found;
}

/** The ID a record carries, as text. */
export const recordId = (record: IDataObject, key = 'id'): string | undefined => {
	const id = record[key];
	return typeof id === 'string' || typeof id === 'number' ? String(id) : undefined;
};
