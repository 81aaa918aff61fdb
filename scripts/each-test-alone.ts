/**
 * Runs every unit test alone (`jest <file> -t '^<full name>$'`), so a test that only passes after the tests
 * before it shows up: every test must set up what it needs itself (issue #13).
 *
 *   npm run build && npx tsx scripts/each-test-alone.ts [--files <glob>]… [--grep <regex>] [--parallel 1|2]
 *                                                        [--out <file.json>] [--no-confirm]
 *
 * `--files` limits it to the test files whose path (from the repository root) matches a glob (`*`, `**`, `?`);
 * `--grep` to the tests whose full name matches. A failure is run alone once more, and reported as flaky
 * when that second run passes; a run where jest itself did not start (no report, a configuration error) is
 * reported as "could not run". Prints each failure as it happens, then the counts per file; `--out` writes
 * every result with jest's output for the others. Exits 1 when a test failed or could not run twice. The
 * node suites load `dist/`: build first.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const ROOT = join(__dirname, '..');
const JEST = join(ROOT, 'node_modules', '.bin', 'jest');
/** Longer than jest's own 60 s test and hook timeout: only a run that hangs outside a test is stopped. */
const RUN_TIMEOUT_MS = 10 * 60_000;

interface Options {
	files: string[];
	grep?: RegExp;
	parallel: number;
	out?: string;
	confirm: boolean;
}

interface TestCase {
	file: string;
	name: string;
}

interface Outcome {
	/** 'error': jest itself did not run (no report, or its configuration could not load): not the test's fault. */
	status: 'passed' | 'failed' | 'error';
	/** What jest printed, for a failure. */
	output: string;
}

interface Result extends TestCase {
	status: 'passed' | 'failed' | 'flaky' | 'error';
	output?: string;
}

function parseArgs(argv: string[]): Options {
	const options: Options = { files: [], parallel: 2, confirm: true };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			const next = argv[++i];
			if (next === undefined) throw new Error(`${arg} needs a value`);
			return next;
		};
		if (arg === '--files') options.files.push(value());
		else if (arg === '--grep') options.grep = new RegExp(value(), 'i');
		else if (arg === '--parallel') options.parallel = Number(value());
		else if (arg === '--out') options.out = value();
		else if (arg === '--no-confirm') options.confirm = false;
		else throw new Error(`Unknown argument ${arg}`);
	}
	// Two cores, shared: never more than two jest runs at once.
	if (!(options.parallel >= 1 && options.parallel <= 2)) throw new Error('--parallel is 1 or 2');
	return options;
}

