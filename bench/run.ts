/**
 * `npm run bench [-- --only extraction,tokens --runs 5 --seeds 1-12]`: every benchmark section side by side in
 * one run; writes `bench/results/latest.json` and prints a table (min / median / max of each figure, its target).
 * Build first (`npm run build`); real n8n is installed on first use. See bench/README.md.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { ensureN8n, node24Env } from '../scripts/n8n/install';
import { ROOT, summarize, type Section } from './lib';

export interface SectionOptions {
	/** Measured runs per figure (at least 5 for the table). */
	runs: number;
	/** Seeds for the simulated soaks (`--seeds 1-12` or `--seeds 3,7`): one run each instead of `runs`. */
	seeds?: number[];
}

type SectionModule = { run(options: SectionOptions): Promise<Section> };

/** In the order of bench/README.md; each section is `bench/<id>.ts` exporting `run(options): Promise<Section>`. */
const SECTIONS = ['extraction', 'million', 'tokens', 'bulk', 'trigger', 'documents', 'upsert'];

const loadSection = async (id: string) => (await import(`./${id}`)) as SectionModule;

const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

function table(sections: Section[]): string {
	const rows = [['section', 'figure', 'unit', 'min', 'median', 'max', 'n', 'target', 'met']];
	for (const section of sections) {
		for (const f of section.figures) {
			const s = summarize(f.samples);
			rows.push([
				section.id,
				f.name,
				f.unit,
				String(round(s.min)),
				String(round(s.median)),
				String(round(s.max)),
				String(f.samples.length),
				f.target ?? '',
				f.met === undefined ? '' : f.met ? 'yes' : 'NO',
			]);
		}
	}
	const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
	const line = (row: string[]) => `| ${row.map((cell, column) => cell.padEnd(widths[column])).join(' | ')} |`;
	return [
		line(rows[0]),
		`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`,
		...rows.slice(1).map(line),
	].join('\n');
}

/** `1-12`, `3,7` or `5`: the seeds, ascending as written. */
function seedList(text: string): number[] {
	const seeds = text.split(',').flatMap((part) => {
		const [from, to = from] = part.split('-').map((value) => Number(value.trim()));
		return Array.from({ length: to - from + 1 }, (_, i) => from + i);
	});
	if (seeds.length === 0 || !seeds.every(Number.isInteger))
		throw new Error(`--seeds takes whole numbers, as 1-12 or 3,7; got "${text}"`);
	return seeds;
}

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			only: { type: 'string' },
			runs: { type: 'string', default: '5' },
			seeds: { type: 'string' },
			'no-build': { type: 'boolean', default: false },
		},
	});
	const runs = Number(values.runs);
	if (!Number.isInteger(runs) || runs < 1)
		throw new Error(`--runs must be a whole number ≥ 1, got "${values.runs}"`);
	const seeds = values.seeds === undefined ? undefined : seedList(values.seeds);
	const wanted = values.only ? values.only.split(',').map((s) => s.trim()) : SECTIONS;
	const unknown = wanted.filter((id) => !SECTIONS.includes(id));
	if (unknown.length)
		throw new Error(`unknown section(s) ${unknown.join(', ')}; known: ${SECTIONS.join(', ')}`);

	if (!values['no-build'])
		execFileSync('npm', ['run', 'build', '--silent'], {
			cwd: ROOT,
			env: node24Env(),
			stdio: ['ignore', 'ignore', 'inherit'],
		});
	await ensureN8n();

	const machine = {
		cores: cpus().length,
		cpu: cpus()[0]?.model,
		memoryGiB: Math.round(totalmem() / 2 ** 30),
		node: process.version,
		loadAverageAtStart: loadavg().map(round),
	};
	const started = new Date();
	const sections: Section[] = [];
	for (const id of wanted) {
		const sectionStarted = performance.now();
		console.error(`bench: ${id}…`);
		const section = await (await loadSection(id)).run({ runs, seeds });
		console.error(`bench: ${id} done in ${Math.round((performance.now() - sectionStarted) / 1000)} s`);
		sections.push(section);
	}

	const result = {
		date: started.toISOString(),
		machine: { ...machine, loadAverageAtEnd: loadavg().map(round) },
		runs,
		sections: sections.map((section) => ({
			...section,
			figures: section.figures.map((f) => ({ ...f, ...summarize(f.samples) })),
		})),
	};
	mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
	// A partial run (--only) must not overwrite the full table's file.
	const file = join(ROOT, 'bench', 'results', values.only ? 'partial.tmp.json' : 'latest.json');
	writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);

	console.log(
		`Field Ops benchmarks — ${started.toISOString().slice(0, 10)}, ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${process.version}, load ${machine.loadAverageAtStart.join(' ')}`,
	);
	console.log(table(sections));
	for (const section of sections)
		for (const note of section.notes ?? []) console.log(`- ${section.id}: ${note}`);
	console.log(`\nwritten to ${file}`);
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
