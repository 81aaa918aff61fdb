import { ACCESS_TOKEN, CLIENT_SECRET } from './fake';
import type { Outcome } from './setup';

/**
 * Where the client secret or the access token appears in a value: every string reachable from it, own properties
 * enumerable or not (message, stack, cause), so an error kept in the execution data is searched whole.
 */
export function secretsIn(value: unknown): string[] {
	const found: string[] = [];
	const seen = new WeakSet<object>();
	const visit = (node: unknown, path: string, depth: number) => {
		if (typeof node === 'string') {
			for (const secret of [CLIENT_SECRET, ACCESS_TOKEN])
				if (node.includes(secret)) found.push(`${path}: ${node.slice(0, 200)}`);
			return;
		}
		if (!node || typeof node !== 'object' || depth > 40 || seen.has(node)) return;
		seen.add(node);
		if (Buffer.isBuffer(node)) return visit(node.toString('latin1'), path, depth);
		for (const key of Object.getOwnPropertyNames(node)) {
			let child: unknown;
			try {
				child = (node as Record<string, unknown>)[key];
			} catch {
				continue;
			}
			visit(child, `${path}.${key}`, depth + 1);
		}
	};
	visit(value, '$', 0);
	return found;
}

/** The secret and the token are nowhere: not in the execution data (as n8n stores it, and whole), output or error. */
export function expectNoSecrets(outcome: Outcome): void {
	const stored =
		JSON.stringify(outcome.run ?? null) +
		JSON.stringify(outcome.items) +
		JSON.stringify(outcome.error ?? null);
	expect(stored).not.toContain(CLIENT_SECRET);
	expect(stored).not.toContain(ACCESS_TOKEN);
	expect(
		secretsIn({
			run: outcome.run,
			items: outcome.items,
			error: outcome.error,
			message: outcome.message,
			description: outcome.description,
		}),
	).toEqual([]);
}
