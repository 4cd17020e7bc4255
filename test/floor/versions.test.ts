/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** The floor run really uses the oldest supported n8n-core / n8n-workflow (jest.floor.config.js). */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Workflow } from 'n8n-workflow';

const versionOf = (entry: string): string => {
	let dir = dirname(entry);
	while (!/node_modules[\\/](n8n-core|n8n-workflow)$/.test(dir)) dir = dirname(dir);
	return (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string })
		.version;
};

describe('floor run', () => {
	it('resolves n8n-core 1.84.0 and n8n-workflow 1.83.0 (n8n 1.85) from the floor folder', async () => {
		const floor = process.env.KNOLYX_FLOOR_DIR as string;
		const core = require.resolve('n8n-core');
		expect(core.startsWith(floor)).toBe(true);
		expect(versionOf(core)).toBe('1.84.0');
		// The harness's n8n-workflow is the floor copy (plus createRunExecutionData, test/floor/n8n-workflow.js).
		const workflow = require.resolve(join(floor, 'node_modules', 'n8n-workflow'));
		expect(versionOf(workflow)).toBe('1.83.0');
		const floorCopy = (await import(workflow)) as { Workflow: unknown };
		expect(Workflow).toBe(floorCopy.Workflow);
	});
});
