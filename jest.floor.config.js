/**
 * The floor run (`npm run test:floor`, scripts/floor.mjs): the harness tests of
 * the action node against the oldest n8n this package supports, n8n-core 1.84.0
 * with n8n-workflow 1.83.0 (n8n 1.85), installed by scripts/floor.mjs in a cache
 * folder outside the package's dependencies (KNOLYX_FLOOR_DIR) and resolved
 * here in place of the 2.x copies in node_modules.
 */
const path = require('node:path');
const base = require('./jest.config.js');

const floor = process.env.KNOLYX_FLOOR_DIR;
if (!floor) throw new Error('KNOLYX_FLOOR_DIR is not set: run npm run test:floor');

module.exports = {
	...base,
	testPathIgnorePatterns: base.testPathIgnorePatterns.filter((p) => p !== '/test/floor/'),
	moduleNameMapper: {
		'^n8n-workflow$': '<rootDir>/test/floor/n8n-workflow.js',
		'^n8n-core$': path.join(floor, 'node_modules', 'n8n-core'),
		'^@n8n/di$': path.join(floor, 'node_modules', '@n8n', 'di'),
	},
};
