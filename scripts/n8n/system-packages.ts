/**
 * The programs the end-to-end tests need from the system: Redis (queue mode), Chromium (the editor test) and
 * Dovecot (the mail test's IMAP server; the demo's mailbox too).
 * `ensureSystemPackages()` finds them (or some of them, for the demo); when one is missing and this runs as root on Debian, it installs it from
 * Debian's packages and says so; otherwise it fails with the one command to run. No registry package ships a
 * Redis server or a Chromium that runs here without a download of its own, hence Debian's packages.
 *
 * `REDIS_SERVER`, `CHROMIUM_PATH` and `DOVECOT_PATH` point at other binaries (as in the tests themselves).
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface SystemProgram {
	/** What it is called in messages. */
	name: string;
	/** The Debian package that provides it. */
	debianPackage: string;
	/** Which test needs it. */
	why: string;
	/** The command or path the tests use. */
	binary: string;
	/** Its version line, or undefined when it is missing. */
	version(): string | undefined;
}

function versionOf(binary: string, args: string[]): string | undefined {
	const run = spawnSync(binary, args, { encoding: 'utf8', timeout: 30_000 });
	if (run.error || run.status !== 0) return undefined;
	return run.stdout.trim().split('\n')[0];
}

/** Dovecot's master: DOVECOT_PATH, else Debian's /usr/sbin/dovecot (not on a non-root PATH), else `dovecot`. */
export const dovecotBinary = (env: NodeJS.ProcessEnv = process.env) =>
	env.DOVECOT_PATH ?? (existsSync('/usr/sbin/dovecot') ? '/usr/sbin/dovecot' : 'dovecot');

export function systemPrograms(env: NodeJS.ProcessEnv = process.env): SystemProgram[] {
	const redis = env.REDIS_SERVER ?? 'redis-server';
	const chromium = env.CHROMIUM_PATH ?? '/usr/bin/chromium';
	const dovecot = dovecotBinary(env);
	return [
		{
			name: 'Redis',
			debianPackage: 'redis-server',
			why: 'queue mode (test/e2e/queue.test.ts)',
			binary: redis,
			version: () => versionOf(redis, ['--version']),
		},
		{
			name: 'Chromium',
			debianPackage: 'chromium',
			why: 'the editor test (test/e2e/editor.test.ts)',
			binary: chromium,
			// `chromium --version` starts the browser's wrapper script: checking the file first keeps a missing one fast.
			version: () => (existsSync(chromium) ? versionOf(chromium, ['--version']) : undefined),
		},
		{
			name: 'Dovecot',
			debianPackage: 'dovecot-imapd',
			why: 'the mail test (test/e2e/mail.test.ts)',
			binary: dovecot,
			version: () => versionOf(dovecot, ['--version']),
		},
	];
}

export type Plan =
	| { action: 'none' }
	| { action: 'install'; packages: string[]; commands: string[][] }
	| { action: 'fail'; packages: string[]; command: string; reason: string };

/** The environment variable that points the tests (and the demo) at a program installed elsewhere, by package. */
const PATH_SETTING: Record<string, string> = {
	'redis-server': 'REDIS_SERVER',
	chromium: 'CHROMIUM_PATH',
	'dovecot-imapd': 'DOVECOT_PATH',
};

/** The command a user runs to install Debian packages (with sudo when not root). */
export const aptCommand = (packages: string[], root: boolean) =>
	`${root ? '' : 'sudo '}apt-get install -y --no-install-recommends ${packages.join(' ')}`;

/** What to do about the missing packages: nothing, install them with apt (root on Debian), or fail with the command. */
export function planSystemPackages(missing: string[], machine: { root: boolean; apt: boolean }): Plan {
	if (missing.length === 0) return { action: 'none' };
	if (machine.root && machine.apt) {
		// Waits for another apt (another engineer's test run) instead of failing on its lock.
		const lock = ['-o', 'DPkg::Lock::Timeout=600'];
		return {
			action: 'install',
			packages: missing,
			commands: [
				['apt-get', ...lock, 'update', '-qq'],
				['apt-get', ...lock, 'install', '-y', '-qq', '--no-install-recommends', ...missing],
			],
		};
	}
	const reason = machine.apt
		? 'installing Debian packages needs root'
		: 'this is not a Debian-like system (no apt-get)';
	const command = machine.apt
		? aptCommand(missing, machine.root)
		: `install ${missing.join(' and ')} with your system's package manager, or set ${missing.map((name) => PATH_SETTING[name] ?? name).join(' / ')}`;
	return { action: 'fail', packages: missing, command, reason };
}

export interface EnsureOptions {
	/** The programs to find (Redis, Chromium and Dovecot unless told). */
	programs?: SystemProgram[];
	/** Who needs them, as messages begin: "The end-to-end tests need" unless told. */
	needs?: string;
	log?: (line: string) => void;
	/** Log each program's version once found (on unless told). */
	versions?: boolean;
	/** Keep apt-get's output out of the terminal, showing its end only when it fails (the demo). */
	quiet?: boolean;
}

/** Finds the programs, installs the missing ones when it can; throws with the command to run when it cannot. */
export function ensureSystemPackages(options: EnsureOptions = {}): void {
	const {
		programs = systemPrograms(),
		needs = 'The end-to-end tests need',
		log = console.log,
		versions = true,
		quiet = false,
	} = options;
	const missing = programs.filter((program) => program.version() === undefined);
	const root = typeof process.getuid === 'function' && process.getuid() === 0;
	const apt = spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
	const plan = planSystemPackages(
		missing.map((program) => program.debianPackage),
		{ root, apt },
	);
	if (plan.action === 'fail') {
		const list = missing
			.map((program) => `${program.name} (${program.binary}) for ${program.why}`)
			.join(' and ');
		throw new Error(`${needs} ${list}, and ${plan.reason}. Run:\n\n  ${plan.command}\n`);
	}
	if (plan.action === 'install') {
		log(
			`${needs} ${missing.map((program) => `${program.name} for ${program.why}`).join(' and ')}, which ${missing.length > 1 ? 'are' : 'is'} missing.`,
		);
		log(
			`Installing the Debian package${plan.packages.length > 1 ? 's' : ''} ${plan.packages.join(' and ')} (running as root): ${plan.commands.map((c) => c.join(' ')).join(' && ')}`,
		);
		const started = Date.now();
		for (const [command, ...args] of plan.commands) {
			const run = spawnSync(command, args, {
				stdio: quiet ? 'pipe' : 'inherit',
				encoding: 'utf8',
				env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
			});
			if (run.status !== 0) {
				const said = quiet
					? `\n${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-10).join('\n')}\n`
					: '';
				throw new Error(
					`\`${command} ${args.join(' ')}\` failed (exit ${run.status ?? run.signal}); install them yourself: ${aptCommand(plan.packages, root)}${said}`,
				);
			}
		}
		log(`Installed ${plan.packages.join(' and ')} in ${Math.round((Date.now() - started) / 1000)} s.`);
	}
	for (const program of programs) {
		const version = program.version();
		if (version === undefined)
			throw new Error(
				`${program.name} is still missing at ${program.binary} after installing ${program.debianPackage}`,
			);
		if (versions) log(`${program.name}: ${version} (${program.binary})`);
	}
}

if (require.main === module) {
	try {
		ensureSystemPackages();
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		process.exit(1);
	}
}
