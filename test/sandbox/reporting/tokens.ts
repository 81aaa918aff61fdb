import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

import { badRequest } from '../http';

/** The per-process key continuation tokens are signed with: a token is opaque and cannot be forged or edited. */
const KEY = randomBytes(32);

export interface Position {
	/** Sort time of the last record returned. */
	t: number;
	/** Id of the last record returned (ties on `t` are ordered by id). */
	id: string;
	/** Image extraction: index of the source being read (feed, alert, checklist). */
	src?: number;
	/** Fingerprint of the filters of the first request: a token only continues the query it came from. */
	q: string;
}

const sign = (payload: string) => createHmac('sha256', KEY).update(payload).digest('base64url').slice(0, 22);

export function encodeToken(position: Position): string {
	const payload = Buffer.from(JSON.stringify(position)).toString('base64url');
	return `${payload}.${sign(payload)}`;
}

export function decodeToken(token: string, queryFingerprint: string): Position {
	const [payload, signature] = token.split('.');
	const expected = payload ? sign(payload) : '';
	if (
		!payload ||
		!signature ||
		signature.length !== expected.length ||
		!timingSafeEqual(Buffer.from(signature), Buffer.from(expected))
	) {
		throw badRequest(
			'ContinuationToken is malformed: send back the token of the previous page unchanged',
			'ContinuationToken',
			'InvalidToken',
		);
	}
	const position = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Position;
	if (position.q !== queryFingerprint) {
		throw badRequest(
			"ContinuationToken belongs to a query with other parameters: repeat the first request's parameters unchanged",
			'ContinuationToken',
			'InvalidToken',
		);
	}
	return position;
}
