/**
 * CHANGELOG.md, in Keep a Changelog 1.1.0 form, is the one place where releases are described; the README's
 * "Version history" section links to it.
 *
 *   tsx scripts/changelog.ts                  check the changelog's form and that the README links it
 *                                             (part of `npm run lint`)
 *   tsx scripts/changelog.ts --release 1.2.3  the Unreleased section becomes 1.2.3, dated today (the release-it
 *                                             hook of `npm run release`; see package.json "release-it")
 *   tsx scripts/changelog.ts --released 1.2.3 package.json is 1.2.3 and the changelog has its dated section
 *                                             (the publish workflow, for the pushed tag)
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..');
const CHANGELOG = join(ROOT, 'CHANGELOG.md');
const README = join(ROOT, 'README.md');

export const CATEGORIES = ['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'];
const SEMVER = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;

export interface Section {
	/** `Unreleased` or a version. */
	version: string;
	/** YYYY-MM-DD for a release. */
	date?: string;
	/** The lines under the heading, trimmed of blank lines at both ends. */
	body: string[];
}

export interface Changelog {
	header: string[];
	sections: Section[];
	links: Map<string, string>;
}

export function parseChangelog(text: string): Changelog {
	const lines = text.replace(/\r\n/g, '\n').split('\n');
	const header: string[] = [];
	const sections: Section[] = [];
	const links = new Map<string, string>();
	for (const line of lines) {
		const link = /^\[([^\]]+)\]:\s*(\S+)\s*$/.exec(line);
		if (link) {
			links.set(link[1], link[2]);
			continue;
		}
		const heading = /^## (.*)$/.exec(line);
		if (heading) {
			const released = /^\[([^\]]+)\] - (\d{4}-\d{2}-\d{2})$/.exec(heading[1]);
			const unreleased = /^\[Unreleased\]$/.exec(heading[1]);
			sections.push(
				released
					? { version: released[1], date: released[2], body: [] }
					: { version: unreleased ? 'Unreleased' : `?${heading[1]}`, body: [] },
			);
			continue;
		}
		if (sections.length === 0) header.push(line);
		else sections[sections.length - 1].body.push(line);
	}
	for (const section of sections) {
		while (section.body.length && !section.body[0].trim()) section.body.shift();
		while (section.body.length && !section.body[section.body.length - 1].trim()) section.body.pop();
	}
	return { header, sections, links };
}

/** Negative, zero or positive as a is older than, equal to or newer than b (pre-releases before their release). */
export function compareVersions(a: string, b: string): number {
	const [, ...pa] = SEMVER.exec(a) ?? [];
	const [, ...pb] = SEMVER.exec(b) ?? [];
	for (let i = 0; i < 3; i++) if (Number(pa[i]) !== Number(pb[i])) return Number(pa[i]) - Number(pb[i]);
	if (pa[3] === pb[3]) return 0;
	if (pa[3] === undefined) return 1;
	if (pb[3] === undefined) return -1;
	return pa[3] < pb[3] ? -1 : 1;
}

export function repositoryUrl(manifest: { repository?: string | { url?: string } }): string {
	const raw =
		typeof manifest.repository === 'string' ? manifest.repository : (manifest.repository?.url ?? '');
	return raw.replace(/^git\+/, '').replace(/\.git$/, '');
}

/** The link references Keep a Changelog puts under the sections: each release compared with the one before. */
export function expectedLinks(sections: Section[], repo: string): Map<string, string> {
	const releases = sections.filter((s) => s.version !== 'Unreleased').map((s) => s.version);
	const links = new Map<string, string>();
	links.set('Unreleased', releases.length ? `${repo}/compare/${releases[0]}...HEAD` : `${repo}/commits/main`);
	releases.forEach((version, i) => {
		const previous = releases[i + 1];
		links.set(
			version,
			previous ? `${repo}/compare/${previous}...${version}` : `${repo}/releases/tag/${version}`,
		);
	});
	return links;
}

