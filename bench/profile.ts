/**
 * `npm run bench:profile [-- --file] [-- --floor | --sliced] [-- --page-size N]`: where (b) of the extraction spends its time (or
 * (d), the floor node, or (b∥), the slices). Runs Field Ops "Report → Time Registrations, Return All" over
 * 100,000 records three times in a real n8n while n8n's own CPU profiler
 * (the inspector, on loopback) records, then prints self time by package and by function. `--file` profiles
 * Output: File (CSV of the raw records, filesystem binary data) instead, the export of the `million` section at a
 * tenth of its size. The profile covers the executions and their saving; it is written to
 * bench/results/extraction.tmp.cpuprofile (open it in Chrome's DevTools for the call tree). Build first.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

import { freePort } from '../scripts/n8n/run';
import { FIELD_OPS_EXPORT, FIELD_OPS_SLICED, FLOOR_EXPORT, SCALE } from './extraction';
import { floorExtensionEnv } from './floor';
import { ROOT, connectInspector, webhookWorkflow, withSandboxAndN8n } from './lib';

const RUNS = 3;

interface Profile {
	nodes: {
		id: number;
		callFrame: { functionName: string; url: string; lineNumber: number };
		children?: number[];
	}[];
	samples: number[];
	timeDeltas: number[];
}

function selfTimeTable(
	profile: Profile,
	keyOf: (frame: Profile['nodes'][number]['callFrame']) => string,
	rows: number,
): string {
	const byId = new Map(profile.nodes.map((node) => [node.id, node]));
	const totals = new Map<string, number>();
	profile.samples.forEach((id, i) => {
		const key = keyOf(byId.get(id)!.callFrame);
		totals.set(key, (totals.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
	});
	return [...totals]
		.sort((a, b) => b[1] - a[1])
		.slice(0, rows)
		.map(([key, ms]) => `${String(Math.round(ms / RUNS)).padStart(6)} ms/run  ${key}`)
		.join('\n');
}

const packageOf = ({ url, functionName }: { url: string; functionName: string }) => {
	if (!url) return functionName;
	const packages = url.match(/node_modules\/(@[^/]+\/)?[^/]+/g);
	return packages
		? packages[packages.length - 1].replace('node_modules/', '')
		: url.startsWith('node:')
			? 'node internals'
			: url;
};
const functionOf = ({
	url,
	functionName,
	lineNumber,
}: {
	url: string;
	functionName: string;
	lineNumber: number;
}) =>
	`${functionName || '(anonymous)'}  ${url.replace(/.*node_modules\//, '')}${url ? `:${lineNumber + 1}` : ''}`;

async function main(): Promise<void> {
	const { values } = parseArgs({
		options: {
			file: { type: 'boolean', default: false },
			floor: { type: 'boolean', default: false },
			sliced: { type: 'boolean', default: false },
			'page-size': { type: 'string' },
		},
	});
	const pageSize = values['page-size'] === undefined ? undefined : Number(values['page-size']);
	const port = await freePort();
	const base = values.floor ? FLOOR_EXPORT : values.sliced ? FIELD_OPS_SLICED : FIELD_OPS_EXPORT;
	const sized =
		pageSize === undefined
			? base
			: values.floor
				? { ...base, parameters: { ...base.parameters, pageSize } }
				: {
						...base,
						parameters: {
							...base.parameters,
							options: { ...(base.parameters as { options?: object }).options, pageSize },
						},
					};
	const node = values.file
		? {
				...sized,
				typeVersion: 1.1,
				parameters: { ...sized.parameters, simplify: false, output: 'file', fileFormat: 'csv' },
			}
		: sized;
	const env = {
		NODE_OPTIONS: `--inspect=127.0.0.1:${port}`,
		N8N_DEFAULT_BINARY_DATA_MODE: 'filesystem',
		...floorExtensionEnv(),
	};
	await withSandboxAndN8n(['--scale', String(SCALE)], { env }, async (_sandbox, bench) => {
		const what = values.floor ? 'the floor node' : values.sliced ? 'Field Ops in slices' : 'Field Ops';
		const workflow = await webhookWorkflow(
			bench,
			`Profile: ${what}, time registrations${values.file ? ' to a CSV file' : ''}`,
			[node],
			{ responseData: 'noData' },
		);
		await workflow.run(); // warm-up, not profiled
		const inspector = await connectInspector(port);
		await inspector.send('Profiler.enable');
		await inspector.send('Profiler.setSamplingInterval', { interval: 200 });
		await inspector.send('Profiler.start');
		const times: number[] = [];
		for (let i = 0; i < RUNS; i++) times.push((await workflow.run()).ms);
		const { profile } = await inspector.send<{ profile: Profile }>('Profiler.stop');
		inspector.close();

		const file = join(ROOT, 'bench', 'results', 'extraction.tmp.cpuprofile');
		writeFileSync(file, JSON.stringify(profile));
		console.log(`${RUNS} executions: ${times.join(' ms, ')} ms (the profile also covers saving them)\n`);
		console.log(`self time by package:\n${selfTimeTable(profile, packageOf, 15)}\n`);
		console.log(`self time by function:\n${selfTimeTable(profile, functionOf, 25)}\n`);
		console.log(`written to ${file}`);
	});
}

main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
