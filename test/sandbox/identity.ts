import { randomBytes } from 'node:crypto';

import { ALL_SCOPES, AuthError, type Caller, type Reply, type RequestContext, type Scope } from './http';
import type { Router } from './router';
import type { Sandbox } from './sandbox';

/** RFC 6749 §5.2 error response. */
function oauthError(
	status: number,
	error: string,
	description: string,
	headers: Record<string, string> = {},
): Reply {
	return {
		status,
		json: { error, error_description: description },
		headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache', ...headers },
	};
}

async function issueToken(ctx: RequestContext, sandbox: Sandbox): Promise<Reply> {
	const contentType = ctx.header('content-type') ?? '';
	if (!contentType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
		return oauthError(400, 'invalid_request', 'The token request must be application/x-www-form-urlencoded');
	}
	const form = new URLSearchParams((await ctx.rawBody()).toString('utf8'));
	if (form.get('grant_type') !== 'client_credentials') {
		return form.get('grant_type')
			? oauthError(400, 'unsupported_grant_type', 'Only grant_type=client_credentials is supported')
			: oauthError(400, 'invalid_request', 'grant_type is missing');
	}

	// Client authentication in the body or with HTTP Basic (RFC 6749 §2.3.1); Basic failures get 401.
	let clientId = form.get('client_id');
	let clientSecret = form.get('client_secret');
	const authorization = ctx.header('authorization');
	const viaBasic = authorization?.toLowerCase().startsWith('basic ') ?? false;
	// [A3] The spec names only the form fields; a stricter server refuses Basic.
	if (viaBasic && sandbox.variant.tokenBasicAuth === 'refused') {
		return oauthError(401, 'invalid_client', 'Send client_id and client_secret as form fields', {
			'WWW-Authenticate': 'Basic realm="token"',
		});
	}
	if (viaBasic && authorization) {
		const decoded = Buffer.from(authorization.slice(6).trim(), 'base64').toString('utf8');
		const colon = decoded.indexOf(':');
		clientId = decodeURIComponent(decoded.slice(0, colon < 0 ? undefined : colon));
		clientSecret = colon < 0 ? '' : decodeURIComponent(decoded.slice(colon + 1));
	}
	if (!clientId) return oauthError(400, 'invalid_request', 'client_id is missing');
	const client = sandbox.world.clients.find((c) => c.clientId === clientId);
	if (!client || client.clientSecret !== clientSecret) {
		return viaBasic
			? oauthError(401, 'invalid_client', 'Unknown client or wrong client secret', {
					'WWW-Authenticate': 'Basic realm="token"',
				})
			: oauthError(400, 'invalid_client', 'Unknown client or wrong client secret');
	}

	const requested = (form.get('scope') ?? '').split(/[\s+]+/).filter(Boolean);
	const unknown = requested.filter((s) => !ALL_SCOPES.includes(s as Scope));
	const denied = requested.filter((s) => !client.scopes.includes(s as Scope));
	// [A1] A scope the client lacks: refused, or (RFC 6749 §3.3) left out of the token, whose `scope` says so.
	const dropsDenied = sandbox.variant.unpermittedScope === 'dropped' && denied.length < requested.length;
	if (unknown.length > 0 || (denied.length > 0 && !dropsDenied)) {
		return oauthError(
			400,
			'invalid_scope',
			`Scope not allowed for this client: ${[...new Set([...unknown, ...denied])].join(' ')}`,
		);
	}
	// [A2] Without `scope`: every scope of the client, or refused.
	if (requested.length === 0 && sandbox.variant.tokenWithoutScope === 'invalidScope') {
		return oauthError(
			400,
			'invalid_scope',
			'scope is missing: request serviceapiv3, reportingapiv1 and/or masstransportapiv1',
		);
	}
	const scopes = (
		requested.length > 0 ? requested.filter((s) => !denied.includes(s)) : client.scopes
	) as Scope[];

	const accessToken = `sbx.${randomBytes(24).toString('base64url')}`;
	sandbox.tokens.set(accessToken, {
		clientId: client.clientId,
		companyId: client.companyId,
		scopes,
		administrator: client.administrator,
		expiresAtMs: Date.now() + sandbox.tokenTtlSeconds * 1000,
	});
	sandbox.stats.tokensIssued += 1;
	return {
		status: 200,
		json: {
			access_token: accessToken,
			expires_in: sandbox.tokenTtlSeconds,
			token_type: 'Bearer',
			scope: scopes.join(' '),
		},
		headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
	};
}

/**
 * Checks the bearer token of a request to a route that needs `scope`.
 * Missing, malformed, unknown or expired → 401. A valid token without the route's scope → 403
 * (RFC 6750 §3.1 `insufficient_scope`).
 */
export function authenticate(ctx: RequestContext, sandbox: Sandbox, scope: Scope): Caller {
	const header = ctx.header('authorization');
	const match = header ? /^Bearer\s+(\S+)$/i.exec(header.trim()) : null;
	if (!match) {
		throw new AuthError(
			401,
			header ? 'The Authorization header is not a bearer token' : 'Missing bearer token',
			[],
			{
				'WWW-Authenticate': header ? 'Bearer error="invalid_request"' : 'Bearer',
			},
		);
	}
	const token = sandbox.tokens.get(match[1]);
	if (!token || token.expiresAtMs <= Date.now()) {
		throw new AuthError(401, token ? 'The access token has expired' : 'The access token is not valid', [], {
			'WWW-Authenticate': `Bearer error="invalid_token", error_description="${token ? 'expired' : 'invalid'}"`,
		});
	}
	if (!token.scopes.includes(scope)) {
		// [A4] 403 insufficient_scope (RFC 6750), or 401 as a gateway that checks the token's audience answers.
		if (sandbox.variant.missingScopeStatus === 401) {
			throw new AuthError(401, `The access token is not valid for this API (scope ${scope} missing)`, [], {
				'WWW-Authenticate': `Bearer error="invalid_token", error_description="The audience is invalid"`,
			});
		}
		throw new AuthError(403, `The access token lacks the scope ${scope} needed by this API`, [], {
			'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${scope}"`,
		});
	}
	return {
		clientId: token.clientId,
		companyId: token.companyId,
		scopes: token.scopes,
		administrator: token.administrator,
	};
}

export function registerIdentity(router: Router): void {
	router.add('identity', 'POST', '/connect/token', null, issueToken);
}