/** What is wrong with the changelog's form (empty when nothing). */
export function checkChangelog(changelog: Changelog, repo: string, packageVersion: string): string[] {
	const problems: string[] = [];
	const header = changelog.header.join('\n');
	if (changelog.header[0] !== '# Changelog') problems.push('the first line is not "# Changelog"');
	if (!header.includes('https://keepachangelog.com/en/1.1.0/'))
		problems.push('the introduction does not link Keep a Changelog 1.1.0');
	if (!header.includes('https://semver.org/spec/v2.0.0.html'))
		problems.push('the introduction does not link Semantic Versioning 2.0.0');
	const { sections } = changelog;
	if (sections[0]?.version !== 'Unreleased') problems.push('the first section is not "## [Unreleased]"');
	const seen = new Set<string>();
	let newer: Section | undefined;
	for (const section of sections) {
		const name = section.version;
		if (name.startsWith('?')) {
			problems.push(`"## ${name.slice(1)}" is neither "## [Unreleased]" nor "## [x.y.z] - YYYY-MM-DD"`);
			continue;
		}
		if (seen.has(name)) problems.push(`"${name}" has two sections`);
		seen.add(name);
		if (name !== 'Unreleased') {
			if (!SEMVER.test(name)) problems.push(`"${name}" is not a semantic version`);
			if (!section.date || Number.isNaN(Date.parse(`${section.date}T00:00:00Z`)))
				problems.push(`${name}: "${section.date}" is not a date`);
			if (newer && newer.version !== 'Unreleased') {
				if (compareVersions(name, newer.version) >= 0)
					problems.push(`${name} is listed below ${newer.version}: newest first`);
				if (newer.date && section.date && section.date > newer.date)
					problems.push(`${name} is dated after ${newer.version}`);
			}
		}
		newer = section;
		problems.push(...checkBody(section));
	}
	const expected = expectedLinks(
		sections.filter((s) => !s.version.startsWith('?')),
		repo,
	);
	for (const [label, url] of expected) {
		if (changelog.links.get(label) !== url)
			problems.push(`the link reference should read "[${label}]: ${url}"`);
	}
	for (const label of changelog.links.keys())
		if (!expected.has(label)) problems.push(`the link reference [${label}] names no section`);
	const latest = sections.find((s) => s.version !== 'Unreleased' && !s.version.startsWith('?'));
	if (latest && latest.version !== packageVersion) {
		problems.push(
			`package.json's version is ${packageVersion}, the newest release in CHANGELOG.md is ${latest.version}`,
		);
	}
	return problems;
}

function checkBody(section: Section): string[] {
	const problems: string[] = [];
	const where = section.version === 'Unreleased' ? 'Unreleased' : section.version;
	let category: string | undefined;
	let entries = 0;
	const categories: string[] = [];
	const close = () => {
		if (category && entries === 0) problems.push(`${where}: "### ${category}" has no entries`);
	};
	for (const line of section.body) {
		const heading = /^### (.*)$/.exec(line);
		if (heading) {
			close();
			category = heading[1];
			entries = 0;
			if (!CATEGORIES.includes(category))
				problems.push(`${where}: "### ${category}" is not one of ${CATEGORIES.join(', ')}`);
			if (categories.includes(category)) problems.push(`${where}: "### ${category}" appears twice`);
			categories.push(category);
		} else if (line.trim()) {
			if (!category) problems.push(`${where}: "${line.trim().slice(0, 40)}" is outside a ### category`);
			else if (/^- /.test(line)) entries++;
			else if (!/^\s+\S/.test(line))
				problems.push(
					`${where}: "${line.trim().slice(0, 40)}" is neither an entry ("- ") nor its continuation`,
				);
		}
	}
	close();
	if (section.version !== 'Unreleased' && categories.length === 0)
		problems.push(`${where}: a release with no entries`);
	return problems;
}

