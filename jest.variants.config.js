/**
 * The variants suite (`npm run test:variants`): the answers the Knolyx guides leave open, played
 * the other way by the sandbox (sandbox/variants.ts). `test/variants` runs once (each test plays
 * its variant); the operations' suite (test/action/operations.test.ts) runs once per group of
 * variants below, through KNOLYX_SANDBOX_VARIANTS, which every sandbox it starts reads. Together
 * the groups play every variant at least once. Kept out of `npm test` (jest.config.js ignores
 * /test/variants/), run by .ci/run and CI's checks job.
 */
const { groups: GROUPS } = require('./test/variants/groups.js');

const transform = {
	'^.+\\.ts$': [
		'<rootDir>/test/ts-transform.js',
		{ tsconfig: 'tsconfig.dev.json', diagnostics: false },
	],
};

module.exports = {
	testTimeout: 30000,
	maxWorkers: 2,
	projects: [
		{
			displayName: 'open answers',
			testEnvironment: 'node',
			roots: ['<rootDir>/test/variants'],
			testMatch: ['**/*.test.ts'],
			transform,
			// None by default (a worker may have run a group before): each test plays its own.
			globals: { KNOLYX_SANDBOX_VARIANTS: '' },
			setupFiles: ['<rootDir>/test/variants/play.js'],
		},
		...GROUPS.map((group) => ({
			displayName: `operations: ${group.join(', ')}`,
			testEnvironment: 'node',
			roots: ['<rootDir>/test/action'],
			testMatch: ['**/operations.test.ts'],
			transform,
			globals: { KNOLYX_SANDBOX_VARIANTS: group.join(',') },
			setupFiles: ['<rootDir>/test/variants/play.js'],
		})),
	],
};
