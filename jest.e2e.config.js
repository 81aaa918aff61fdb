/** @type {import('jest').Config} End-to-end tests against a real n8n (`npm run test:e2e`): one n8n at a time. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': [
			'@swc/jest',
			{ jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } } },
		],
	},
	// n8n needs 7-9 s to start, a CLI execution about 4 s: generous limits, and one suite at a time (2 cores).
	testTimeout: 120_000,
	maxWorkers: 1,
};
