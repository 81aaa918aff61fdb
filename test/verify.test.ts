/**
 * `npm run verify` (scripts/verify.ts) on copies of the package: it passes on a clean clone (no dist/), and fails,
 * naming the rule, when one rule is broken in a copy: a runtime dependency, a `process.env` read in a node, a
 * missing provenance flag. Needs a build first (the copies reuse dist/ unless their sources changed).
 */
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

import { checkPublishing } from '../scripts/verify';

const ROOT = resolve(__dirname, '..');
// What verify reads, and what its lint, scan and build need.
const COPIED = [
	'package.json',
	'README.md',
	'LICENSE.md',
	'eslint.config.mjs',
	'tsconfig.json',
	'.github',
	'scripts',
	'icons',
	'nodes',
	'credentials',
	// Last, so that it is newer than the sources: verify reuses it unless a case changes a source.
	'dist',
];

interface Outcome {
	code: number | null;
	output: string;
}

/** The package's files; `built`: with dist/ (as after a build), else as a clean clone has them. */
function copyOfPackage(built: boolean): string {
	const dir = mkdtempSync(join(tmpdir(), 'fieldops-verify-'));
	for (const entry of COPIED.filter((e) => built || e !== 'dist'))
		cpSync(join(ROOT, entry), join(dir, entry), { recursive: true });
	symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
	return dir;
}

function verify(dir: string): Promise<Outcome> {
	return new Promise((done) => {
		const child = spawn('npx', ['tsx', join(dir, 'scripts', 'verify.ts')], { cwd: dir });
		let output = '';
		child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
		child.on('close', (code) => done({ code, output }));
	});
}

const editJson = (file: string, edit: (json: Record<string, any>) => void) => {
	const json = JSON.parse(readFileSync(file, 'utf8')) as Record<string, any>;
	edit(json);
	writeFileSync(file, `${JSON.stringify(json, null, 2)}\n`);
};

/** Each case breaks one rule in its own copy. */
const CASES: Record<string, (dir: string) => void> = {
	'a clean clone': () => undefined,
	'a runtime dependency': (dir) =>
		editJson(join(dir, 'package.json'), (pkg) => (pkg.dependencies = { 'left-pad': '1.3.0' })),
	'a process.env read': (dir) => {
		const file = join(dir, 'nodes', 'FieldOps', 'transport', 'settings.ts');
		writeFileSync(
			file,
			`${readFileSync(file, 'utf8')}\nexport const proxy = () => process.env.HTTPS_PROXY ?? '';\n`,
		);
	},
	'a missing provenance flag': (dir) =>
		editJson(join(dir, 'package.json'), (pkg) => delete pkg.publishConfig.provenance),
};

describe('npm run verify', () => {
	const dirs: string[] = [];
	let outcomes: Record<string, Outcome> = {};

	beforeAll(async () => {
		if (!existsSync(join(ROOT, 'dist', 'package.json'))) throw new Error('Run `npm run build` first');
		// The copies run side by side: each verify is mostly waiting on its linter and scanner.
		const runs = Object.entries(CASES).map(async ([name, breakRule]) => {
			// The clean clone builds first; the others reuse the build unless they change a source.
			const dir = copyOfPackage(name !== 'a clean clone');
			dirs.push(dir);
			breakRule(dir);
			return [name, await verify(dir)] as const;
		});
		outcomes = Object.fromEntries(await Promise.all(runs));
	}, 300_000);

	afterAll(() => {
		for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
	});

	const failedChecks = (outcome: Outcome) =>
		outcome.output
			.split('\n')
			.filter((line) => line.startsWith('❌'))
			.map((line) => line.slice(2).trim());

	it('passes on a clean clone (it builds first)', () => {
		const outcome = outcomes['a clean clone'];
		expect({ code: outcome.code, failed: failedChecks(outcome) }).toEqual({ code: 0, failed: [] });
		expect(outcome.output).toMatch(/verify: all \d+ checks pass/);
	});

	it('fails on a runtime dependency, naming it', () => {
		const outcome = outcomes['a runtime dependency'];
		expect(outcome.code).toBe(1);
		expect(failedChecks(outcome)).toContain('no runtime dependencies');
		expect(outcome.output).toMatch(
			/dependencies: left-pad \(verified packages have no runtime dependencies\)/,
		);
	});

	it('fails on a process.env read in a node: n8n-node lint and the scanner both refuse it', () => {
		const outcome = outcomes['a process.env read'];
		expect(outcome.code).toBe(1);
		expect(failedChecks(outcome)).toEqual([
			'n8n-node lint, strict mode',
			'verification scanner on the source and the packed tarball',
		]);
		expect(outcome.output).toMatch(/process/);
	});

	it('fails on a missing provenance flag', () => {
		const outcome = outcomes['a missing provenance flag'];
		expect(outcome.code).toBe(1);
		expect(failedChecks(outcome)).toEqual(['published from GitHub Actions with provenance only']);
		expect(outcome.output).toMatch(/publishConfig\.provenance must be true/);
	});

	it('refuses a publish workflow that cannot sign provenance or publishes another way', () => {
		const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
		const workflow = readFileSync(join(ROOT, '.github', 'workflows', 'publish.yml'), 'utf8');
		expect(checkPublishing(pkg, workflow)).toEqual([]);
		expect(checkPublishing(pkg, workflow.replace(/^\s*id-token: write\n/m, ''))).toEqual([
			'publish.yml: job "publish" must have exactly "contents: read" and "id-token: write" (provenance)',
		]);
		expect(checkPublishing(pkg, workflow.replace('run: npm run release', 'run: npm publish'))).toEqual([
			'publish.yml: no "npm run release" after "npm ci"',
			'publish.yml: publish through "npm run release", not npm publish',
		]);
		expect(
			checkPublishing({ ...pkg, scripts: { ...pkg.scripts, prepublishOnly: undefined } }, workflow),
		).toEqual([
			'package.json: prepublishOnly must be "n8n-node prerelease" (a plain npm publish is refused)',
		]);
	});
});
