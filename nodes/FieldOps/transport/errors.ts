import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

/**
 * A failure described in our own words. Code below the transport throws it; whatever reaches n8n is turned into
 * an n8n error built from these strings only, never from an HTTP client's error (which carries request bodies,
 * the client secret included).
 */
export class FieldOpsFailure extends Error {
	constructor(
		message: string,
		readonly description = '',
		readonly httpCode?: number,
	) {
		super(message);
	}
}

const MACHINE_TYPE_INVALID = 'MachineService.machineTypeInvalid';
const MAX_TEXT = 300;

/** What a site manager can do about each status, when the API's own message is not enough. */
const HINTS: Record<number, string> = {
	400: 'Check the fields named above and run the node again.',
	401: 'Field Ops did not accept the access token. Check the Client ID and Client Secret of the Field Ops credential and that the API client is still enabled on the integration page.',
	403: 'The API client of this credential has no access to this. It only sees its own company (and its subsidiaries); documents need an administrator-level client; and each API must be ticked in the credential (Use Core / Reporting / Machine-State API).',
	404: 'Nothing with this ID or number exists in your company. Check the value, or pick it from the list.',
	409: 'It conflicts with existing data in Field Ops.',
	413: 'The request is too large for Field Ops. Send fewer items per batch or a smaller file.',
	429: 'Field Ops is limiting the request rate. Wait a moment, or lower the batch size.',
	500: 'Field Ops had an unexpected failure. Try again in a moment; if it keeps happening, contact Field Ops support.',
	502: 'Field Ops is not reachable right now. Try again in a moment.',
	503: 'Field Ops is temporarily unavailable. Try again in a moment.',
};

interface ErrorDetail {
	code?: string;
	field?: string;
	message?: string;
}

/** Markup (a web page, an XML error): the API answers JSON, so an answer starting with a tag is never its message. */
export function looksLikeHtml(text: string): boolean {
	return /^\s*</.test(text);
}

/**
 * Text from an answer with the credential's secrets blanked out (also URL- or JSON-encoded): a proxy or a
 * misconfigured address may echo what it was sent, and that text may reach a message or an output item.
 */
