/**
 * 1b. A year of a large company: 1,000,000 time registrations, Items against File output (issue 18). n8n runs in
 * filesystem binary data mode (its default outside queue mode). (a) the raw undici loop that drops each page;
 * File: Field Ops "Report → Time Registrations, Return All, Output: File, CSV" (raw records, as (a) reads them;
 * once more with Simplify on, as a new node does); Items: the same node with Output: Items and a Count node,
 * run once (a million items are too large for n8n to save, so that workflow does not keep its execution and is
 * timed by its webhook's wall time). The sandbox runs in its own process at 0 ms per request.
 */
import { COUNT_NODE, FIELD_OPS_EXPORT, rawLoop } from './extraction';
import { MiB, figure, webhookWorkflow, type Figure, type Section, withSandboxAndN8n } from './lib';

const RECORDS = 1_000_000;
const SCALE = Math.ceil(RECORDS / 0.85);

const fileExport = (simplify: boolean) => ({
	...FIELD_OPS_EXPORT,
	name: 'Field Ops (file)',
	typeVersion: 1.1,
	parameters: { ...FIELD_OPS_EXPORT.parameters, simplify, output: 'file', fileFormat: 'csv', options: {} },
});

export async function run({ runs }: { runs: number }): Promise<Section> {
	return withSandboxAndN8n(
		['--scale', String(SCALE)],
		{ env: { N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem' } },
		async (sandbox, bench) => {
			const warm = await rawLoop(sandbox);
			const expected = warm.records;
			const fileRaw = await webhookWorkflow(bench, 'Bench: 1M time registrations to a CSV file', [
				fileExport(false),
			]);
			const fileSimple = await webhookWorkflow(
				bench,
				'Bench: 1M time registrations to a CSV file (Simplify)',
				[fileExport(true)],
			);
			const items = await webhookWorkflow(
				bench,
				'Bench: 1M time registrations as items',
				[FIELD_OPS_EXPORT, COUNT_NODE],
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
			// Unrecorded first runs: n8n loads and compiles what it needs.
			checkFile((await fileRaw.run()).response, 'File');
			checkFile((await fileSimple.run()).response, 'File (Simplify)');

			const a: number[] = [];
			const f: number[] = [];
			const fs: number[] = [];
			const fMem: number[] = [];
			const fsMem: number[] = [];
			for (let i = 0; i < runs; i++) {
				const raw = await rawLoop(sandbox);
				if (raw.records !== expected) throw new Error(`raw loop read ${raw.records}, before ${expected}`);
				a.push(raw.ms);
				const file = await fileRaw.run();
				checkFile(file.response, 'File');
				f.push(file.ms);
				fMem.push((file.rssPeak - file.rssBaseline) / MiB);
				const simple = await fileSimple.run();
				checkFile(simple.response, 'File (Simplify)');
				fs.push(simple.ms);
				fsMem.push((simple.rssPeak - simple.rssBaseline) / MiB);
			}
			const figures: Figure[] = [
				figure('(a) raw undici loop, drops each page', 'ms', a),
				figure('File: CSV of the raw records (execution)', 'ms', f),
				figure(
					'File / a',
					'ratio',
					f.map((v, i) => v / a[i]),
					{ atMost: 1.3 },
				),
				figure('File: peak RSS growth of n8n', 'MiB', fMem, { atMost: 64 }),
				figure('File with Simplify (execution)', 'ms', fs),
				figure(
					'File with Simplify / a',
					'ratio',
					fs.map((v, i) => v / a[i]),
				),
				figure('File with Simplify: peak RSS growth of n8n', 'MiB', fsMem),
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
					figure('Items (webhook wall time, execution not saved), 1 run', 'ms', [once.ms]),
					figure('Items / a (same round)', 'ratio', [once.ms / raw.ms]),
					figure('Items: peak RSS growth of n8n', 'MiB', [(once.rssPeak - once.rssBaseline) / MiB]),
				);
			} catch (error) {
				notes.push(
					`Items output of ${expected} records failed: ${error instanceof Error ? error.message.slice(0, 300) : String(error)}`,
				);
			}
			return {
				id: 'million',
				title: `${expected} time registrations: Items against File output (filesystem binary data)`,
				facts: { records: expected, rawPagesAt10000: warm.pages },
				figures,
				notes,
			};
		},
	);
}
