/**
 * The installed n8n is its committed lock (scripts/n8n/install.ts installs it with `npm ci`), the same for every n8n
 * line: every package at the lock's version and nothing else, the lock in place the committed one, and the install's
 * guards held (kafka's install script denied, sqlite3 built). `test/e2e/n8n-lock.test.ts` runs it on n8n 2.x,
 * `test/compat/n8n-1-lock.test.ts` on n8n 1.x; their set-up (`npm run test:e2e`, `npm run test:compat`) installs first.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { ensureN8n, type N8nRelease } from '../../scripts/n8n/install';
import { readLock, treeMismatches, withTarballAddresses } from '../../scripts/n8n/locked-install';

export function installedTreeTest(n8n: N8nRelease): void {
	describe(`${n8n.label} installed from its lock`, () => {
		const modules = join(n8n.dir, 'node_modules');

		it('is up to date with the committed lock (the installer has nothing to do)', async () => {
			expect(await ensureN8n({ release: n8n, quiet: true })).toMatchObject({
				version: n8n.version,
				cached: true,
			});
			expect(readFileSync(join(n8n.dir, 'package.json'), 'utf8')).toBe(
				readFileSync(join(n8n.lockDir, 'package.json'), 'utf8'),
			);
			expect(readLock(join(n8n.dir, 'package-lock.json'))).toEqual(
				withTarballAddresses(readLock(join(n8n.lockDir, 'package-lock.json'))),
			);
		});

		it('has every package at the lock’s version and none the lock does not name', () => {
			const lock = readLock(join(n8n.lockDir, 'package-lock.json'));
			expect(lock.packages['node_modules/n8n'].version).toBe(n8n.version);
			expect(treeMismatches(n8n.dir)).toEqual([]);
			// Most of the tree is there, not only what this machine's platform skips.
			const installed = Object.keys(lock.packages).filter((path) => path && existsSync(join(n8n.dir, path)));
			expect(installed.length / (Object.keys(lock.packages).length - 1)).toBeGreaterThan(0.8);
		});

		it('kept the guards: kafka’s install script did not run, sqlite3 was built', () => {
			const kafka = join(modules, '@confluentinc', 'kafka-javascript');
			if (existsSync(kafka)) expect(existsSync(join(kafka, 'build'))).toBe(false);
			expect(existsSync(join(modules, 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))).toBe(true);
		});
	});
}
