/**
 * Installs an npm project from its committed lock with `npm ci`: every package at the version and with the integrity
 * hash the lock names, nothing resolved at install time. The committed lock names no registry (no `resolved` URLs,
 * see scripts/n8n/lock.ts); the copy installed gets each package's tarball address on the public registry, which npm
 * maps to the registry the user configured, as for any lock, and npm checks the bytes against the hash. A failed
 * install ends in a few lines naming the package, the reason and what to do, npm's whole output stays in a log file,
 * and the half-installed folder is removed so the next try starts clean.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
	closeSync,
	copyFileSync,
	existsSync,
	mkdirSync,
	openSync,
	readdirSync,
	readFileSync,
	rmSync,
	writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

/** A committed lock and the folder it is installed into. */
export interface LockedFolder {
	/** What is installed, for messages ("n8n 2.41.1"). */
	label: string;
	/** Holds the committed `package.json` and `package-lock.json`. */
	lockDir: string;
	/** Where it is installed: emptied first, removed when the install fails. */
	dir: string;
	/** npm's whole output; outside `dir`, so it outlives a failed install. */
	logFile: string;
	/** The command that regenerates the lock, for messages. */
	regenerate: string;
}

/** The lock file format, as far as these scripts read it. */
export interface Lock {
	packages: Record<string, LockEntry>;
}

export interface LockEntry {
	name?: string;
	version?: string;
	resolved?: string;
	integrity?: string;
	link?: boolean;
	optional?: boolean;
	/** Nothing depends on it: npm keeps such entries in the lock but never installs them. */
	extraneous?: boolean;
	os?: string[];
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
}

/** An install that failed, with a message meant to be shown as it is. */
export class InstallError extends Error {}

export const readLock = (file: string) => JSON.parse(readFileSync(file, 'utf8')) as Lock;

/** The package an entry of `packages` holds: its own `name`, else the folder after the last `node_modules/`. */
export const packageName = (path: string, entry: LockEntry) =>
	entry.name ?? path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);

export interface NpmOptions {
	/** npm's environment (which `node` it and the install scripts run on). */
	env: NodeJS.ProcessEnv;
	quiet?: boolean;
	everySeconds?: number;
}

export function diskUse(dir: string): string {
	try {
		return execFileSync('du', ['-sh', dir], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).split(
			'\t',
		)[0];
	} catch {
		return '?';
	}
}

/**
 * `npm <args>` in `cwd`, its output appended to `logFile`. Unless quiet, a line every `everySeconds` tells what npm
 * has done so far (it prints nothing of its own for minutes). Resolves to npm's exit code (or how it stopped).
 */
export function npmLogged(
	args: string[],
	cwd: string,
	logFile: string,
	options: NpmOptions,
): Promise<number | string> {
	return new Promise((resolvePromise) => {
		const started = Date.now();
		const log = openSync(logFile, 'a');
		const child = spawn('npm', args, { cwd, env: options.env, stdio: ['ignore', log, log] });
		const ticker = options.quiet
			? undefined
			: setInterval(
					() => {
						// npm ci lays out every folder first, then fills them: the size tells how far it is.
						const nodeModules = join(cwd, 'node_modules');
						const sqlite = existsSync(join(nodeModules, 'sqlite3', 'build'))
							? ', building sqlite3 from source'
							: '';
						const state = existsSync(nodeModules) ? `${diskUse(nodeModules)}${sqlite}` : 'fetching';
						console.log(`  … npm ${args[0]}: ${Math.round((Date.now() - started) / 1000)} s, ${state}`);
					},
					(options.everySeconds ?? 20) * 1000,
				);
		const done = (code: number | string) => {
			if (ticker) clearInterval(ticker);
			closeSync(log);
			resolvePromise(code);
		};
		child.on('error', (error) => done(error.message));
		child.on('exit', (code, signal) => done(code ?? `stopped by ${signal}`));
	});
}

/**
 * The lock with each package's tarball address on the public registry, the way npm writes locks by default. npm ci
 * then takes a package it has in its cache from there by its hash, and fetches others directly; without addresses
 * it asks the registry for every package's document first (2,239 requests for n8n 2.x, each install, cache or not).
 * npm rewrites these addresses to the registry the user configured (`replace-registry-host`, default `npmjs`), as
 * for any lock; the committed lock keeps none.
 */
