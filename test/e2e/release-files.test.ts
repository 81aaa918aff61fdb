/**
 * The checks `npm run lint` makes on the release files (scripts/lint-release.ts, scripts/changelog.ts): the real
 * files pass, and each rule catches what it is there for.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import { parse } from 'yaml';

import { checkChangelog, checkReadmeLink, parseChangelog, renderChangelog } from '../../scripts/changelog';
import { checkCi, checkCommon, checkPublish } from '../../scripts/lint-release';
import { ROOT } from '../../scripts/n8n/install';

const REPO = 'https://github.com/fieldops/n8n-nodes-fieldops';
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const workflow = (file: string) => parse(read(`.github/workflows/${file}`));
const manifest = JSON.parse(read('package.json')) as { version: string; scripts: Record<string, string> };

describe('release files', () => {
	it('the workflows in the repository pass the project rules', () => {
		expect(checkCommon('ci.yml', workflow('ci.yml'))).toEqual([]);
		expect(checkCommon('publish.yml', workflow('publish.yml'))).toEqual([]);
		expect(checkCi(workflow('ci.yml'), manifest.scripts.test)).toEqual([]);
		expect(checkPublish(workflow('publish.yml'), manifest.scripts.release)).toEqual([]);
	});

	it('ci.yml must use npm ci and run the README test command with Redis and Chromium', () => {
		const ci = workflow('ci.yml');
		for (const job of Object.values(ci.jobs) as { steps: { run?: string }[] }[]) {
			for (const step of job.steps) {
				if (step.run === 'npm ci') step.run = 'npm install';
				if (step.run === 'npm test') step.run = 'npm run test:unit';
				if (step.run?.includes('apt-get install')) step.run = step.run.replace(' chromium', '');
			}
		}
		expect(checkCi(ci, manifest.scripts.test)).toEqual([
			'ci.yml: no "npm ci" step',
			'ci.yml: no "npm test" step after "npm run build"',
			'ci.yml: "npm install" would hide a lock file out of step with package.json: use npm ci',
			'ci.yml: the end-to-end tests need chromium: apt-get install it',
		]);
	});

	it('publish.yml must publish on tags only, with least privilege and provenance through npm run release', () => {
		const publish = workflow('publish.yml');
		publish.on.push.branches = ['main'];
		publish.permissions = { contents: 'write' };
		publish.jobs.publish.permissions = { contents: 'read' };
		const steps = publish.jobs.publish.steps as {
			run?: string;
			uses?: string;
			with?: Record<string, unknown>;
		}[];
		steps.find((step) => step.run === 'npm run release')!.run = 'npm publish --provenance';
		steps.find((step) => step.uses?.startsWith('actions/checkout'))!.with = {};
		expect(checkPublish(publish, 'release-it')).toEqual([
			'publish.yml: must run on pushed version tags only',
			'publish.yml: top-level "permissions: {}" (each job asks for what it needs)',
			'publish.yml: job "publish" must have exactly "contents: read" and "id-token: write" (provenance)',
			'publish.yml: no "npm run release" after "npm ci"',
			'publish.yml: publish through "npm run release", not npm publish',
			'package.json: "release" must be "n8n-node release" (it is "release-it")',
		]);
		expect(checkCommon('publish.yml', publish)).toEqual([
			'publish.yml: the workflow grants "contents: write"',
			'publish.yml: actions/checkout keeps the token in .git/config: set "persist-credentials: false"',
		]);
		expect(
			checkCommon('ci.yml', {
				permissions: {},
				jobs: { a: { steps: [{ uses: 'actions/setup-node@main' }] } },
			}),
		).toEqual(['ci.yml: "actions/setup-node@main" is not pinned to a version or a commit']);
	});

	it('CHANGELOG.md is in Keep a Changelog form and the README links it', () => {
		const changelog = parseChangelog(read('CHANGELOG.md'));
		expect(checkChangelog(changelog, REPO, manifest.version)).toEqual([]);
		expect(renderChangelog(changelog, REPO)).toBe(read('CHANGELOG.md'));
		const readme = read('README.md');
		expect(checkReadmeLink(readme)).toEqual([]);
		expect(checkReadmeLink(readme.replace(/\]\(CHANGELOG\.md\)/g, '](https://example.com)'))).toEqual([
			"README.md's Version history does not link to CHANGELOG.md",
		]);
		expect(checkReadmeLink(readme.replace('## Version history', '## History'))).toEqual([
			'README.md has no "## Version history" section',
		]);
	});

	it('the changelog check catches order, dates, categories and links', () => {
		const text = [
			'# Changelog',
			'',
			'Keep a Changelog: https://keepachangelog.com/en/1.1.0/ and https://semver.org/spec/v2.0.0.html',
			'',
			'## [Unreleased]',
			'',
			'## [0.1.0] - 2026-11-01',
			'',
			'### Added',
			'',
			'- First.',
			'',
			'## [0.2.0] - 2026-12-01',
			'',
			'### Improved',
			'',
			'- Second.',
			'',
			'## 0.3.0',
			'',
			`[Unreleased]: ${REPO}/compare/0.1.0...HEAD`,
		].join('\n');
		expect(checkChangelog(parseChangelog(text), REPO, '0.1.0')).toEqual([
			'0.2.0 is listed below 0.1.0: newest first',
			'0.2.0 is dated after 0.1.0',
			'0.2.0: "### Improved" is not one of Added, Changed, Deprecated, Removed, Fixed, Security',
			'"## 0.3.0" is neither "## [Unreleased]" nor "## [x.y.z] - YYYY-MM-DD"',
			`the link reference should read "[0.1.0]: ${REPO}/compare/0.2.0...0.1.0"`,
			`the link reference should read "[0.2.0]: ${REPO}/releases/tag/0.2.0"`,
		]);
	});
});