export function renderChangelog(changelog: Changelog, repo: string): string {
	const out = [...changelog.header];
	while (out.length && !out[out.length - 1].trim()) out.pop();
	for (const section of changelog.sections) {
		out.push(
			'',
			section.version === 'Unreleased' ? '## [Unreleased]' : `## [${section.version}] - ${section.date}`,
		);
		if (section.body.length) out.push('', ...section.body);
	}
	out.push('');
	for (const [label, url] of expectedLinks(changelog.sections, repo)) out.push(`[${label}]: ${url}`);
	return `${out.join('\n')}\n`;
}

/** README.md's Version history: where people reading the README find the changelog (the section n8n's template asks for). */
export function checkReadmeLink(readme: string): string[] {
	const section = /^## Version history\n([\s\S]*?)(?=^## |(?![\s\S]))/m.exec(readme)?.[1];
	if (section === undefined) return ['README.md has no "## Version history" section'];
	return section.includes('](CHANGELOG.md)')
		? []
		: ["README.md's Version history does not link to CHANGELOG.md"];
}

function manifest(): { version: string; repository?: string | { url?: string } } {
	return JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
}

export function main(args: string[]): number {
	const pkg = manifest();
	const repo = repositoryUrl(pkg);
	const [flag, version] = args;

	if (flag === '--release') {
		if (!version || !SEMVER.test(version))
			throw new Error(`--release needs a version, got "${version ?? ''}"`);
		// n8n-node release's own step (auto-changelog) rewrites the working copy from commit subjects: the curated
		// changelog is the committed one.
		let text: string;
		try {
			text = execFileSync('git', ['show', 'HEAD:CHANGELOG.md'], {
				cwd: ROOT,
				encoding: 'utf8',
				stdio: ['ignore', 'pipe', 'ignore'],
			});
		} catch {
			text = readFileSync(CHANGELOG, 'utf8');
		}
		const changelog = parseChangelog(text);
		const unreleased = changelog.sections.find((s) => s.version === 'Unreleased');
		if (!unreleased || unreleased.body.length === 0)
			throw new Error('CHANGELOG.md: the Unreleased section is empty; describe the release there first');
		if (changelog.sections.some((s) => s.version === version))
			throw new Error(`CHANGELOG.md already has ${version}`);
		const released: Section = { version, date: new Date().toISOString().slice(0, 10), body: unreleased.body };
		unreleased.body = [];
		changelog.sections.splice(changelog.sections.indexOf(unreleased) + 1, 0, released);
		changelog.links = expectedLinks(changelog.sections, repo);
		const problems = checkChangelog(changelog, repo, version);
		if (problems.length) throw new Error(`CHANGELOG.md:\n- ${problems.join('\n- ')}`);
		writeFileSync(CHANGELOG, renderChangelog(changelog, repo));
		console.log(`CHANGELOG.md: Unreleased is now ${version} (${released.date}).`);
		return 0;
	}

	const changelog = parseChangelog(readFileSync(CHANGELOG, 'utf8'));
	const problems = [
		...checkChangelog(changelog, repo, pkg.version),
		...checkReadmeLink(readFileSync(README, 'utf8')),
	];
	if (flag === '--released') {
		if (pkg.version !== version)
			problems.push(`the tag is ${version}, package.json's version ${pkg.version}`);
		if (!changelog.sections.some((s) => s.version === version && s.date))
			problems.push(`CHANGELOG.md has no dated section for ${version}`);
	}
	if (problems.length) {
		console.error(`CHANGELOG.md / README.md:\n- ${problems.join('\n- ')}`);
		return 1;
	}
	const latest = changelog.sections.find((s) => s.version !== 'Unreleased');
	console.log(
		`CHANGELOG.md: Keep a Changelog form, ${changelog.sections.length} section(s)${latest ? `, latest release ${latest.version}` : ', nothing released yet'}; README.md links it.`,
	);
	return 0;
}

if (require.main === module) {
	try {
		process.exitCode = main(process.argv.slice(2));
	} catch (error) {
		console.error(error instanceof Error ? error.message : error);
		process.exitCode = 1;
	}
}
