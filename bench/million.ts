/**
 * 1b. A year of a large company: 1,000,000 time registrations from a sandbox adding 100 ms to every request (a
 * remote service), Items against File output (issues 18 and 33). n8n runs in filesystem binary data mode (its
 * default outside queue mode); its memory growth is measured as in issue 18 (from the RSS just before each run,
 * after the warm-up runs, without collecting first), so "≤ 64 MiB" means what it meant then. (a) the
 * raw undici loop that drops each page, following the tokens in sequence; File: Field Ops "Report → Time
 * Registrations, Return All, Output: File, CSV" of the raw records, as (a) reads them, in parallel time slices
 * (the default) and in one sequence (Parallel Requests 1); once more with Simplify on, as a new node does; Items:
 * Output: Items and a Count node, run once (a million items are too large for n8n to save, so that workflow does
 * not keep its execution and is timed by its webhook's wall time).
 */
import { COUNT_NODE, FIELD_OPS_EXPORT, FIELD_OPS_SLICED, LATENCY_MS, rawLoop } from './extraction';
import { MiB, figure, webhookWorkflow, type Figure, type Section, withSandboxAndN8n } from './lib';

const RECORDS = 1_000_000;
const SCALE = Math.ceil(RECORDS / 0.85);

const fileExport = (node: typeof FIELD_OPS_SLICED, simplify: boolean) => ({
	...node,
	name: 'Field Ops (file)',
	typeVersion: 1.1,
	parameters: { ...node.parameters, simplify, output: 'file', fileFormat: 'csv' },
});

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n(
		['--scale', String(SCALE), '--latency-ms', String(LATENCY_MS)],
		{ env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } },
		async (sandbox, bench) => {
			const warm = await rawLoop(sandbox);
			const expected = warm.records;
			const files = {
				sliced: await webhookWorkflow(bench, 'Bench: 1M time registrations to a CSV file, in slices', [
					fileExport(FIELD_OPS_SLICED, false),
				]),
				sequence: await webhookWorkflow(bench, 'Bench: 1M time registrations to a CSV file, in sequence', [
					fileExport(FIELD_OPS_EXPORT, false),
				]),
				simplified: await webhookWorkflow(
					bench,
					'Bench: 1M time registrations to a CSV file (Simplify), in slices',
					[fileExport(FIELD_OPS_SLICED, true)],
				),
			};
			const items = await webhookWorkflow(
				bench,
				'Bench: 1M time registrations as items',
				[FIELD_OPS_SLICED, COUNT_NODE],
				{
					settings: { saveDataSuccessExecution: 'none', saveManualExecutions: false },
					saved: false,
				},
			);
			const checkFile = (response: unknown, what: string) => {
				const { records, fileFormat } = response as { records?: number; fileFormat?: string };
				if (records !== expected || fileFormat !== 'csv')
					throw new Error(
						`${what} wrote ${records} records as ${fileFormat}, the sandbox serves ${expected}`,
					);
			};
			type File = keyof typeof files;
			// Unrecorded first runs: n8n loads and compiles what it needs.
			for (const file of Object.keys(files) as File[]) checkFile((await files[file].run()).response, file);

			const a: number[] = [];
			const ms: Record<File, number[]> = { sliced: [], sequence: [], simplified: [] };
			const mem: Record<File, number[]> = { sliced: [], sequence: [], simplified: [] };
			for (let i = 0; i < runs; i++) {
				const raw = await rawLoop(sandbox);
				if (raw.records !== expected) throw new Error(`raw loop read ${raw.records}, before ${expected}`);
				a.push(raw.ms);
				for (const file of Object.keys(files) as File[]) {
					const written = await files[file].run();
					checkFile(written.response, file);
					ms[file].push(written.ms);
					mem[file].push((written.rssPeak - written.rssBaseline) / MiB);
				}
			}
			const per = (x: number[]) => x.map((v, i) => v / a[i]);
			const figures: Figure[] = [
				figure(`${LATENCY_MS} ms: (a) raw undici loop in sequence, drops each page`, 'ms', a),
				figure(
					`${LATENCY_MS} ms: File in parallel time slices: CSV of the raw records (execution)`,
					'ms',
					ms.sliced,
				),
				figure(`${LATENCY_MS} ms: File in slices / a`, 'ratio', per(ms.sliced), { atMost: 0.5 }),
				figure(`${LATENCY_MS} ms: File in slices: peak RSS growth of n8n`, 'MiB', mem.sliced, { atMost: 64 }),
				figure(`${LATENCY_MS} ms: File in sequence (execution)`, 'ms', ms.sequence),
				figure(`${LATENCY_MS} ms: File in sequence / a (reference)`, 'ratio', per(ms.sequence)),
				figure(`${LATENCY_MS} ms: File in sequence: peak RSS growth of n8n`, 'MiB', mem.sequence),
				figure(`${LATENCY_MS} ms: File with Simplify, in slices (execution)`, 'ms', ms.simplified),
				figure(`${LATENCY_MS} ms: File with Simplify / a`, 'ratio', per(ms.simplified)),
				figure(`${LATENCY_MS} ms: File with Simplify: peak RSS growth of n8n`, 'MiB', mem.simplified),
			];
			const notes: string[] = [];
			// Last, once: it may take n8n to its memory limit.
			try {
				const raw = await rawLoop(sandbox);
				const once = await items.run();
				const count = (once.response as { count_id?: number }).count_id;
				if (count !== expected)
					throw new Error(`Items returned ${count} records, the sandbox serves ${expected}`);
				figures.push(
					figure(`${LATENCY_MS} ms: Items in slices (webhook wall time, execution not saved), 1 run`, 'ms', [
						once.ms,
					]),
					figure(`${LATENCY_MS} ms: Items / a (same round)`, 'ratio', [once.ms / raw.ms]),
					figure(`${LATENCY_MS} ms: Items: peak RSS growth of n8n`, 'MiB', [
						(once.rssPeak - once.rssBaseline) / MiB,
					]),
				);
			} catch (error) {
				notes.push(
					`Items output of ${expected} records failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`,
				);
			}
			return {
				id: 'million',
				title: `${expected} time registrations at ${LATENCY_MS} ms per request: Items against File output (filesystem binary data)`,
				facts: { records: expected, rawPagesAt10000: warm.pages, latencyMs: LATENCY_MS },
				figures,
				notes,
			};
		},
	);
}
