import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

import { importCycles, importGraph } from '../scripts/import-cycles';

/** A throwaway tree of .ts files: path → source. */
function tree(files: Record<string, string>): string {
	const root = mkdtempSync(join(tmpdir(), 'fieldops-cycles-'));
	for (const [path, source] of Object.entries(files)) {
		mkdirSync(dirname(join(root, path)), { recursive: true });
		writeFileSync(join(root, path), source);
	}
	return root;
}

describe('import cycles', () => {
	it('nodes/ and credentials/ have none, type-only imports and re-exports included', () => {
		const graph = importGraph();
		expect(graph.size).toBeGreaterThan(100);
		expect(importCycles(graph)).toEqual([]);
	});

	it('finds a cycle closed by a type-only import, by a re-export, through index.ts and by require', () => {
		const root = tree({
			'nodes/a.ts': "import type { B } from './b';\nexport const a = 1;",
			'nodes/b.ts': "import { a } from './a';\nexport type B = typeof a;",
			'nodes/c.ts': "export { d } from './d';\nexport const c = 1;",
			'nodes/d.ts': "export * from './e';\nexport const d = 2;",
			'nodes/e/index.ts': "import { c } from '../c';\nexport const e = c;",
			'nodes/f.ts': "const g = require('./g');\nexport const f = g;",
			'nodes/g.ts': "import { f } from './f';\nexport const g = f;",
			'nodes/h.ts':
				"import { a } from './a';\nimport { d } from './d';\nimport { readFileSync } from 'node:fs';\nexport const h = [a, d, readFileSync];",
			'credentials/x.ts': "import { h } from '../nodes/h';\nexport const x = h;",
		});
		expect(importCycles(importGraph(root))).toEqual([
			['nodes/a.ts', 'nodes/b.ts', 'nodes/a.ts'],
			['nodes/c.ts', 'nodes/d.ts', 'nodes/e/index.ts', 'nodes/c.ts'],
			['nodes/f.ts', 'nodes/g.ts', 'nodes/f.ts'],
		]);
	});

	it('finds none in a tree that only imports downwards', () => {
		const root = tree({
			'nodes/top.ts':
				"import { middle } from './lib/middle';\nimport type { Low } from './lib/low';\nexport const top: Low = middle;",
			'nodes/lib/middle.ts': "export { low as middle } from './low';",
			'nodes/lib/low.ts': 'export const low = 1;\nexport type Low = number;',
		});
		expect(importCycles(importGraph(root))).toEqual([]);
	});
});
