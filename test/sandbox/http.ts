import type { IncomingMessage } from 'node:http';

import type { SafeParseReturnType, ZodError, ZodType } from 'zod';

import { DEFAULT_VARIANT, type Variant } from './variant';

export type Scope = 'serviceapiv3' | 'reportingapiv1' | 'masstransportapiv1';
export const ALL_SCOPES: readonly Scope[] = ['serviceapiv3', 'reportingapiv1', 'masstransportapiv1'];

export interface Caller {
	clientId: string;
	companyId: string;
	scopes: Scope[];
	administrator: boolean;
}

export interface Reply {
	status: number;
	/** Serialised as JSON (a bare `true`/`false` too). */
	json?: unknown;
	/** Raw bytes or text, sent as is. */
	body?: Buffer | string;
	headers?: Record<string, string>;
}

/** One validation problem; how it is written in an answer depends on the variant (see `errorReply`). */
export interface ErrorDetail {
	category?: string;
	code?: string;
	field?: string;
	message: string;
}

/** An API error; `errorReply` writes it in the body the variant chooses for the route. */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: ErrorDetail[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}
}

/** A 401/403 of the bearer check, before the API itself is reached. */
export class AuthError extends ApiError {}

const REASONS: Record<number, string> = {
	400: 'One or more validation errors occurred.',
	401: 'Unauthorized',
	403: 'Forbidden',
	404: 'Not Found',
	405: 'Method Not Allowed',
	409: 'Conflict',
	413: 'Payload Too Large',
};

/** Which API a path belongs to, for the error body choice [E1]. */
export type ErrorApi = 'core' | 'v5' | 'reporting' | 'machineState' | 'identity';

/**
 * The answer of an error. Employees v5 documents `{message, errors[]}`; the other bodies are not shown, so the
 * variant chooses [E1]: the same v5 shape, RFC 7807 problem details (ASP.NET's ValidationProblemDetails), or
 * plain text. [E2] turns a duplicate into 409 outside v5; [A5] may leave auth failures without a body.
 */
export function errorReply(error: ApiError, variant: Variant, api: ErrorApi): Reply {
	const headers = { ...error.headers };
	if (error instanceof AuthError && variant.authErrorBody === 'empty')
		return { status: error.status, headers };
	const duplicate = error.status === 400 && error.errors.some((e) => e.code === 'Duplicate');
	const status = duplicate && api !== 'v5' ? variant.duplicateStatus : error.status;
	const style =
		api === 'core'
			? variant.errorBody.core
			: api === 'reporting'
				? variant.errorBody.reporting
				: api === 'machineState'
					? variant.errorBody.machineState
					: 'v5';
	if (style === 'text') {
		const lines = error.errors
			.filter((e) => e.message !== error.message)
			.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
		return {
			status,
			body: [error.message, ...lines].join('\n'),
			headers: { ...headers, 'Content-Type': 'text/plain; charset=utf-8' },
		};
	}
	if (style === 'problem') {
		const problem: Record<string, unknown> = {
			type: `https://httpstatuses.io/${status}`,
			title: REASONS[status] ?? error.message,
			status,
			detail: error.message,
		};
		if (error.errors.length > 0) {
			const errors: Record<string, string[]> = {};
			for (const e of error.errors)
				(errors[e.field ?? ''] ??= []).push(
					e.code && e.code.includes('.') ? `${e.code}: ${e.message}` : e.message,
				);
			problem.errors = errors;
		}
		return {
			status,
			json: problem,
			headers: { ...headers, 'Content-Type': 'application/problem+json; charset=utf-8' },
		};
	}
	const json: Record<string, unknown> = { message: error.message };
	if (error.errors.length > 0) json.errors = error.errors;
	return { status, json, headers };
}

export const badRequest = (message: string, field?: string, code = 'Validation') =>
	new ApiError(400, message, field ? [{ category: 'Validation', code, field, message }] : []);
export const notFound = (message: string) => new ApiError(404, message);
export const forbidden = (message: string) => new ApiError(403, message);
export const conflict = (message: string, field?: string) =>
	new ApiError(409, message, field ? [{ category: 'Conflict', code: 'Duplicate', field, message }] : []);

export class RequestContext {
	/** Path parameters, already URL-decoded (one path segment each). */
	params: Record<string, string> = {};
	caller: Caller | undefined;
	routeTemplate = '';
	/** The sandbox's choices (set by the server; control endpoints keep their own strict rules). */
	variant: Variant = DEFAULT_VARIANT;
	/** [E3] Unknown JSON fields are dropped instead of refused (service routes of a lenient variant). */
	ignoreUnknownFields = false;
	private rawBodyPromise: Promise<Buffer> | undefined;

	constructor(
		readonly req: IncomingMessage,
		readonly method: string,
		readonly path: string,
		readonly query: URLSearchParams,
	) {}

