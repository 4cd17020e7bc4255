/**
 * End-to-end tests in a real n8n (test/e2e). Run them with `npm run test:e2e`:
 * scripts/e2e.mjs installs what is missing (Chromium, n8n), then runs jest with
 * this config in band under --experimental-vm-modules (the tests are ES modules
 * that share scripts/n8n-runtime.mjs) and kills whatever the run left behind.
 */
module.exports = {
	testEnvironment: 'node',
	rootDir: __dirname,
	roots: ['<rootDir>/test/e2e'],
	testMatch: ['**/*.e2e.test.mjs'],
	transform: {},
	moduleFileExtensions: ['mjs', 'js', 'json'],
	// Each test file starts its own n8n, sandbox and Chromium (free ports, its own folder), so
	// files can run side by side: scripts/e2e.mjs runs two at a time (KNOLYX_E2E_WORKERS); run
	// directly, jest runs them one after the other.
	maxWorkers: 1,
	testTimeout: 120_000,
	verbose: true,
	// afterAll stops n8n, the sandbox and Chromium, and scripts/e2e.mjs then kills anything
	// left in the run folder; a pending timer (e.g. n8n-runtime's bounded stop wait) must not
	// keep jest alive for another 20 s.
	forceExit: true,
};
