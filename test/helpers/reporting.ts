import { call, tokenFor, type RunningSandbox } from './sandbox';

/** Reference reader: follows continuation tokens with plain HTTP, as the spec describes. */
export async function readFeed(
	sb: RunningSandbox,
	path: string,
	query: Record<string, string | number | boolean | string[] | undefined>,
	chunkLimit = 10_000,
) {
	const token = await tokenFor(sb);
	const records: Record<string, unknown>[] = [];
	let continuationToken: string | undefined;
	do {
		const res = await call(sb.reportingUrl, path, {
			token,
			query: { ...query, ChunkLimit: chunkLimit, ContinuationToken: continuationToken },
		});
		if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
		records.push(...(res.body.data as Record<string, unknown>[]));
		continuationToken = res.body.continuationToken || undefined;
	} while (continuationToken);
	return records;
}
