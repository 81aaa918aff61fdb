// Lint for what is not published (tests, the sandbox, scripts, benchmarks): ordinary TypeScript rules.
// The published code is linted by `n8n-node lint` with n8n's community rules (scripts/lint-package.ts).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{ ignores: ['dist/**', 'node_modules/**', '.lint-package/**', '.e2e/**', 'nodes/**', 'credentials/**'] },
	{
		files: ['test/**/*.ts', 'scripts/**/*.ts', 'bench/**/*.ts'],
		extends: [js.configs.recommended, ...tseslint.configs.recommended],
		rules: {
			'@typescript-eslint/no-explicit-any': 'off',
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
		},
	},
);
