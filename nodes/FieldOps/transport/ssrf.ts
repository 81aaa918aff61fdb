import { FieldOpsFailure } from './errors';

/** What n8n's SSRF protection refused, read from its error (n8n may wrap it in a node error: its `cause`). */
interface SsrfBlock {
	/** The host name it refused, or its IP address. */
	target: string;
	/** The address the host name resolved to, when that was refused. */
	ip?: string;
	/** Refused by name (N8N_SSRF_BLOCKED_HOSTNAMES) rather than by address range. */
	byName: boolean;
}

const BLOCKED =
	/blocked because (it resolves to a restricted IP address|the destination hostname is restricted)/;

function ssrfBlock(error: unknown, url: string): SsrfBlock | undefined {
	for (let cause = error, depth = 0; cause && typeof cause === 'object' && depth < 5; depth++) {
		const { name, message, hostname, ip } = cause as Record<string, unknown>;
		if (/^SsrfBlocked(Ip|Hostname)Error$/.test(String(name)) || BLOCKED.test(String(message))) {
			let host = typeof hostname === 'string' && hostname ? hostname : '';
			if (!host && URL.canParse(url)) host = new URL(url).hostname;
			return {
				target: host || String(ip ?? 'the address'),
				ip: typeof ip === 'string' ? ip : undefined,
				byName: String(name) === 'SsrfBlockedHostnameError' || /hostname is restricted/.test(String(message)),
			};
		}
		cause = (cause as { cause?: unknown }).cause;
	}
	return undefined;
}

/**
 * n8n's SSRF protection (on by default in n8n 3.0) refused one of the credential's addresses: say so, naming the
 * credential field and the n8n settings that allow it, instead of a bare "could not connect".
 */
export function ssrfFailure(error: unknown, url: string, field: string): FieldOpsFailure | undefined {
	const block = ssrfBlock(error, url);
	if (!block) return undefined;
	const where = block.ip && block.ip !== block.target ? `${block.target} (${block.ip})` : block.target;
	return new FieldOpsFailure(
		`n8n's SSRF protection blocked the request to ${where}, the ${field} of the Field Ops credential`,
		block.byName
			? `The host name is on n8n's deny-list. If it is your Field Ops address, ask your n8n administrator to remove it from N8N_SSRF_BLOCKED_HOSTNAMES or add it to N8N_SSRF_ALLOWED_HOSTNAMES, then restart n8n and its workers.`
			: `It resolves to an address range n8n blocks (private or local networks). If it is your Field Ops address, ask your n8n administrator to allow it: add ${block.target} to N8N_SSRF_ALLOWED_HOSTNAMES (or its address range to N8N_SSRF_ALLOWED_IP_RANGES), then restart n8n and its workers.`,
	);
}