/** A glob (`**` any folders, `*` and `?` within one name) as a regular expression over a relative path. */
function globToRegExp(glob: string): RegExp {
	let source = '';
	for (let i = 0; i < glob.length; i++) {
		const c = glob[i];
		if (c === '*' && glob[i + 1] === '*') {
			i++;
			if (glob[i + 1] === '/') {
				i++;
				source += '(?:.*/)?';
			} else source += '.*';
		} else if (c === '*') source += '[^/]*';
		else if (c === '?') source += '[^/]';
		else source += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
	}
	return new RegExp(`^${source}$`);
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Runs jest with the given arguments; its --json report and what it printed. */
async function jest(args: string[]): Promise<{ report: any; output: string }> {
	const dir = mkdtempSync(join(tmpdir(), 'each-test-alone-'));
	const outputFile = join(dir, 'report.json');
	try {
		const child = spawn(JEST, [...args, '--json', `--outputFile=${outputFile}`], {
			cwd: ROOT,
			env: { ...process.env, FORCE_COLOR: '0' },
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		const timer = setTimeout(() => {
			output += `\n[each-test-alone] stopped after ${RUN_TIMEOUT_MS / 1000} s`;
			if (child.pid) process.kill(-child.pid, 'SIGKILL');
		}, RUN_TIMEOUT_MS);
		await new Promise<void>((resolve) => child.on('close', () => resolve()));
		clearTimeout(timer);
		let report: any;
		try {
			report = JSON.parse(readFileSync(outputFile, 'utf8'));
		} catch {
			report = undefined;
		}
		return { report, output };
	} finally {
		rmSync(dir, { recursive: true, force: true });
	}
}

/** The JSON jest prints (for --listTests). */
async function jestOutput(args: string[]): Promise<string[]> {
	const child = spawn(JEST, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
	let output = '';
	child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
	await new Promise<void>((resolve) => child.on('close', () => resolve()));
	return JSON.parse(output) as string[];
}

/** Every test of the unit suites: jest runs the files with a name pattern nothing matches, and reports them all as skipped. */
async function listTests(options: Options): Promise<TestCase[]> {
	const globs = options.files.map(globToRegExp);
	const files = (await jestOutput(['--listTests', '--json']))
		.map((file) => relative(ROOT, file))
		.filter((file) => globs.length === 0 || globs.some((glob) => glob.test(file)));
	if (files.length === 0) throw new Error(`No test file matches ${options.files.join(', ')}`);
	const patterns = files.map((file) => `^${escapeRegExp(join(ROOT, file))}$`);
	const { report, output } = await jest([...patterns, '--testNamePattern=(?!)', '--maxWorkers=2']);
	if (!report) throw new Error(`jest could not list the tests:\n${output}`);
	const tests: TestCase[] = [];
	for (const suite of report.testResults) {
		const file = relative(ROOT, suite.name);
		if (suite.status === 'failed' && suite.assertionResults.length === 0)
			throw new Error(`${file} does not load:\n${suite.message}`);
		// Two tests of one file with the same full name run together: listed once.
		const names = new Set<string>(suite.assertionResults.map((test: { fullName: string }) => test.fullName));
		for (const name of names) if (!options.grep || options.grep.test(name)) tests.push({ file, name });
	}
	return tests.sort((a, b) => a.file.localeCompare(b.file));
}

function command(test: TestCase): string[] {
	return [test.file, '-t', `^${escapeRegExp(test.name)}$`, '--maxWorkers=1'];
}

async function runAlone(test: TestCase): Promise<Outcome> {
	const { report, output } = await jest(command(test));
	if (!report || /Validation Error/.test(output)) return { status: 'error', output };
	// A pattern that runs nothing is a failure too: the test was not found, or its file failed to load.
	const failed = report.numFailedTests + report.numFailedTestSuites + report.numRuntimeErrorTestSuites;
	return { status: failed === 0 && report.numPassedTests > 0 ? 'passed' : 'failed', output };
}

/** Runs a test alone; a failure once more: passing then, it is flaky. */
async function outcomeOf(test: TestCase, confirm: boolean): Promise<Result> {
	const first = await runAlone(test);
	if (first.status === 'passed') return { ...test, status: 'passed' };
	if (!confirm) return { ...test, status: first.status, output: first.output };
	const second = await runAlone(test);
	if (second.status === 'passed') return { ...test, status: 'flaky', output: first.output };
	const failed = [first, second].find((outcome) => outcome.status === 'failed');
	return { ...test, status: failed ? 'failed' : 'error', output: (failed ?? first).output };
}

const LABELS = { failed: 'FAIL ', flaky: 'FLAKY', error: 'ERROR' } as const;

async function main(): Promise<void> {
	const options = parseArgs(process.argv.slice(2));
	const tests = await listTests(options);
	console.log(`${tests.length} tests, each run alone, ${options.parallel} at a time`);

	const results: Result[] = [];
	let next = 0;
	let done = 0;
	const worker = async () => {
		while (next < tests.length) {
			const test = tests[next++];
			const result = await outcomeOf(test, options.confirm);
			results.push(result);
			done++;
			const { status } = result;
			if (status !== 'passed') {
				const quoted = `'${command(test)[2].replace(/'/g, `'\\''`)}'`;
				console.log(`${LABELS[status]} [${done}/${tests.length}] ${test.file} › ${test.name}`);
				console.log(`      npx jest ${test.file} -t ${quoted} --maxWorkers=1`);
			} else if (done % 25 === 0) console.log(`      [${done}/${tests.length}]`);
		}
	};
	await Promise.all(Array.from({ length: Math.min(options.parallel, tests.length) }, worker));

	const count = (of: Result[], status: Result['status']) => of.filter((r) => r.status === status).length;
	const counts = (of: Result[]) =>
		`${of.length} run alone, ${count(of, 'failed')} failed` +
		(count(of, 'flaky') ? `, ${count(of, 'flaky')} flaky` : '') +
		(count(of, 'error') ? `, ${count(of, 'error')} could not run` : '');
	console.log('');
	for (const file of new Set(tests.map((t) => t.file)))
		console.log(`${file}: ${counts(results.filter((r) => r.file === file))}`);
	console.log(`\nAll: ${counts(results)}`);
	if (options.out) writeFileSync(options.out, JSON.stringify(results, null, '\t'));
	process.exitCode = count(results, 'failed') + count(results, 'error') > 0 ? 1 : 0;
}

main().catch((error: unknown) => {
	console.error(error);
	process.exitCode = 2;
});
