/**
 * n8n's verification scanner, run locally: the same `analyzePackage` n8n runs on a submitted package, on the
 * source (package.json, nodes/, credentials/) and on the tarball `npm pack` produces (compiled .js and the
 * published package.json). Needs a build first (`npm run build`).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

interface ScanResult {
	passed: boolean;
	message?: string;
	details?: string;
}

async function main(): Promise<void> {
	const root = resolve(__dirname, '..');
	const scanner = (await import('@n8n/scan-community-package/scanner/scanner.mjs' as string)) as {
		analyzePackage(dir: string, patterns?: string[]): Promise<ScanResult>;
		SOURCE_FILE_PATTERNS: string[];
	};
	const work = mkdtempSync(join(tmpdir(), 'fieldops-scan-'));
	try {
		const packed = JSON.parse(
			execFileSync('npm', ['pack', '--json', '--pack-destination', work], { cwd: root, encoding: 'utf8' }),
		) as { filename: string; files: { path: string }[] }[];
		const unpacked = join(work, 'package');
		execFileSync('tar', ['-xzf', join(work, packed[0].filename), '-C', work]);

		const results: [string, ScanResult][] = [
			['source', await scanner.analyzePackage(root, scanner.SOURCE_FILE_PATTERNS)],
			[
				`tarball (${packed[0].files.length} files)`,
				await scanner.analyzePackage(unpacked, ['**/*.js', 'package.json']),
			],
		];
		let failed = false;
		for (const [what, result] of results) {
			console.log(
				`${result.passed ? '✅' : '❌'} verification scan of the ${what}${result.message ? `: ${result.message}` : ''}`,
			);
			if (result.details) console.log(result.details);
			failed ||= !result.passed;
		}
		process.exitCode = failed ? 1 : 0;
	} finally {
		rmSync(work, { recursive: true, force: true });
	}
}

main().catch((error: unknown) => {
	console.error(error);
	process.exit(1);
});
