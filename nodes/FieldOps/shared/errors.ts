import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

interface ApiErrorDetail {
	code?: string;
	field?: string;
	message?: string;
}

interface ApiErrorBody {
	message?: string;
	errors?: ApiErrorDetail[];
	error?: string;
	error_description?: string;
}

const MACHINE_TYPE_INVALID = 'MachineService.machineTypeInvalid';

/** What a foreman can do about each status, when the API's own message is not enough. */
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

function asBody(body: unknown): ApiErrorBody {
	if (body && typeof body === 'object' && !Array.isArray(body)) return body as ApiErrorBody;
	if (typeof body === 'string' && body.trim().startsWith('{')) {
		try {
			return JSON.parse(body) as ApiErrorBody;
		} catch {
			return { message: body };
		}
	}
	return typeof body === 'string' && body ? { message: body } : {};
}

/** "field — message" lines for the validation errors of a response (employees v5 shape, used everywhere). */
export function describeErrors(body: ApiErrorBody): string[] {
	return (body.errors ?? []).map((e) => {
		if (e.code === MACHINE_TYPE_INVALID) {
			return `${e.field ?? 'typeId'} — ${e.message ?? 'unknown machine type'}. Pick a type from the "Machine Type" list (it shows the types configured for your company), or add the type in the Field Ops web administration. Equipment does not need a valid type.`;
		}
		let message = e.message ?? e.code ?? 'invalid';
		if (!e.field) return message;
		// Validation messages often repeat the field ("lastName: too short", "employeeNumber 12 is used"): say it once.
		if (message.startsWith(`${e.field}:`)) message = message.slice(e.field.length + 1).trim();
		return `${e.field} — ${message}`;
	});
}

/**
 * Turns a Field Ops error response into a NodeApiError whose message says what went wrong and whose
 * description says what to do. `what` names the thing the request was about ("project", "work order").
 */
export function fieldOpsApiError(
	node: INode,
	statusCode: number,
	body: unknown,
	what?: string,
	itemIndex?: number,
): NodeApiError {
	const parsed = asBody(body);
	const details = describeErrors(parsed);
	const apiMessage = parsed.message ?? parsed.error_description ?? parsed.error;
	let message: string;
	if (statusCode === 404)
		message = `${what ? `The ${what} was not found` : 'Not found'}${apiMessage ? `: ${apiMessage}` : ''}`;
	else if (statusCode === 403)
		message = `No access${what ? ` to this ${what}` : ''}${apiMessage ? `: ${apiMessage}` : ''}`;
	else if (details.length > 0)
		message = `Field Ops refused the request: ${details.length === 1 ? details[0] : `${details.length} problems`}`;
	else
		message = apiMessage
			? `Field Ops answered ${statusCode}: ${apiMessage}`
			: `Field Ops answered ${statusCode}`;
	const hint = HINTS[statusCode] ?? (statusCode >= 500 ? HINTS[500] : undefined);
	const description = [details.length > 1 ? details.join('\n') : undefined, hint]
		.filter(Boolean)
		.join('\n\n');
	return new NodeApiError(
		node,
		{ message: apiMessage ?? '', errors: (parsed.errors ?? []) as unknown as JsonObject[] } as JsonObject,
		{
			message,
			description,
			httpCode: String(statusCode),
			itemIndex,
		},
	);
}

/** An error to rethrow from code operations: n8n's own node errors as they are, anything else wrapped. */
export function asNodeError(node: INode, error: unknown, itemIndex?: number): NodeApiError | NodeOperationError {
	if (error instanceof NodeApiError || error instanceof NodeOperationError) return error;
	return new NodeOperationError(node, error as Error, { itemIndex });
}
