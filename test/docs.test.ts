/**
 * The docs stay short enough to read and true to the code: the generated tables match the node, README.md stays a
 * page for users, and every assumption ID the code and tests cite is a row of docs/assumptions.md.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

import { OPERATIONS, README, withOperations, withResources } from '../scripts/docs';
import { DEFAULT_VARIANT } from './sandbox/variant';

const ROOT = join(__dirname, '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const lines = (text: string) => text.split('\n');
const tooLong = (text: string, max: number) =>
	lines(text)
		.map((line, index) => ({ line: index + 1, length: line.length }))
		.filter(({ length }) => length > max);

const ASSUMPTIONS = 'docs/assumptions.md';
/** Where code, tests and docs cite assumptions by ID. */
const CITING = ['nodes', 'credentials', 'test', 'scripts', 'bench', 'examples', 'docs', 'README.md'];
const TEXT = /\.(ts|js|mjs|md|json|ya?ml)$/;

function files(path: string): string[] {
	const entries = readdirSync(join(ROOT, path), { withFileTypes: true });
	return entries.flatMap((entry) => {
		const child = `${path}/${entry.name}`;
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(child);
		// npm's locks (scripts/n8n/locks/) cite nothing; their integrity hashes hold ID-like runs such as `+E8/`.
		return TEXT.test(entry.name) && entry.name !== 'package-lock.json' ? [child] : [];
	});
}

/** The rows of docs/assumptions.md: `| **ID** | cell | … |`. */
function rows(text: string): Map<string, string[]> {
	const found = new Map<string, string[]>();
	for (const line of lines(text)) {
		const row = /^\| \*\*([A-Z]\d+)\*\* \|(.*)\|$/.exec(line);
		if (!row) continue;
		if (found.has(row[1])) throw new Error(`${ASSUMPTIONS}: ${row[1]} has two rows`);
		found.set(
			row[1],
			row[2].split(' | ').map((cell) => cell.trim()),
		);
	}
	return found;
}

/**
 * The IDs a text cites with these prefixes: `C4`, `[R10]`, `F1–F42` (a range cites each ID in it). Not a word's
 * part, a quoted value or a name with a hyphen (`'E18'`, `2026-W47`, `M24-1`), nor a number with a leading zero.
 */
function cited(text: string, prefixes: string): string[] {
	const id = new RegExp(`(?<![\\w'"\`/.-])([${prefixes}])([1-9]\\d?)(?:–\\1([1-9]\\d?))?(?![\\w'"\`-])`, 'g');
	return [...text.matchAll(id)].flatMap(([, prefix, from, to]) => {
		const last = Number(to ?? from);
		return Array.from({ length: last - Number(from) + 1 }, (_, i) => `${prefix}${Number(from) + i}`);
	});
}

describe('README.md', () => {
	const readme = read('README.md');

	it('is a page for users: at most 300 lines, none over 300 characters', () => {
		expect(lines(readme.trimEnd()).length).toBeLessThanOrEqual(300);
		expect(tooLong(readme, 300)).toEqual([]);
	});

	it('lists the resources the node has (run `npm run docs` after changing one)', () => {
		expect(readFileSync(README, 'utf8')).toBe(withResources(readFileSync(README, 'utf8')));
	});

	it('shows the test command that CI runs', () => {
		const commands = [...readme.matchAll(/```bash\n([\s\S]*?)```/g)].flatMap((block) => lines(block[1]));
		expect(commands).toEqual(expect.arrayContaining(['npm install && npm run demo', 'npm test']));
		expect(lines(read('.ci/run'))).toContain('npm test');
	});
});

describe('docs/operations.md', () => {
	it('lists the operations the node offers (run `npm run docs` after changing an operation)', () => {
		const page = readFileSync(OPERATIONS, 'utf8');
		expect(page).toBe(withOperations(page));
	});
});

describe('docs/assumptions.md', () => {
	const text = read(ASSUMPTIONS);
	const defined = rows(text);
	const prefixes = [...new Set([...defined.keys()].map((id) => id[0]))].join('');

	it('has no line over 400 characters', () => {
		expect(tooLong(text, 400)).toEqual([]);
	});

	it('defines every ID the code, tests and docs cite', () => {
		const missing = CITING.flatMap((path) => (path.includes('.') ? [path] : files(path)))
			.filter((file) => file !== ASSUMPTIONS && join(ROOT, file) !== __filename)
			.flatMap((file) =>
				cited(read(file), prefixes)
					.filter((id) => !defined.has(id))
					.map((id) => `${id} (${relative(ROOT, join(ROOT, file))})`),
			);
		expect(prefixes.length).toBeGreaterThan(10);
		expect([...new Set(missing)]).toEqual([]);
	});

	it('names every choice of the sandbox, and each has its test in variant-alt', () => {
		const keys = Object.keys(DEFAULT_VARIANT).filter((key) => key !== 'name');
		expect(keys.filter((key) => !text.includes(`\`${key}\``))).toEqual([]);
		const keyed = [...defined].filter(([, cells]) => keys.some((key) => cells[2]?.startsWith(`\`${key}\``)));
		const altTests = new Set(cited(read('test/sandbox/variant-alt.test.ts'), prefixes));
		expect(keyed.length).toBeGreaterThan(70);
		expect(keyed.map(([id]) => id).filter((id) => !altTests.has(id))).toEqual([]);
	});

	it('names only test files that exist', () => {
		const tests = new Set(
			files('test')
				.filter((file) => file.endsWith('.test.ts'))
				.map((file) => file.slice(file.lastIndexOf('/') + 1, -'.test.ts'.length)),
		);
		const named = [...defined.values()]
			.filter((cells) => cells.length === 5)
			.flatMap((cells) => cells[4].split(', '))
			.filter((name) => name !== '—');
		expect(named.length).toBeGreaterThan(100);
		expect([...new Set(named)].filter((name) => !tests.has(name))).toEqual([]);
	});
});
