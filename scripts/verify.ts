/**
 * `npm run verify`: what n8n's reviewers check before a community package is verified, as far as it can be checked
 * here, in one command that fails when any rule is broken:
 *
 * 1. package.json: the name, the `n8n-community-node-package` keyword, the `n8n` block (API version 1, strict,
 *    every node and credential built), MIT, a repository, homepage and documentation links on that repository,
 *    an author with name and e-mail, only `dist` published;
 * 2. no runtime dependencies (`n8n-workflow` only as a peer);
 * 3. an MIT licence file naming the author;
 * 4. the README's sections (n8n's community node template);
 * 5. publishing: only from GitHub Actions with a provenance statement (`.github/workflows/publish.yml` through
 *    `n8n-node release`, the rules of scripts/lint-release.ts; `publishConfig.provenance`, so npm refuses to
 *    publish anywhere without it; `prepublishOnly` blocking a plain `npm publish`);
 * 6. `n8n-node lint` in strict mode on the published sources (scripts/lint-package.ts);
 * 7. n8n's verification scanner on the source and on the `npm pack` tarball (scripts/scan.ts).
 *
 * The build is reused when dist/ is newer than every source; otherwise (a clean clone) it builds first.
 * `--root <dir>` verifies another checkout (the tests break each rule in a copy).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { parse } from 'yaml';

import { checkCommon, checkPublish } from './lint-release';

const rootArg = process.argv.indexOf('--root');
const ROOT = resolve(rootArg > 0 ? process.argv[rootArg + 1] : join(__dirname, '..'));

interface Manifest {
	name?: string;
	version?: string;
	license?: string;
	keywords?: string[];
	homepage?: string;
	repository?: { type?: string; url?: string } | string;
	author?: { name?: string; email?: string } | string;
	files?: string[];
	n8n?: { n8nNodesApiVersion?: number; strict?: boolean; nodes?: string[]; credentials?: string[] };
	dependencies?: Record<string, string>;
	optionalDependencies?: Record<string, string>;
	bundleDependencies?: unknown;
	bundledDependencies?: unknown;
	peerDependencies?: Record<string, string>;
	scripts?: Record<string, string>;
	publishConfig?: Record<string, unknown>;
}

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const manifest = (): Manifest => JSON.parse(read('package.json')) as Manifest;

/** The repository's web address (`https://github.com/owner/name`), or undefined when it is not one. */
function repositoryUrl(pkg: Manifest): string | undefined {
	const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
	const match = /^(?:git\+)?https:\/\/github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url ?? '');
	return match ? `https://github.com/${match[1]}/${match[2]}` : undefined;
}

export function checkManifest(pkg: Manifest, documentationUrls: string[]): string[] {
	const problems: string[] = [];
	if (!/^(@[a-z0-9-~][a-z0-9-._~]*\/)?n8n-nodes-[a-z0-9-._~]+$/.test(pkg.name ?? ''))
		problems.push(`name "${pkg.name}" must start with n8n-nodes- (or @scope/n8n-nodes-)`);
	if (!pkg.keywords?.includes('n8n-community-node-package'))
		problems.push('keywords must include "n8n-community-node-package"');
	if (pkg.license !== 'MIT') problems.push(`license must be "MIT" (it is ${JSON.stringify(pkg.license)})`);
	const n8n = pkg.n8n;
	if (n8n?.n8nNodesApiVersion !== 1) problems.push('n8n.n8nNodesApiVersion must be 1');
	if (n8n?.strict !== true) problems.push('n8n.strict must be true (n8n-node lint in strict mode)');
	if (!n8n?.nodes?.length) problems.push('n8n.nodes lists no node');
	for (const file of [...(n8n?.nodes ?? []), ...(n8n?.credentials ?? [])]) {
		if (!file.startsWith('dist/')) problems.push(`n8n block: ${file} is not in dist/`);
		else if (!existsSync(join(ROOT, file))) problems.push(`n8n block: ${file} was not built`);
	}
	if (JSON.stringify(pkg.files) !== '["dist"]')
		problems.push('files must be ["dist"] (publish the build only)');
	const repository = repositoryUrl(pkg);
	if (!repository) problems.push('repository.url must be the package’s https://github.com/… repository');
	else
		for (const [what, url] of [
			['homepage', pkg.homepage],
			...documentationUrls.map((u) => ['documentationUrl', u]),
		])
			if (!String(url ?? '').startsWith(repository))
				problems.push(`${what} ${JSON.stringify(url)} is not on the repository ${repository}`);
	const author = typeof pkg.author === 'string' ? { name: pkg.author } : (pkg.author ?? {});
	if (!author.name?.trim()) problems.push('author.name is missing');
	if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(author.email ?? ''))
		problems.push('author.email is missing (reviewers and users need a contact)');
	return problems;
}

