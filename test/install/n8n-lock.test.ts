/**
 * n8n installs from a committed lock (scripts/n8n/locked-install.ts, scripts/n8n/lock.ts). The installer's own code
 * runs here on a lock of one small registry package (ms), so this runs on any machine that reaches the registry:
 * it installs the lock's version rather than the newest, and a tampered hash, an unreachable registry or a lock out
 * of step fail in a few lines and leave no half-installed folder. The real n8n trees are compared with their locks
 * in test/e2e/n8n-lock.test.ts, once installed.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_RELEASES, lockOutOfStep, node24Env } from '../../scripts/n8n/install';
import { lockChanges, markMissingOptionals } from '../../scripts/n8n/lock';
import {
	InstallError,
	explainNpmFailure,
	installFromLock,
	readLock,
	treeMismatches,
	withTarballAddresses,
	type Lock,
	type LockedFolder,
} from '../../scripts/n8n/locked-install';

// package.json allows any ms 2.1.x; the registry's newest is 2.1.3, the lock says 2.1.2.
const MANIFEST = { name: 'lock-test', private: true, dependencies: { ms: '^2.1.0' } };
const MS_2_1_2 =
	'sha512-sGkPx+VjMtmA6MX27oA4FBFELFCZZ4S4XqeGOXCv68tT+jb3vk/RyaKWP0PTKyWtmLSM0b+adUTEvbs1PEaH2w==';
const lockOf = (integrity: string) => ({
	name: 'lock-test',
	lockfileVersion: 3,
	requires: true,
	packages: {
		'': { name: 'lock-test', dependencies: { ms: '^2.1.0' } },
		'node_modules/ms': { version: '2.1.2', integrity, license: 'MIT' },
	},
});

let work: string;
let count = 0;

beforeAll(() => {
	work = mkdtempSync(join(tmpdir(), 'fieldops-lock-test-'));
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A lock folder of its own and where it installs. */
function folder(manifest: object, lock: object): LockedFolder {
	const base = join(work, String(++count));
	const lockDir = join(base, 'lock');
	mkdirSync(lockDir, { recursive: true });
	writeFileSync(join(lockDir, 'package.json'), JSON.stringify(manifest));
	writeFileSync(join(lockDir, 'package-lock.json'), JSON.stringify(lock));
	return {
		label: 'ms',
		lockDir,
		dir: join(base, 'installed'),
		logFile: join(base, 'install.log'),
		regenerate: 'npm run n8n:lock',
	};
}

