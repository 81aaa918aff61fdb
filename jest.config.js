/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } } }] },
	testTimeout: 60_000,
	// Two cores: one worker per core keeps the sandbox servers of parallel suites from starving each other.
	maxWorkers: 2,
};
