/**
 * Runs `n8n-node lint` (strict mode: n8n's unmodified community config) on exactly the code we publish.
 * `n8n-node lint` lints every .ts file under its working folder, and its community rules forbid what tests
 * and the sandbox legitimately use (`process`, timers, `node:` imports), so it runs in a staging folder
 * holding only the package's files; tests get their own config (eslint.dev.config.mjs).
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(__dirname, '..');
const stage = join(root, '.lint-package');
const PUBLISHED_SOURCES = [
	'package.json',
	'eslint.config.mjs',
	'tsconfig.json',
	'nodes',
	'credentials',
	'icons',
];

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage);
for (const entry of PUBLISHED_SOURCES) cpSync(join(root, entry), join(stage, entry), { recursive: true });
symlinkSync(join(root, 'node_modules'), join(stage, 'node_modules'), 'dir');

const fix = process.argv.includes('--fix');
const result = spawnSync(
	join(root, 'node_modules', '.bin', 'n8n-node'),
	['lint', ...(fix ? ['--fix'] : [])],
	{
		cwd: stage,
		stdio: 'inherit',
	},
);
if (fix && result.status === 0) {
	for (const entry of ['nodes', 'credentials'])
		cpSync(join(stage, entry), join(root, entry), { recursive: true });
}
rmSync(stage, { recursive: true, force: true });
process.exit(result.status ?? 1);