	/** The authenticated caller; routes with a scope always have one. */
	get auth(): Caller {
		if (!this.caller) throw new ApiError(401, 'Missing bearer token');
		return this.caller;
	}

	header(name: string): string | undefined {
		const value = this.req.headers[name.toLowerCase()];
		return Array.isArray(value) ? value[0] : value;
	}

	rawBody(limit = this.variant.bodyLimits.json): Promise<Buffer> {
		this.rawBodyPromise ??= readBody(this.req, limit);
		return this.rawBodyPromise;
	}

	/** The JSON body, validated with `schema` when given; malformed JSON or a mismatch is a 400. */
	async json<T = unknown>(schema?: ZodType<T>): Promise<T> {
		const raw = await this.rawBody();
		let parsed: unknown;
		try {
			parsed = JSON.parse(raw.length === 0 ? 'null' : raw.toString('utf8'));
		} catch {
			throw badRequest('The request body is not valid JSON', 'body');
		}
		if (!schema) return parsed as T;
		return parseWith(schema, parsed, this.ignoreUnknownFields);
	}

	queryParam(name: string): string | undefined {
		const value = this.query.get(name);
		return value === null ? undefined : value;
	}
}

/**
 * Validates `value`; with `ignoreUnknown` [E3] unknown fields (zod's `unrecognized_keys`, at any depth) are
 * dropped and the rest validated again, as a lenient server would.
 */
export function safeParseWith<T>(
	schema: ZodType<T>,
	value: unknown,
	ignoreUnknown: boolean,
): SafeParseReturnType<unknown, T> {
	let current = value;
	for (let attempt = 0; ; attempt++) {
		const result = schema.safeParse(current);
		if (result.success) return result;
		const unknown = result.error.issues.filter((issue) => issue.code === 'unrecognized_keys');
		if (!ignoreUnknown || unknown.length === 0 || attempt > 20) return result;
		current = structuredClone(current);
		for (const issue of unknown) {
			let target = current as Record<string | number, unknown>;
			for (const step of issue.path) target = target[step] as Record<string | number, unknown>;
			for (const key of (issue as { keys: string[] }).keys) delete target[key];
		}
	}
}

export function parseWith<T>(schema: ZodType<T>, value: unknown, ignoreUnknown: boolean): T {
	const result = safeParseWith(schema, value, ignoreUnknown);
	if (!result.success) throw validationError(result.error);
	return result.data;
}

export function validationError(error: ZodError): ApiError {
	const errors = error.issues.map((issue) => {
		const field = issue.path.length > 0 ? issue.path.join('.') : 'body';
		return { category: 'Validation', code: issue.code, field, message: `${field}: ${issue.message}` };
	});
	return new ApiError(400, errors.map((e) => e.message).join('; ') || 'Invalid request', errors);
}

function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		const declared = Number(req.headers['content-length'] ?? 0);
		if (declared > limit) {
			req.resume();
			reject(new ApiError(413, `The request body is larger than ${limit} bytes`));
			return;
		}
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > limit) {
				req.removeAllListeners('data');
				req.resume();
				reject(new ApiError(413, `The request body is larger than ${limit} bytes`));
				return;
			}
			chunks.push(chunk);
		});
		req.on('end', () => resolve(Buffer.concat(chunks)));
		req.on('error', reject);
	});
}

/** Parses a query boolean the way ASP.NET does (`true`/`false`, any case); anything else is a 400. */
export function queryBool(ctx: RequestContext, name: string): boolean | undefined {
	const value = ctx.queryParam(name);
	if (value === undefined || value === '') return undefined;
	if (/^true$/i.test(value)) return true;
	if (/^false$/i.test(value)) return false;
	throw badRequest(`${name} must be true or false`, name);
}

export function queryInt(ctx: RequestContext, name: string): number | undefined {
	const value = ctx.queryParam(name);
	if (value === undefined || value === '') return undefined;
	if (!/^-?\d+$/.test(value)) throw badRequest(`${name} must be a whole number`, name);
	return Number(value);
}

export function queryDate(ctx: RequestContext, name: string): Date | undefined {
	const value = ctx.queryParam(name);
	if (value === undefined || value === '') return undefined;
	const date = parseIsoDate(value);
	if (!date) throw badRequest(`${name} must be an ISO 8601 date-time`, name);
	return date;
}

/** ISO 8601 date or date-time; a value without an offset is read as UTC. */
export function parseIsoDate(value: string): Date | undefined {
	if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,7})?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(value))
		return undefined;
	const hasOffset = /(Z|[+-]\d{2}:?\d{2})$/.test(value) && value.length > 10;
	const date = new Date(hasOffset ? value : value.length === 10 ? `${value}T00:00:00Z` : `${value}Z`);
	return Number.isNaN(date.getTime()) ? undefined : date;
}
