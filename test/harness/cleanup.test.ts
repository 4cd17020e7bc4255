/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Every test removes what it creates: the harness's n8n user folder (where n8n-core writes its
 * instance settings) is gone once the test file ends. The harness registers its removal when
 * it is imported, so before this file's own afterAll, which then finds nothing left.
 */
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { DEMO, startSandbox } from '../../sandbox';
import { testCredential } from '.';

const folder = process.env.N8N_USER_FOLDER as string;

afterAll(() => {
	expect(existsSync(folder)).toBe(false);
});

test('the harness works in a folder of its own in the system temp folder', async () => {
	expect(folder.startsWith(join(tmpdir(), 'n8n-harness-'))).toBe(true);
	const sandbox = await startSandbox({ port: 0, seed: 'demo' });
	try {
		const result = await testCredential(new KnolyxApi(), {
			baseUrl: sandbox.url,
			projectId: DEMO.projectId,
			apiKey: DEMO.apiKey,
		});
		expect(result.status).toBe('OK');
	} finally {
		await sandbox.close();
	}
	expect(existsSync(folder)).toBe(true);
});
