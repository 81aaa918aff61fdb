import type { IncomingMessage } from 'node:http';

import type { ZodError, ZodType } from 'zod';

/** Bodies larger than this are refused with 413 before they are read whole. */
export const MAX_JSON_BODY_BYTES = 5 * 1024 * 1024;
export const MAX_UPLOAD_BODY_BYTES = 1024 * 1024 * 1024;

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

/** One error body shape for the whole core API; see test/sandbox/README.md ("Error bodies"). */
export interface ErrorDetail {
	category?: string;
	code?: string;
	field?: string;
	message: string;
}

/**
 * An API error. Employees v5 documents `{message, errors[]}`; the spec does not show the other error
 * bodies, so every route uses that same shape (kept here, in one place).
 */
export class ApiError extends Error {
	constructor(
		readonly status: number,
		message: string,
		readonly errors: ErrorDetail[] = [],
		readonly headers: Record<string, string> = {},
	) {
		super(message);
	}

	toReply(): Reply {
		const json: Record<string, unknown> = { message: this.message };
		if (this.errors.length > 0) json.errors = this.errors;
		return { status: this.status, json, headers: this.headers };
	}
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

	rawBody(limit = MAX_JSON_BODY_BYTES): Promise<Buffer> {
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
		const result = schema.safeParse(parsed);
		if (!result.success) throw validationError(result.error);
		return result.data;
	}

	queryParam(name: string): string | undefined {
		const value = this.query.get(name);
		return value === null ? undefined : value;
	}
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
