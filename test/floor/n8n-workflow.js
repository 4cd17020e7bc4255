/**
 * `n8n-workflow` for the floor run (jest.floor.config.js): the oldest supported
 * n8n-workflow (1.83.0, n8n 1.85), installed outside the package's dependencies
 * by scripts/floor.mjs. The nodes use it as it is. Only the test harness needs
 * one helper that version lacks, `createRunExecutionData` (it builds the
 * execution state the harness hands to n8n-core's WorkflowExecute): added here
 * with the same defaults, so the harness runs unchanged on both versions.
 */
const path = require('node:path');

const dir = process.env.KNOLYX_FLOOR_DIR;
if (!dir)
	throw new Error('KNOLYX_FLOOR_DIR is not set: run the floor tests with npm run test:floor');
const workflow = require(path.join(dir, 'node_modules', 'n8n-workflow'));

function createRunExecutionData(data = {}) {
	const { executionData, resultData, ...rest } = data;
	return {
		startData: {},
		resultData: { runData: {}, pinData: {}, ...resultData },
		...(executionData === null
			? {}
			: {
					executionData: {
						contextData: {},
						nodeExecutionStack: [],
						metadata: {},
						waitingExecution: {},
						waitingExecutionSource: {},
						...executionData,
					},
				}),
		...rest,
	};
}

module.exports = {
	...workflow,
	createRunExecutionData: workflow.createRunExecutionData ?? createRunExecutionData,
};
