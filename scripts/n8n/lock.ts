/**
 * `npm run n8n:lock [-- 2|1]`: regenerates the committed lock of each pinned n8n (both unless told), after its pin
 * moved in scripts/n8n/install.ts or to take fixes in its tree, and prints what changed. Commit the lock folder
 * (`scripts/n8n/locks/<folder>/`); every machine's next install then reinstalls from it.
 *
 * How (measured; the notes' "npm ci refuses an n8n lock" no longer held):
 * - npm writes the lock itself, for the whole tree, without installing: `npm install --package-lock-only`, with
 *   fresh registry data (`--prefer-online`), in a temporary folder holding only the lock folder's package.json.
 * - `--omit-lockfile-registry-resolved`, whatever the local npm config says: entries keep `version` and `integrity`
 *   and no `resolved` URL, so the lock is the same whoever regenerates it and names no registry. The installer adds
 *   the public registry's tarball addresses to the copy it installs (scripts/n8n/locked-install.ts: without them npm
 *   asks the registry for every package's document on every install, even from a full cache) and npm maps them to
 *   the registry the installing user configured (the public one, a mirror, a company proxy); bytes whose hash
 *   differs are refused. A user's default npm installs it the same way and does not rewrite it (npm ci never saves).
 * - Optional packages for every platform are in it; an optional package the registry lacks is left out by npm,
 *   and `npm ci` then refuses the lock ("Missing: … from lock file"). Such a package is written into the lock as
 *   an optional entry for no platform (`"os": ["none"]`), which `npm ci` accepts and skips without fetching; this
 *   script says when it does.
 * - `npm ci --dry-run --ignore-scripts --offline` must accept the result before it replaces the committed lock.
 */
import {
	mkdirSync,
	mkdtempSync,
	readFileSync,
	rmSync,
	writeFileSync,
	copyFileSync,
	existsSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';

import { N8N_1, N8N_2, N8N_RELEASES, ROOT, manifest, node24Env, type N8nRelease } from './install';
import {
	explainNpmFailure,
	npmLogged,
	packageName,
	readLock,
	type Lock,
	type LockEntry,
} from './locked-install';

/** name → the versions of it in the lock, sorted. */
function versionsByName(lock: Lock): Map<string, string[]> {
	const byName = new Map<string, string[]>();
	for (const [path, entry] of Object.entries(lock.packages)) {
		if (path === '' || entry.link || entry.version === undefined) continue;
		const name = packageName(path, entry);
		byName.set(name, [...new Set([...(byName.get(name) ?? []), entry.version])].sort());
	}
	return byName;
}

export interface LockChanges {
	added: string[];
	removed: string[];
	changed: string[];
	unchanged: number;
}

/** What changed between two locks, by package name: `+ name 1.0.0`, `- name 1.0.0`, `~ name 1.0.0 → 1.1.0`. */
export function lockChanges(before: Lock, after: Lock): LockChanges {
	const old = versionsByName(before);
	const now = versionsByName(after);
	const changes: LockChanges = { added: [], removed: [], changed: [], unchanged: 0 };
	for (const name of [...new Set([...old.keys(), ...now.keys()])].sort()) {
		const was = old.get(name)?.join(', ');
		const is = now.get(name)?.join(', ');
		if (was === undefined) changes.added.push(`+ ${name} ${is}`);
		else if (is === undefined) changes.removed.push(`- ${name} ${was}`);
		else if (was !== is) changes.changed.push(`~ ${name} ${was} → ${is}`);
		else changes.unchanged++;
	}
	return changes;
}

/**
 * Optional dependencies npm left out because the registry lacks them (no package of that name where Node would look
 * for it), written in as optional entries for no platform. Returns `name@spec` of each.
 */
export function markMissingOptionals(lock: Lock): string[] {
	const marked: string[] = [];
	for (const [path, entry] of Object.entries(lock.packages)) {
		for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
			// node_modules/a/node_modules/b looks in its own node_modules, then in a's, then in the top one.
			const reachable: string[] = [];
			for (let from = path; ; from = from.slice(0, Math.max(from.lastIndexOf('/node_modules/'), 0))) {
				reachable.push(`${from ? `${from}/` : ''}node_modules/${name}`);
				if (from === '') break;
			}
			if (reachable.some((at) => at in lock.packages)) continue;
			// The lowest version the spec allows (`^1.2.0` → 1.2.0); `npm ci --dry-run` checks it is accepted.
			const version = /\d+\.\d+\.\d+(?:-[\w.]+)?/.exec(spec)?.[0] ?? spec;
			lock.packages[`node_modules/${name}`] = { version, optional: true, os: ['none'] } satisfies LockEntry;
			marked.push(`${name}@${spec}`);
		}
	}
	return marked;
}

