/**
 * The README's Docker section (n8n 3.0 is Docker-only; Docker itself does not run here) checked against what the
 * package and the installed n8n ship: every setting it names is one n8n reads; the image, port and volume are those
 * of n8n's own Docker instructions (its npm package's README); the volume is the folder n8n uses as its user folder
 * in that image's home; and the install command, run as written (the packed tarball in place of the package name,
 * which is not published here), puts the package where n8n loads community packages from.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { N8N_2, ROOT, node24, node24Env } from '../../scripts/n8n/install';
import { PACKAGE_NAME, checkPackageLoads, packPackage } from '../../scripts/n8n/run';

const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const section = readme.slice(
	readme.indexOf('### Docker'),
	readme.indexOf('\n## ', readme.indexOf('### Docker')),
);
const commands = [...section.matchAll(/```bash\n([\s\S]*?)```/g)]
	.flatMap((block) => block[1].replace(/\\\n\s*/g, '').split('\n'))
	.map((line) => line.trim())
	.filter((line) => line && !line.startsWith('#'));
const n8nDir = join(N8N_2.dir, 'node_modules');
const image = 'docker.n8n.io/n8nio/n8n';
const home = '/home/node';

/** Whether the installed n8n reads an environment variable (its config classes name it as a string literal). */
function n8nReads(name: string): boolean {
	const dirs = ['n8n/dist', 'n8n-core/dist', '@n8n/config/dist'].map((dir) => join(n8nDir, dir));
	try {
		execFileSync('grep', ['-rlqF', '--include=*.js', `'${name}'`, ...dirs]);
		return true;
	} catch {
		return false;
	}
}

describe('the README’s Docker section', () => {
	it('has commands to check', () => {
		expect(section.startsWith('### Docker')).toBe(true);
		expect(commands).toEqual(
			expect.arrayContaining([
				expect.stringMatching(/^docker run /),
				expect.stringMatching(/^docker exec /),
				expect.stringMatching(/^docker restart /),
			]),
		);
	});

	it('names only settings the installed n8n reads', () => {
		const names = [
			...new Set([...section.matchAll(/\b(?:N8N|EXECUTIONS|QUEUE|OFFLOAD)_[A-Z0-9_]+\b/g)].map((m) => m[0])),
		];
		expect(names).toEqual(
			expect.arrayContaining(['N8N_UNVERIFIED_PACKAGES_ENABLED', 'N8N_SSRF_ALLOWED_HOSTNAMES']),
		);
		expect(names.filter((name) => !n8nReads(name))).toEqual([]);
	});

	it('uses the image, port and volume of n8n’s own Docker instructions, and n8n has the worker command', () => {
		const n8nReadme = readFileSync(join(n8nDir, 'n8n', 'README.md'), 'utf8');
		const ownRun = /docker run [^\n]*-p (\d+):(\d+)[^\n]*-v \w+:(\S+) (\S+)/.exec(n8nReadme);
		expect(ownRun?.slice(1)).toEqual(['5678', '5678', `${home}/.n8n`, image]);
		const run = commands.find((line) => line.startsWith('docker run '));
		expect(run).toContain('-p 5678:5678');
		expect(run).toContain(`-v n8n_data:${home}/.n8n`);
		expect(run?.endsWith(` ${image}`)).toBe(true);
		expect(commands).toContain('docker volume create n8n_data');
		expect(section).toContain(`\`docker run … ${image} worker\``);
		expect(existsSync(join(n8nDir, 'n8n', 'dist', 'commands', 'worker.js'))).toBe(true);
	});

	it('mounts the volume on the user folder n8n uses in that home, and installs where n8n loads packages from', () => {
		const fakeHome = mkdtempSync(join(tmpdir(), 'fieldops-docker-home-'));
		try {
			// n8n's own answer for a container whose HOME is /home/node and without N8N_USER_FOLDER.
			const env: NodeJS.ProcessEnv = { ...node24Env(), HOME: fakeHome };
			delete env.N8N_USER_FOLDER;
			const folder = execFileSync(
				node24(),
				['-e', "process.stdout.write(require('@n8n/config/dist/utils/utils').getN8nFolder())"],
				{ cwd: N8N_2.dir, env, encoding: 'utf8' },
			);
			expect(folder).toBe(join(fakeHome, '.n8n'));
			expect(
				readFileSync(join(n8nDir, 'n8n-core/dist/instance-settings/instance-settings.js'), 'utf8'),
			).toContain("path_1.default.join(this.n8nFolder, 'nodes')");

			// The install command inside the container, as written, with the packed package for its name.
			const exec = commands.find((line) => line.startsWith('docker exec '));
			const shell = /sh -c '([^']+)'/.exec(exec ?? '')?.[1];
			expect(exec).toMatch(/^docker exec -u node n8n sh -c '/);
			expect(shell).toContain(`npm install --omit=peer --ignore-scripts ${PACKAGE_NAME}`);
			const tarball = packPackage(join(fakeHome, 'pack'));
			execFileSync('sh', ['-c', String(shell).replace(` ${PACKAGE_NAME}`, ` ${tarball}`)], {
				env: {
					...env,
					npm_config_prefer_offline: 'true',
					npm_config_audit: 'false',
					npm_config_fund: 'false',
				},
				stdio: ['ignore', 'pipe', 'pipe'],
			});
			const installed = join(fakeHome, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
			expect(section).toContain(`${home}/.n8n/nodes/node_modules/${PACKAGE_NAME}`);
			expect(statSync(join(installed, 'package.json')).isFile()).toBe(true);
			// Nothing but the package: no runtime dependencies, n8n-workflow left to n8n (--omit=peer).
			expect(
				readdirSync(join(fakeHome, '.n8n', 'nodes', 'node_modules')).filter((n) => !n.startsWith('.')),
			).toEqual([PACKAGE_NAME]);
			checkPackageLoads(fakeHome);
		} finally {
			rmSync(fakeHome, { recursive: true, force: true });
		}
	});
});
