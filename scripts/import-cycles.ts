/**
 * `tsx scripts/import-cycles.ts` (part of `npm run lint`): fails when the published code (nodes/, credentials/)
 * has an import cycle. Every import counts, `import type` and `export … from` included: a cycle of types still
 * ties two files into one concept that cannot be read, moved or tested apart.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

import ts from 'typescript';

const ROOT = resolve(__dirname, '..');
export const PUBLISHED = ['nodes', 'credentials'];

/** Every .ts file under the folders, as paths relative to `root`. */
function sources(root: string, folders: string[]): string[] {
	const found: string[] = [];
	const walk = (dir: string) => {
		for (const entry of readdirSync(dir)) {
			const path = join(dir, entry);
			if (statSync(path).isDirectory()) walk(path);
			else if (entry.endsWith('.ts') && !entry.endsWith('.d.ts')) found.push(relative(root, path));
		}
	};
	for (const folder of folders) if (existsSync(join(root, folder))) walk(join(root, folder));
	return found.sort();
}

/** The file a relative specifier names (`./x` is x.ts or x/index.ts), or undefined for a package. */
function resolveSpecifier(root: string, from: string, specifier: string): string | undefined {
	if (!specifier.startsWith('.')) return undefined;
	const base = join(dirname(from), specifier);
	for (const candidate of [`${base}.ts`, join(base, 'index.ts'), base])
		if (existsSync(join(root, candidate)) && statSync(join(root, candidate)).isFile()) return candidate;
	return undefined;
}

/** File → the files it imports (type-only imports, re-exports, require and import() included). */
export function importGraph(root = ROOT, folders = PUBLISHED): Map<string, string[]> {
	const graph = new Map<string, string[]>();
	for (const file of sources(root, folders)) {
		const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
		const targets = importedFiles
			.map((imported) => resolveSpecifier(root, file, imported.fileName))
			.filter((target): target is string => target !== undefined);
		graph.set(file, [...new Set(targets)]);
	}
	return graph;
}

/** Each cycle once, as the files in import order with the first repeated at the end (Tarjan's components). */
export function importCycles(graph: Map<string, string[]>): string[][] {
	let counter = 0;
	const index = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const components: string[][] = [];
	const visit = (file: string) => {
		index.set(file, counter);
		low.set(file, counter++);
		stack.push(file);
		onStack.add(file);
		for (const next of graph.get(file) ?? []) {
			if (!index.has(next)) {
				visit(next);
				low.set(file, Math.min(low.get(file)!, low.get(next)!));
			} else if (onStack.has(next)) low.set(file, Math.min(low.get(file)!, index.get(next)!));
		}
		if (low.get(file) !== index.get(file)) return;
		const component: string[] = [];
		let member: string;
		do {
			member = stack.pop()!;
			onStack.delete(member);
			component.push(member);
		} while (member !== file);
		if (component.length > 1 || (graph.get(file) ?? []).includes(file)) components.push(component);
	};
	for (const file of graph.keys()) if (!index.has(file)) visit(file);
	return components
		.map((component) => shortestLoop([...component].sort()[0], new Set(component), graph))
		.sort((x, y) => x[0].localeCompare(y[0]));
}

/** The shortest way from `start` along imports within `members` back to `start`, both ends listed. */
function shortestLoop(start: string, members: Set<string>, graph: Map<string, string[]>): string[] {
	const previous = new Map<string, string>();
	const queue = [start];
	for (let head = 0; head < queue.length; head++) {
		const at = queue[head];
		for (const next of graph.get(at) ?? []) {
			if (next === start) {
				const path = [start];
				for (let step = at; step !== start; step = previous.get(step)!) path.splice(1, 0, step);
				return [...path, start];
			}
			if (members.has(next) && !previous.has(next)) {
				previous.set(next, at);
				queue.push(next);
			}
		}
	}
	return [start, start];
}

if (require.main === module) {
	const graph = importGraph();
	const cycles = importCycles(graph);
	if (cycles.length === 0) {
		console.log(`No import cycles among ${graph.size} files of ${PUBLISHED.join('/ and ')}/.`);
	} else {
		console.error(`Import cycles in ${PUBLISHED.join('/ and ')}/ (type-only imports count too):`);
		for (const cycle of cycles) console.error(`  ${cycle.join(' → ')}`);
		process.exit(1);
	}
}