export function withTarballAddresses(lock: Lock): Lock {
	const packages: Lock['packages'] = {};
	for (const [path, entry] of Object.entries(lock.packages)) {
		const name = packageName(path, entry);
		packages[path] =
			path && entry.integrity && entry.version && !entry.link
				? {
						...entry,
						resolved: `https://registry.npmjs.org/${name}/-/${name.split('/').pop()}-${entry.version}.tgz`,
					}
				: entry;
	}
	return { ...lock, packages };
}

/** Empties `folder.dir`, puts the lock in it and runs `npm ci`; on failure removes `dir` and throws an InstallError. */
export async function installFromLock(folder: LockedFolder, options: NpmOptions): Promise<void> {
	rmSync(folder.dir, { recursive: true, force: true });
	rmSync(folder.logFile, { force: true });
	mkdirSync(folder.dir, { recursive: true });
	copyFileSync(join(folder.lockDir, 'package.json'), join(folder.dir, 'package.json'));
	const lock = withTarballAddresses(readLock(join(folder.lockDir, 'package-lock.json')));
	writeFileSync(join(folder.dir, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
	// `http` logs every download, so the log shows how far npm got.
	const code = await npmLogged(
		['ci', '--no-audit', '--no-fund', '--loglevel=http'],
		folder.dir,
		folder.logFile,
		options,
	);
	if (code !== 0) {
		failInstall(folder, explainNpmFailure(readFileSync(folder.logFile, 'utf8'), lock, code, folder.dir));
	}
	const mismatches = treeMismatches(folder.dir);
	if (mismatches.length)
		failInstall(folder, {
			problem: `the installed packages differ from the lock: ${mismatches.slice(0, 3).join('; ')}${mismatches.length > 3 ? ` (and ${mismatches.length - 3} more)` : ''}`,
			advice:
				'run it again; npm ci should install exactly the lock, so a second difference is a bug to report',
		});
}

/** Removes the half-installed folder and throws the short message (npm's output stays in the log file). */
export function failInstall(folder: LockedFolder, failure: NpmFailure): never {
	rmSync(folder.dir, { recursive: true, force: true });
	const advice = failure.advice.replace('{regenerate}', `\`${folder.regenerate}\``);
	throw new InstallError(
		[
			`Installing ${folder.label} from its lock (${relative(process.cwd(), join(folder.lockDir, 'package-lock.json')) || 'package-lock.json'}) failed: ${failure.problem}.`,
			`What to do: ${advice}.`,
			`npm's whole output: ${folder.logFile}. The half-installed ${folder.dir} was removed, so the next try starts clean.`,
		].join('\n'),
	);
}

export interface NpmFailure {
	/** Which package failed and why, in a sentence. */
	problem: string;
	/** What to do; `{regenerate}` stands for the lock's regenerate command. */
	advice: string;
}

const RETRY = 'run the same command again';
const REGENERATE = 'regenerate the lock with {regenerate} and commit it';
const NETWORK_CODES =
	/^(ECONNRESET|ECONNREFUSED|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|ENOTFOUND|EPROTO|ENETUNREACH|EHOSTUNREACH|ERR_SOCKET_TIMEOUT|FETCH_ERROR)$/;

/** `name@version` for a registry URL: a tarball (`…/@scope/name/-/name-1.2.3.tgz`) or a package document. */
function packageOfUrl(url: string): string | undefined {
	const path = decodeURIComponent(new URL(url).pathname).replace(/^\/+/, '');
	const tarball = /^((?:@[^/]+\/)?[^/]+)\/-\/.+?-(\d[^/]*)\.tgz$/.exec(path);
	if (tarball) return `${tarball[1]}@${tarball[2]}`;
	return /^(@[^/]+\/[^/]+|[^@/][^/]*)$/.test(path) ? path : undefined;
}

/**
 * Reads npm's output (`npm error …` lines, npm 11; `npm ERR!` before) for the failing package and the reason. The
 * lock names the package when npm only gives its hash or its folder.
 */
export function explainNpmFailure(log: string, lock: Lock, exit: number | string, dir: string): NpmFailure {
	const errors = log
		.split('\n')
		.map((line) => /^npm (?:error|ERR!) ?(.*)$/.exec(line)?.[1]?.trim())
		.filter((line): line is string => line !== undefined);
	const code = errors.map((line) => /^code (\S+)/.exec(line)?.[1]).find(Boolean);
	const text = errors.join('\n');
	const atPath = (path: string) => {
		const entry = lock.packages[path];
		return entry ? `${packageName(path, entry)}@${entry.version}` : path;
	};
	const urlPackage = () => {
		const url = /https?:\/\/\S+/.exec(text)?.[0];
		return url ? packageOfUrl(url.replace(/[.,]$/, '')) : undefined;
	};

	if (code === 'EINTEGRITY') {
		const wanted = /wanted (sha\d+-\S+?) but got/.exec(text)?.[1];
		const path = Object.keys(lock.packages).find((key) => wanted && lock.packages[key].integrity === wanted);
		return {
			problem: `${path ? atPath(path) : 'a package'} does not match the integrity hash in the lock (EINTEGRITY): the bytes downloaded are not the ones the lock was made from`,
			advice: `${RETRY} (a download or a proxy's copy can be damaged); if it fails the same way, the lock is wrong: ${REGENERATE}`,
		};
	}
	if (code === 'E404' || code === 'ETARGET') {
		const missing =
			/'(\S+@\S+)' (?:is not in this registry|could not be found)/.exec(text)?.[1] ??
			/No matching version found for (\S+?)\.?$/m.exec(text)?.[1] ??
			urlPackage() ??
			'a package';
		return {
			problem: `${missing} is not on the registry (${code})`,
			advice: `${RETRY} later: a registry mirror can lag behind; if it stays missing it was taken down, so ${REGENERATE}`,
		};
	}
	if (code && NETWORK_CODES.test(code)) {
		return {
			problem: `the registry could not be reached while fetching ${urlPackage() ?? 'a package'} (${code})`,
			advice: `check the connection to the npm registry, then ${RETRY}`,
		};
	}
	if (code === 'ENOSPC') {
		return { problem: 'the disk is full (ENOSPC)', advice: `free about 3 GB, then ${RETRY}` };
	}
	if (code === 'EUSAGE' && /in sync/.test(text)) {
		const detail = errors.find((line) => /^(Missing|Invalid):/.test(line));
		return {
			problem: `the lock does not match its package.json${detail ? ` (${detail})` : ''}`,
			advice: REGENERATE,
		};
	}
	const scriptPath = /^path (\S+)$/m.exec(text)?.[1];
	const command = /^command sh -c (.+)$/m.exec(text)?.[1];
	if (scriptPath && command) {
		return {
			problem: `the install script of ${atPath(relative(dir, scriptPath))} failed (\`${command}\`)`,
			advice: `read the end of the log for the reason (a native build needs \`apt-get install -y build-essential python3\`), then ${RETRY}`,
		};
	}
	const first = errors.filter((line) => line && !/complete log of this run/.test(line)).slice(0, 2);
	return {
		problem: `npm ci ended with ${typeof exit === 'number' ? `exit code ${exit}` : exit}${first.length ? `: ${first.join(' ')}` : ''}`,
		advice: `${RETRY}; if it fails the same way, read the log`,
	};
}

/** The `node_modules` folders under `dir` holding a package, as lock paths (`node_modules/a/node_modules/b`). */
function installedPaths(dir: string, under = ''): string[] {
	const nodeModules = join(dir, under, 'node_modules');
	if (!existsSync(nodeModules)) return [];
	const paths: string[] = [];
	for (const entry of readdirSync(nodeModules)) {
		if (entry.startsWith('.')) continue;
		const names = entry.startsWith('@')
			? readdirSync(join(nodeModules, entry)).map((scoped) => `${entry}/${scoped}`)
			: [entry];
		for (const name of names) {
			const path = join(under, 'node_modules', name);
			if (!existsSync(join(dir, path, 'package.json'))) continue;
			paths.push(path, ...installedPaths(dir, path));
		}
	}
	return paths;
}

/**
 * How the tree installed in `dir` differs from `dir/package-lock.json`: a version other than the lock's, a package
 * the lock names missing (optional ones for other platforms and extraneous ones excepted), or a package the lock
 * does not name.
 */
export function treeMismatches(dir: string): string[] {
	const lock = readLock(join(dir, 'package-lock.json'));
	const problems: string[] = [];
	for (const [path, entry] of Object.entries(lock.packages)) {
		if (path === '' || entry.link) continue;
		const file = join(dir, path, 'package.json');
		if (!existsSync(file)) {
			if (!entry.optional && !entry.extraneous)
				problems.push(`${path}: missing (the lock has ${entry.version})`);
			continue;
		}
		const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version?: string };
		if (version !== entry.version)
			problems.push(`${path}: ${version} installed, the lock has ${entry.version}`);
	}
	for (const path of installedPaths(dir)) {
		if (!(path in lock.packages)) problems.push(`${path}: installed, not in the lock`);
	}
	return problems;
}