export function hide(text: string, secrets: string[]): string {
	let result = text;
	for (const secret of secrets.filter((s) => s.length >= 4)) {
		const forms = [secret, encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
		for (const form of new Set([...forms, new URLSearchParams({ s: secret }).toString().slice(2)]))
			if (result.includes(form)) result = result.split(form).join('[hidden]');
	}
	return result;
}

/**
 * Why a connection failed, in words: n8n replaces a message that contains a code such as ECONNREFUSED with its
 * own generic sentence, and ours names the address and the field to check.
 */
export function reachReason(error: unknown): string {
	const code = String((error as { code?: unknown })?.code ?? '');
	const text = `${code} ${(error as Error)?.message ?? ''}`;
	if (/ECONNABORTED|ETIMEDOUT|timeout|stalled/i.test(text)) return 'no answer in time';
	if (/ENOTFOUND|EAI_AGAIN/.test(code)) return 'unknown host name';
	if (code === 'ECONNREFUSED') return 'connection refused';
	if (/ECONNRESET|EPIPE|hang up|aborted/i.test(text)) return 'connection dropped';
	return 'connection failed';
}

/** A short single line of text for a message: never a web page, never more than a few hundred characters. */
export function shortText(value: unknown): string | undefined {
	if (typeof value !== 'string' || value.trim() === '' || looksLikeHtml(value)) return undefined;
	const line = value.replace(/\s+/g, ' ').trim();
	return line.length > MAX_TEXT ? `${line.slice(0, MAX_TEXT)}…` : line;
}

function parsed(body: unknown): unknown {
	if (typeof body !== 'string' || !/^\s*[{[]/.test(body)) return body;
	try {
		return JSON.parse(body) as unknown;
	} catch {
		return body;
	}
}

/** The validation details of an error body: the v5 `errors[]`, RFC 7807 `errors`, or an `{field: [messages]}` map. */
function detailsOf(errors: unknown): ErrorDetail[] {
	if (Array.isArray(errors)) {
		return errors
			.filter((e) => e && typeof e === 'object')
			.map((e: Record<string, unknown>) => ({
				code: shortText(e.code),
				field: shortText(e.field ?? e.name ?? e.pointer ?? e.propertyName),
				message: shortText(e.message ?? e.reason ?? e.detail ?? e.errorMessage),
			}));
	}
	if (errors && typeof errors === 'object') {
		return Object.entries(errors).map(([field, messages]) => ({
			field,
			message: shortText([messages].flat().join('; ')),
		}));
	}
	return [];
}

/** A plain-text error's later lines of the form `field: message` (E1: machine-state under some services). */
function textDetails(text: string): ErrorDetail[] {
	if (looksLikeHtml(text)) return [];
	return text
		.split(/\r?\n/)
		.slice(1)
		.map((line) => /^\s*([\w.[\]-]+):\s+(.+)$/.exec(line))
		.filter((match) => match !== null)
		.slice(0, 20)
		.map((match) => ({ field: shortText(match[1]), message: shortText(match[2]) }));
}

/** The parts of an error answer we show: its message and validation details, in whatever common shape. */
export function readErrorBody(body: unknown): { message?: string; details: ErrorDetail[] } {
	const value = parsed(body);
	if (typeof value === 'string') return { message: shortText(value), details: textDetails(value) };
	if (!value || typeof value !== 'object' || Array.isArray(value)) return { details: [] };
	const object = value as Record<string, unknown>;
	const message = [object.message, object.detail, object.title, object.error_description, object.error]
		.map(shortText)
		.find(Boolean);
	return { message, details: detailsOf(object.errors).slice(0, 20) };
}

/** "field — message" lines for validation errors. */
export function describeErrors(details: ErrorDetail[]): string[] {
	return details.map((e) => {
		if (e.code === MACHINE_TYPE_INVALID) {
			return `${e.field ?? 'typeId'} — ${e.message ?? 'unknown machine type'}. Pick a type from the "Machine Type" list (it shows the types configured for your company), or add the type in the Field Ops web administration. Equipment does not need a valid type.`;
		}
		let message = e.message ?? e.code ?? 'invalid';
		if (!e.field) return message;
		// Validation messages often repeat the field ("lastName: too short"): say it once.
		if (message.startsWith(`${e.field}:`)) message = message.slice(e.field.length + 1).trim();
		else if (message.startsWith(`${e.field} `)) return message;
		return `${e.field} — ${message}`;
	});
}

/** A Field Ops error answer as a failure whose message says what went wrong and whose description what to do. */
export function apiFailure(statusCode: number, body: unknown, what?: string): FieldOpsFailure {
	const { message: apiMessage, details } = readErrorBody(body);
	const lines = describeErrors(details);
	let message: string;
	if (statusCode === 401) message = 'Field Ops did not accept the access token (401)';
	else if (statusCode === 404)
		message = `${what ? `The ${what} was not found` : 'Not found'}${apiMessage ? `: ${apiMessage}` : ''}`;
	else if (statusCode === 403)
		message = `No access${what ? ` to this ${what}` : ''}${apiMessage ? `: ${apiMessage}` : ''}`;
	else if (lines.length > 0)
		message = `Field Ops refused the request: ${lines.length === 1 ? lines[0] : `${lines.length} problems`}`;
	else message = `Field Ops answered ${statusCode}${apiMessage ? `: ${apiMessage}` : ''}`;
	// A duplicate's status and code are not shown (E2): 409, or a code naming it (`Duplicate`, `…Duplicate…`).
	const duplicate = statusCode === 409 || details.some((e) => /duplicate/i.test(e.code ?? ''));
	const hint = duplicate
		? `Give another value${details.length === 1 && details[0].field ? ` for ${details[0].field}` : ''}, or use Update to change the existing ${what ?? 'record'}.`
		: (HINTS[statusCode] ?? (statusCode >= 500 ? HINTS[500] : undefined));
	const description = [lines.length > 1 ? lines.join('\n') : undefined, hint].filter(Boolean).join('\n\n');
	return Object.assign(new FieldOpsFailure(message, description, statusCode), { details });
}

/** Whether Field Ops refused a record as a duplicate: 409, or an error code naming a duplicate (E2). */
export function isDuplicate(error: unknown): boolean {
	if (!(error instanceof NodeApiError)) return false;
	return (
		String(error.httpCode) === '409' || failureDetails(error).some((e) => /duplicate/i.test(e.code ?? ''))
	);
}

/**
 * The description of a duplicate refusal on a create: a workflow run again with the same number. `change` is how to
 * reach the existing record with Update; `value` the number's label and value.
 */
export const runAgainHint = (what: string, label: string, value: unknown, change: string) =>
	`A ${what} with ${label} "${String(value)}" already exists: this happens when a workflow runs again with the same ${label}. To change that ${what} instead, use ${change}. To create another ${what}, give a new ${label} (for example from the input, such as {{ $json.id }}).`;

/** The validation details an API failure carried (for per-item results of batches). */
export function failureDetails(error: unknown): ErrorDetail[] {
	const response = (error as { errorResponse?: { errors?: ErrorDetail[] } })?.errorResponse;
	return response?.errors ?? (error as { details?: ErrorDetail[] })?.details ?? [];
}

/**
 * Any error as the n8n error that leaves the node: n8n's own node errors as they are; a failure Field Ops answered
 * (it has a status) as NodeApiError with the details read from that answer; our own refusals of the input, and
 * failures with no answer at all, as NodeOperationError; anything else by its message alone.
 */
export function nodeError(
	node: INode,
	error: unknown,
	itemIndex?: number,
): NodeApiError | NodeOperationError {
	if (error instanceof FieldOpsFailure) {
		if (error.httpCode === undefined)
			return new NodeOperationError(node, error.message, { description: error.description, itemIndex });
		const details = (error as { details?: ErrorDetail[] }).details;
		const response = {
			message: error.message,
			...(details?.length ? { errors: details } : {}),
		} as unknown as JsonObject;
		return new NodeApiError(node, response, {
			message: error.message,
			description: error.description,
			httpCode: String(error.httpCode),
			itemIndex,
		});
	}
	if (error instanceof NodeApiError || error instanceof NodeOperationError) {
		if (itemIndex !== undefined && error.context.itemIndex === undefined) error.context.itemIndex = itemIndex;
		return error;
	}
	const message = error instanceof Error ? error.message : String(error);
	return new NodeOperationError(node, shortText(message) ?? 'Unexpected error', { itemIndex });
}

/** The outcome of some work, failure included, as a value (the caller decides what a failure means). */
export async function settle<T>(work: () => Promise<T>): Promise<{ value: T } | { error: unknown }> {
	try {
		return { value: await work() };
	} catch (error) {
		return { error };
	}
}
