/** Unit and workflow tests: real nodes, real HTTP against the sandbox on 127.0.0.1. */
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
	],
	transform: {
		'^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.dev.json', diagnostics: false }],
	},
	testTimeout: 30000,
};