const count = (n: number) => n.toLocaleString('en');

async function regenerate(n8n: N8nRelease): Promise<boolean> {
	const lockFile = join(n8n.lockDir, 'package-lock.json');
	const shown = relative(ROOT, n8n.lockDir);
	const work = mkdtempSync(join(tmpdir(), 'fieldops-n8n-lock-'));
	const logFile = n8n.logFile.replace(/-install\.log$/, '-lock.log');
	mkdirSync(join(ROOT, '.e2e'), { recursive: true });
	rmSync(logFile, { force: true });
	const started = Date.now();
	console.log(`n8n ${n8n.version}: resolving its tree (about 3 minutes; npm's output: ${logFile})…`);
	try {
		writeFileSync(join(work, 'package.json'), `${JSON.stringify(manifest(n8n), null, '\t')}\n`);
		const npm = (args: string[]) =>
			npmLogged(args, work, logFile, { env: node24Env(), quiet: true }).then((code) => {
				if (code === 0) return;
				const failure = explainNpmFailure(
					readFileSync(logFile, 'utf8'),
					existsSync(join(work, 'package-lock.json'))
						? readLock(join(work, 'package-lock.json'))
						: { packages: {} },
					code,
					work,
				);
				throw new Error(`npm ${args[0]} failed: ${failure.problem}.`);
			});
		await npm([
			'install',
			'--package-lock-only',
			'--omit-lockfile-registry-resolved',
			'--prefer-online',
			'--no-audit',
			'--no-fund',
			'--loglevel=http',
		]);
		const lock = readLock(join(work, 'package-lock.json'));
		const marked = markMissingOptionals(lock);
		if (marked.length) writeFileSync(join(work, 'package-lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
		await npm(['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund']);

		const before = existsSync(lockFile) ? readLock(lockFile) : { packages: {} };
		const changes = lockChanges(before, lock);
		for (const line of [...changes.added, ...changes.removed, ...changes.changed]) console.log(`  ${line}`);
		const entries = (l: Lock) => Object.keys(l.packages).length - 1;
		console.log(
			`n8n ${before.packages['node_modules/n8n']?.version ?? '(no lock)'} → ${n8n.version}: ${count(Math.max(entries(before), 0))} → ${count(entries(lock))} lock entries; by package name ${changes.added.length} added, ${changes.removed.length} removed, ${changes.changed.length} at other versions, ${count(changes.unchanged)} unchanged (${Math.round((Date.now() - started) / 1000)} s).`,
		);
		if (marked.length)
			console.log(`  Not on the registry, marked optional for no platform: ${marked.join(', ')}.`);
		if (n8n === N8N_2) checkDevDependencies(lock);

		mkdirSync(n8n.lockDir, { recursive: true });
		copyFileSync(join(work, 'package.json'), join(n8n.lockDir, 'package.json'));
		copyFileSync(join(work, 'package-lock.json'), lockFile);
		console.log(`  Written to ${shown}/: commit it.`);
		return true;
	} catch (error) {
		console.error(
			`n8n ${n8n.version}: ${error instanceof Error ? error.message : String(error)} ${shown}/ is unchanged (npm's output: ${logFile}).`,
		);
		return false;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

/** The in-process tests load n8n-core and n8n-workflow from the root devDependencies: they should be n8n 2.x's. */
function checkDevDependencies(lock: Lock): void {
	const { devDependencies } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		devDependencies: Record<string, string>;
	};
	for (const name of ['n8n-core', 'n8n-workflow']) {
		const locked = lock.packages[`node_modules/${name}`]?.version;
		if (locked && devDependencies[name] !== locked)
			console.log(
				`  n8n ${N8N_2.version} runs ${name} ${locked}; package.json's devDependency is ${devDependencies[name]}: pin ${locked} there too (npm install -E -D ${name}@${locked}).`,
			);
	}
}

if (require.main === module) {
	const chosen = process.argv[2] === '2' ? [N8N_2] : process.argv[2] === '1' ? [N8N_1] : N8N_RELEASES;
	void (async () => {
		let ok = true;
		for (const n8n of chosen) ok = (await regenerate(n8n)) && ok;
		process.exitCode = ok ? 0 : 1;
	})();
}
