/** Times and content hashes of records, kept small enough for n8n's static data. */

/** Epoch milliseconds of an API timestamp; a time without a zone is UTC. */
export function parseTimestamp(value: unknown): number | undefined {
	if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
	if (typeof value !== 'string' || value === '') return undefined;
	const zoned = /T.*(Z|[+-]\d\d:?\d\d)$/i.test(value) || !value.includes('T') ? value : `${value}Z`;
	const time = Date.parse(zoned);
	return Number.isNaN(time) ? undefined : time;
}

/** 64-bit content fingerprint (hex): a hash of the canonical JSON. */
export function fingerprintOf(value: unknown): string {
	return hashOf(canonicalJson(value));
}

/** Two FNV-1a lanes (forward and backward) over the text, as 16 hex digits. */
function hashOf(text: string): string {
	const { imul } = Math; // one global lookup, not two per character (slow in sandboxed contexts)
	let forward = 0x811c9dc5;
	let backward = 0x050c5d1f;
	for (let i = 0; i < text.length; i++) {
		forward = imul(forward ^ text.charCodeAt(i), 0x01000193);
		backward = imul(backward ^ text.charCodeAt(text.length - 1 - i), 0x01000193);
	}
	const hex = (lane: number) => (lane >>> 0).toString(16).padStart(8, '0');
	return hex(forward) + hex(backward);
}

/** 48 bits of a hash, as 8 base64url characters: small enough to keep thousands in n8n's static data. */
export function tokenOf(text: string): string {
	return Buffer.from(hashOf(text).slice(0, 12), 'hex').toString('base64url');
}

/** JSON with object keys sorted, so the same content always hashes alike whatever the key order. */
function canonicalJson(value: unknown): string {
	if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
	if (typeof value === 'object' && value !== null) {
		const entries = Object.keys(value)
			.sort()
			.filter((key) => (value as Record<string, unknown>)[key] !== undefined)
			.map((key) => `${JSON.stringify(key)}:${canonicalJson((value as Record<string, unknown>)[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value) ?? 'null';
}