/** The InstallError an install ends with. */
async function failure(target: LockedFolder, env = node24Env()): Promise<string> {
	const error: unknown = await installFromLock(target, { env, quiet: true }).then(
		() => undefined,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(InstallError);
	expect(existsSync(target.dir)).toBe(false);
	expect(existsSync(target.logFile)).toBe(true);
	return (error as Error).message;
}

describe('installing from a lock', () => {
	it('installs the version the lock names, not the newest package.json allows, and its tree matches the lock', async () => {
		const lock = lockOf(MS_2_1_2);
		// npm keeps entries nothing depends on in the locks it writes (n8n's has some), and never installs them.
		Object.assign(lock.packages, { 'node_modules/unused': { version: '1.0.0', extraneous: true } });
		const target = folder(MANIFEST, lock);
		// As a user's npm would, whose default is to write `resolved` URLs (this machine's npmrc omits them).
		const defaults = node24Env({ npm_config_omit_lockfile_registry_resolved: 'false' });
		await installFromLock(target, { env: defaults, quiet: true });
		expect(existsSync(join(target.dir, 'node_modules', 'unused'))).toBe(false);
		// npm ci leaves the lock as given: the committed one with the registry's tarball addresses.
		const installedLock = readLock(join(target.dir, 'package-lock.json'));
		expect(installedLock).toEqual(withTarballAddresses(lock as Lock));
		expect(installedLock.packages['node_modules/ms'].resolved).toBe(
			'https://registry.npmjs.org/ms/-/ms-2.1.2.tgz',
		);
		const installed = JSON.parse(
			readFileSync(join(target.dir, 'node_modules', 'ms', 'package.json'), 'utf8'),
		);
		expect(installed.version).toBe('2.1.2');
		expect(treeMismatches(target.dir)).toEqual([]);

		// The comparison sees a changed version and a package the lock does not name.
		installed.version = '2.1.3';
		writeFileSync(join(target.dir, 'node_modules', 'ms', 'package.json'), JSON.stringify(installed));
		mkdirSync(join(target.dir, 'node_modules', '@extra', 'pkg'), { recursive: true });
		writeFileSync(join(target.dir, 'node_modules', '@extra', 'pkg', 'package.json'), '{"version":"1.0.0"}');
		expect(treeMismatches(target.dir)).toEqual([
			'node_modules/ms: 2.1.3 installed, the lock has 2.1.2',
			'node_modules/@extra/pkg: installed, not in the lock',
		]);
		rmSync(join(target.dir, 'node_modules', 'ms'), { recursive: true });
		expect(treeMismatches(target.dir)).toContain('node_modules/ms: missing (the lock has 2.1.2)');
	});

	it('fails on a tampered integrity hash in three lines naming the package, and removes the folder', async () => {
		const tampered = MS_2_1_2.replace('sGkPx', 'tGkPx');
		const target = folder(MANIFEST, lockOf(tampered));
		// npm retries a download that fails its hash (about two minutes); once is enough here.
		const message = await failure(target, node24Env({ npm_config_fetch_retries: '0' }));
		const lines = message.split('\n');
		expect(lines).toHaveLength(3);
		expect(lines[0]).toMatch(
			/^Installing ms from its lock \(.+package-lock\.json\) failed: ms@2\.1\.2 does not match the integrity hash in the lock \(EINTEGRITY\)/,
		);
		expect(lines[1]).toBe(
			"What to do: run the same command again (a download or a proxy's copy can be damaged); if it fails the same way, the lock is wrong: regenerate the lock with `npm run n8n:lock` and commit it.",
		);
		expect(lines[2]).toContain(`npm's whole output: ${target.logFile}.`);
		expect(readFileSync(target.logFile, 'utf8')).toContain(`wanted ${tampered}`);
	});

	it('names the package and the connection when the registry cannot be reached', async () => {
		const target = folder(MANIFEST, lockOf(MS_2_1_2));
		const unreachable = node24Env({
			npm_config_registry: 'http://127.0.0.1:9/',
			npm_config_fetch_retries: '0',
			npm_config_cache: join(work, 'empty-cache'),
		});
		const message = await failure(target, unreachable);
		expect(message).toContain(
			'failed: the registry could not be reached while fetching ms@2.1.2 (ECONNREFUSED).',
		);
		// The public registry's address in the installed lock went to the registry configured instead.
		expect(readFileSync(target.logFile, 'utf8')).toContain('http://127.0.0.1:9/ms/-/ms-2.1.2.tgz');
		expect(message).toContain(
			'What to do: check the connection to the npm registry, then run the same command again.',
		);
	});

	it('says to regenerate a lock out of step with its package.json', async () => {
		const manifest = { ...MANIFEST, dependencies: { ...MANIFEST.dependencies, 'left-pad': '1.3.0' } };
		const message = await failure(folder(manifest, lockOf(MS_2_1_2)));
		expect(message).toContain(
			'failed: the lock does not match its package.json (Missing: left-pad@1.3.0 from lock file).',
		);
		expect(message).toContain('What to do: regenerate the lock with `npm run n8n:lock` and commit it.');
	});

	it('reads a missing package and a failed install script from npm 11’s output', () => {
		const lock = lockOf(MS_2_1_2) as Lock;
		const notFound = [
			'npm http fetch GET 404 https://registry.npmjs.org/@n8n%2fagents 80ms',
			'npm error code E404',
			'npm error 404 Not Found - GET https://registry.npmjs.org/@n8n%2fagents - Not found',
			"npm error 404  The requested resource '@n8n/agents@0.26.2' could not be found or you do not have permission to access it.",
		].join('\n');
		expect(explainNpmFailure(notFound, lock, 1, '/x').problem).toBe(
			'@n8n/agents@0.26.2 is not on the registry (E404)',
		);
		const script = [
			'npm error code 1',
			'npm error path /x/node_modules/ms',
			'npm error command failed',
			'npm error command sh -c prebuild-install -r napi || node-gyp rebuild',
			'npm error gyp ERR! build error',
		].join('\n');
		expect(explainNpmFailure(script, lock, 1, '/x').problem).toBe(
			'the install script of ms@2.1.2 failed (`prebuild-install -r napi || node-gyp rebuild`)',
		);
		expect(explainNpmFailure('', lock, 'stopped by SIGKILL', '/x').problem).toBe(
			'npm ci ended with stopped by SIGKILL',
		);
	});
});

describe('the committed n8n locks', () => {
	it.each(N8N_RELEASES.map((n8n) => [n8n.label, n8n] as const))(
		'%s: the pin’s, every package with its integrity hash and no registry address',
		(_label, n8n) => {
			expect(lockOutOfStep(n8n)).toBeUndefined();
			const entries = Object.entries(readLock(join(n8n.lockDir, 'package-lock.json')).packages).filter(
				([path]) => path !== '',
			);
			expect(entries.length).toBeGreaterThan(1000);
			const unmarked = entries.filter(([, entry]) => entry.os?.[0] !== 'none');
			expect(unmarked.filter(([, entry]) => !entry.integrity).map(([path]) => path)).toEqual([]);
			expect(entries.filter(([, entry]) => entry.resolved).map(([path]) => path)).toEqual([]);
		},
	);
});

describe('regenerating a lock', () => {
	const lock = (packages: Lock['packages']): Lock => ({ packages: { '': {}, ...packages } });

	it('lists the packages added, removed and at other versions', () => {
		const before = lock({
			'node_modules/a': { version: '1.0.0' },
			'node_modules/b': { version: '1.0.0' },
			'node_modules/c': { version: '2.0.0' },
			'node_modules/c/node_modules/b': { version: '0.9.0' },
		});
		const after = lock({
			'node_modules/a': { version: '1.0.0' },
			'node_modules/b': { version: '1.1.0' },
			'node_modules/d': { version: '3.0.0' },
		});
		expect(lockChanges(before, after)).toEqual({
			added: ['+ d 3.0.0'],
			removed: ['- c 2.0.0'],
			changed: ['~ b 0.9.0, 1.0.0 → 1.1.0'],
			unchanged: 1,
		});
	});

	it('marks an optional package npm left out (none of that name within reach) as one for no platform', () => {
		const l = lock({
			'node_modules/a': { version: '1.0.0', optionalDependencies: { 'a-linux': '1.0.0', present: '^1.0.0' } },
			'node_modules/present': { version: '1.2.0' },
			'node_modules/b': { version: '1.0.0' },
			'node_modules/b/node_modules/c': {
				version: '1.0.0',
				optionalDependencies: { present: '1.2.0', gone: '~2.1.0' },
			},
		});
		expect(markMissingOptionals(l)).toEqual(['a-linux@1.0.0', 'gone@~2.1.0']);
		expect(l.packages['node_modules/a-linux']).toEqual({ version: '1.0.0', optional: true, os: ['none'] });
		expect(l.packages['node_modules/gone']).toEqual({ version: '2.1.0', optional: true, os: ['none'] });
		expect(markMissingOptionals(l)).toEqual([]);
	});
});
