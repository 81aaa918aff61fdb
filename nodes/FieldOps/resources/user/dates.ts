import {
	NodeOperationError,
	type IDataObject,
	type IExecuteSingleFunctions,
	type IHttpRequestOptions,
	type INode,
} from 'n8n-workflow';

export type UserDateFormat = 'yyyy-MM-dd' | 'dd.MM.yyyy';

interface YearMonthDay {
	year: number;
	month: number;
	day: number;
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** A date picker value, an ISO string, `dd.MM.yyyy` or a Luxon/JS date → its calendar date (as written, no time zone shift). */
function calendarDate(value: unknown): YearMonthDay | undefined {
	const text =
		value && typeof value === 'object' && 'toISO' in value
			? String((value as { toISO: () => string }).toISO())
			: value instanceof Date
				? value.toISOString()
				: String(value).trim();
	let match = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ])/.exec(text);
	let date: YearMonthDay | undefined;
	if (match) date = { year: +match[1], month: +match[2], day: +match[3] };
	else if ((match = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(text)))
		date = { year: +match[3], month: +match[2], day: +match[1] };
	if (!date) return undefined;
	// Reject 31.02 and the like: the date must survive a round trip through the calendar.
	const check = new Date(Date.UTC(date.year, date.month - 1, date.day));
	return check.getUTCMonth() === date.month - 1 && check.getUTCDate() === date.day ? date : undefined;
}

function invalidDate(node: INode, label: string, value: unknown, itemIndex: number): NodeOperationError {
	return new NodeOperationError(node, `${label} is not a valid date: "${String(value)}"`, {
		description: 'Pick the date in the date picker, or give it as yyyy-MM-dd (e.g. 2024-08-15).',
		itemIndex,
	});
}

/** A date as the v4 users API expects it: `yyyy-MM-dd` or `dd.MM.yyyy`. */
export function formatUserDate(
	node: INode,
	label: string,
	value: unknown,
	format: UserDateFormat,
	itemIndex: number,
): string {
	const date = calendarDate(value);
	if (!date) throw invalidDate(node, label, value, itemIndex);
	return format === 'dd.MM.yyyy'
		? `${pad(date.day)}.${pad(date.month)}.${pad(date.year, 4)}`
		: `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}

/** A date-time for the ISO 8601 endpoints: a date alone becomes midnight; anything unreadable is refused before sending. */
export function isoDateTime(node: INode, label: string, value: unknown, itemIndex: number): string {
	if (value && typeof value === 'object' && 'toISO' in value) return String((value as { toISO: () => string }).toISO());
	if (value instanceof Date) return value.toISOString();
	const text = String(value).trim();
	if (/^\d{4}-\d{2}-\d{2}$/.test(text) && calendarDate(text)) return `${text}T00:00:00`;
	if (/^\d{4}-\d{2}-\d{2}T/.test(text) && calendarDate(text) && !Number.isNaN(Date.parse(text))) return text;
	throw invalidDate(node, label, value, itemIndex);
}

/**
 * preSend hook factory: rewrites the named body date fields (label by field name) to the API's format. Empty
 * values are left out rather than sent as "".
 */
export function bodyDates(
	labels: Record<string, string>,
	format: (context: IExecuteSingleFunctions) => UserDateFormat | 'iso',
) {
	return async function (
		this: IExecuteSingleFunctions,
		requestOptions: IHttpRequestOptions,
	): Promise<IHttpRequestOptions> {
		const body = requestOptions.body as IDataObject | undefined;
		if (!body || typeof body !== 'object') return requestOptions;
		const target = format(this);
		for (const [field, label] of Object.entries(labels)) {
			const value = body[field];
			if (value === undefined || value === null) continue;
			if (value === '') {
				delete body[field];
				continue;
			}
			body[field] =
				target === 'iso'
					? isoDateTime(this.getNode(), label, value, this.getItemIndex())
					: formatUserDate(this.getNode(), label, value, target, this.getItemIndex());
		}
		return requestOptions;
	};
}