export function checkDependencies(pkg: Manifest): string[] {
	const problems: string[] = [];
	for (const field of [
		'dependencies',
		'optionalDependencies',
		'bundleDependencies',
		'bundledDependencies',
	] as const) {
		const value = pkg[field];
		const names = Array.isArray(value) ? value : Object.keys((value as object | undefined) ?? {});
		if (names.length)
			problems.push(`${field}: ${names.join(', ')} (verified packages have no runtime dependencies)`);
	}
	const peers = Object.keys(pkg.peerDependencies ?? {});
	if (peers.some((peer) => peer !== 'n8n-workflow'))
		problems.push(`peerDependencies: only n8n-workflow (found ${peers.join(', ')})`);
	return problems;
}

export function checkLicense(pkg: Manifest, text: string | undefined): string[] {
	if (text === undefined)
		return ['no LICENSE.md (or LICENSE) file: the MIT licence text must ship with the package'];
	const author = typeof pkg.author === 'string' ? pkg.author : (pkg.author?.name ?? '');
	const problems: string[] = [];
	if (!/MIT License/.test(text) || !/Permission is hereby granted, free of charge/.test(text))
		problems.push('the licence file is not the MIT licence');
	if (author && !text.includes(author))
		problems.push(`the licence's copyright line does not name the author "${author}"`);
	return problems;
}

/** The sections of n8n's community node README template. */
export const README_SECTIONS = [
	'Installation',
	'Operations',
	'Credentials',
	'Compatibility',
	'Usage',
	'Resources',
	'Version history',
];

