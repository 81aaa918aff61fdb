/** @type {import('jest').Config} The n8n 1.x compatibility smoke test (`npm run test:compat`): one n8n at a time. */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/compat'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': [
			'@swc/jest',
			{ jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } } },
		],
	},
	// n8n needs 7-9 s to start (longer on a loaded machine): generous limits, one suite at a time (2 cores).
	testTimeout: 120_000,
	maxWorkers: 1,
};
