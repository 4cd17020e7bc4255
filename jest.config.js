/** Unit and workflow tests: real nodes, real HTTP against the sandbox on 127.0.0.1. */
const { availableParallelism } = require('node:os');

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test'],
	testMatch: ['**/*.test.ts'],
	// test/floor runs only in the floor run (npm run test:floor, jest.floor.config.js).
	testPathIgnorePatterns: [
		'/node_modules/',
		'/test/e2e/',
		'/test/faults/',
		'/test/queue/',
		'/test/floor/',
		// The variants suite: npm run test:variants (jest.variants.config.js).
		'/test/variants/',
	],
	transform: {
		'^.+\\.ts$': [
			'<rootDir>/test/ts-transform.js',
			{ tsconfig: 'tsconfig.dev.json', diagnostics: false },
		],
	},
	testTimeout: 30000,
	// Jest's default (one worker less than the cores) runs everything in one process on two
	// cores: the suites that wait on real time (timeouts, Retry-After, rates) then hold up the
	// rest. Two workers at least, so one suite's waits overlap another's work.
	maxWorkers: Math.max(2, availableParallelism() - 1),
};