export function checkReadme(text: string): string[] {
	const headings = new Set([...text.matchAll(/^## (.+)$/gm)].map((match) => match[1].trim()));
	return README_SECTIONS.filter((section) => !headings.has(section)).map(
		(section) => `README.md has no "## ${section}" section`,
	);
}

/** Published from GitHub Actions only, with a provenance statement. */
export function checkPublishing(pkg: Manifest, workflowText: string | undefined): string[] {
	if (workflowText === undefined) return ['.github/workflows/publish.yml is missing'];
	const workflow = parse(workflowText) as Parameters<typeof checkPublish>[0];
	const problems = [...checkPublish(workflow, pkg.scripts?.release), ...checkCommon('publish.yml', workflow)];
	if (pkg.publishConfig?.provenance !== true)
		problems.push(
			'package.json: publishConfig.provenance must be true (npm then refuses to publish without a provenance statement)',
		);
	if (pkg.scripts?.prepublishOnly !== 'n8n-node prerelease')
		problems.push(
			'package.json: prepublishOnly must be "n8n-node prerelease" (a plain npm publish is refused)',
		);
	return problems;
}

/** Newest modification time under the given paths (files and folders, recursively). */
function newest(paths: string[]): number {
	let latest = 0;
	for (const path of paths.map((p) => join(ROOT, p)).filter((p) => existsSync(p))) {
		const stat = statSync(path);
		if (stat.isDirectory()) {
			for (const entry of readdirSync(path, { recursive: true }))
				latest = Math.max(latest, statSync(join(path, String(entry))).mtimeMs);
		} else latest = Math.max(latest, stat.mtimeMs);
	}
	return latest;
}

function run(command: string, args: string[]): { ok: boolean; output: string } {
	// As a reviewer runs them: jest's NODE_ENV=test makes n8n's lint rules treat every file as a node file.
	const env = Object.fromEntries(
		Object.entries(process.env).filter(([key]) => key !== 'NODE_ENV' && !key.startsWith('JEST_')),
	);
	const result = spawnSync(command, args, { cwd: ROOT, encoding: 'utf8', env: { ...env, FORCE_COLOR: '0' } });
	return { ok: result.status === 0, output: `${result.stdout ?? ''}${result.stderr ?? ''}`.trim() };
}

function build(pkg: Manifest): string[] {
	const declared = [...(pkg.n8n?.nodes ?? []), ...(pkg.n8n?.credentials ?? [])];
	const built = declared.length > 0 && declared.every((file) => existsSync(join(ROOT, file)));
	const sources = newest(['nodes', 'credentials', 'icons', 'package.json', 'tsconfig.json']);
	const oldestBuilt = Math.min(
		...declared.map((file) => (existsSync(join(ROOT, file)) ? statSync(join(ROOT, file)).mtimeMs : 0)),
	);
	if (built && oldestBuilt >= sources) {
		console.log('   (dist/ is newer than the sources: build reused)');
		return [];
	}
	const result = run('npx', ['n8n-node', 'build']);
	return result.ok ? [] : [`n8n-node build failed:\n${result.output.split('\n').slice(-20).join('\n')}`];
}

function script(path: string, what: string): string[] {
	const result = run('npx', ['tsx', path]);
	if (result.ok) return [];
	const lines = result.output.split('\n').filter((line) => line.trim() && !/^[│┌└◇◒◐◓◑]/.test(line.trim()));
	return [`${what} failed:\n${lines.slice(-30).join('\n')}`];
}

async function main(): Promise<number> {
	const started = Date.now();
	const pkg = manifest();
	const optional = (path: string) => (existsSync(join(ROOT, path)) ? read(path) : undefined);
	const documentationUrls = [
		...read('credentials/FieldOpsOAuth2Api.credentials.ts').matchAll(/documentationUrl = '([^']+)'/g),
	].map((match) => match[1]);
	const checks: Array<[string, () => string[]]> = [
		// First: the n8n block's files must exist, and a clean clone has no dist/ yet.
		['build (n8n-node build)', () => build(pkg)],
		['package.json fields', () => checkManifest(pkg, documentationUrls)],
		['no runtime dependencies', () => checkDependencies(pkg)],
		['MIT licence file', () => checkLicense(pkg, optional('LICENSE.md') ?? optional('LICENSE'))],
		['README sections', () => checkReadme(read('README.md'))],
		[
			'published from GitHub Actions with provenance only',
			() => checkPublishing(pkg, optional('.github/workflows/publish.yml')),
		],
		['n8n-node lint, strict mode', () => script('scripts/lint-package.ts', 'n8n-node lint')],
		[
			'verification scanner on the source and the packed tarball',
			() => script('scripts/scan.ts', 'the scanner'),
		],
	];
	let failed = 0;
	for (const [name, check] of checks) {
		const problems = check();
		console.log(`${problems.length ? '❌' : '✅'} ${name}`);
		for (const problem of problems) console.log(`   - ${problem.replace(/\n/g, '\n     ')}`);
		if (problems.length) failed++;
	}
	console.log(
		failed
			? `\nverify: ${failed} of ${checks.length} checks failed (${((Date.now() - started) / 1000).toFixed(1)} s)`
			: `\nverify: all ${checks.length} checks pass (${((Date.now() - started) / 1000).toFixed(1)} s)`,
	);
	return failed ? 1 : 0;
}

if (require.main === module) {
	main().then(
		(code) => (process.exitCode = code),
		(error: unknown) => {
			console.error(error instanceof Error ? error.stack : error);
			process.exitCode = 1;
		},
	);
}
