/**
 * The fault suite (`npm run test:faults`): storms of platform faults through the workflow
 * harness, rule saves lost half way, concurrent rule edits, property tests, secrets and
 * trigger abuse. Kept out of the default `npm test` (jest.config.js ignores /test/faults/).
 */
const { tmpdir } = require('node:os');
const { join } = require('node:path');

// Each scenario appends one line of counts here; the counts reporter prints them at the end.
// Set in the main process before the workers start, so every worker inherits the same file.
process.env.KNOLYX_FAULT_COUNTS ??= join(
	tmpdir(),
	`knolyx-fault-counts-${process.pid}-${Date.now()}.jsonl`,
);

module.exports = {
	testEnvironment: 'node',
	roots: ['<rootDir>/test/faults'],
	testMatch: ['**/*.test.ts'],
	transform: {
		'^.+\\.ts$': [
			'<rootDir>/test/ts-transform.js',
			{ tsconfig: 'tsconfig.dev.json', diagnostics: false },
		],
	},
	testTimeout: 120000,
	// Four workers: the suite mostly waits (Retry-After, 1 s timeouts, settling): with two it
	// kept the cores busy 35% of its 116 s in a fresh CI run (2026-11-28), the two storm files
	// and the secrets file taking most of it. Not more: the timing-sensitive scenarios must not
	// starve.
	maxWorkers: 4,
	reporters: ['default', '<rootDir>/test/faults/counts-reporter.js'],
};
