/** @type {import('jest').Config} */
module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// The real-n8n tests have their own configs and scripts (jest.e2e.config.js, npm run test:e2e;
	// jest.compat.config.js, npm run test:compat).
	testPathIgnorePatterns: ['/node_modules/', '<rootDir>/test/e2e/', '<rootDir>/test/compat/'],
	transform: {
		'^.+\\.ts$': [
			'@swc/jest',
			{ jsc: { target: 'es2022', parser: { syntax: 'typescript', decorators: true } } },
		],
	},
	testTimeout: 60_000,
	// Two cores: one worker per core keeps the sandbox servers of parallel suites from starving each other.
	maxWorkers: 2,
};
