#!/usr/bin/env node
// `npm run test:queue`: the nodes in n8n's queue mode (test/queue/queue.mjs).
//
//   1. Debian's redis-server and postgresql (apt-get install when missing; root or sudo -n)
//   2. the built package (npm run build when dist/ is missing)
//   3. the pinned n8n + Node 24 (scripts/n8n-runtime.mjs ensureN8n; cached in ~/.cache/n8n-nodes-knolyx/)
//   4. test/queue/queue.mjs in its own process group, with a hard time limit
//      (KNOLYX_QUEUE_TIMEOUT_MS, default 15 min), in a fresh run folder under the
//      temp dir: Redis, PostgreSQL, the sandbox and every n8n process keep their data there
//   5. afterwards, whatever happened: kill every process group the run recorded and
//      every process still running inside the run folder; copy the logs and
//      summary.json to test-artifacts/queue/; remove the run folder
//      (KNOLYX_QUEUE_KEEP=1 keeps it). Processes left behind after a passing run fail it.
//
// Extra arguments go to test/queue/queue.mjs, e.g. `npm run test:queue -- --events 200 --no-two`.

import path from 'node:path';

import { ensureBuild, suiteRun } from './lib/suite.mjs';
import { ensureN8n, N8N_VERSION, REPO_ROOT } from './n8n-runtime.mjs';

const TIMEOUT_MS = Number(process.env.KNOLYX_QUEUE_TIMEOUT_MS ?? 15 * 60_000);
const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'queue');

// The run folder first: the test libraries (test/e2e/lib/processes.mjs) read it when imported.
const { secs, say, ...suite } = suiteRun('queue', {
	artifactsDir: ARTIFACTS_DIR,
	logs: {
		wanted: /(^|\/)(n8n\.log|sandbox\.log|redis\.log|postgres\.log|summary\.json)$/,
		skipDirs: ['node_modules', 'data', '.n8n'],
	},
});
const { ensureDebianPackages } = await import('../test/queue/lib/services.mjs');

async function main() {
	const aptSeconds = ensureDebianPackages();
	ensureBuild(say);
	const tInstall = Date.now();
	await ensureN8n();
	say(
		`redis-server, PostgreSQL${aptSeconds ? ` (installed in ${aptSeconds.toFixed(0)} s)` : ''} and n8n ${N8N_VERSION} (${secs(tInstall)}) ready`,
	);
	const code = await suite.run(
		'test/queue/queue.mjs',
		[path.join(REPO_ROOT, 'test', 'queue', 'queue.mjs'), ...process.argv.slice(2)],
		{ env: process.env, timeoutMs: TIMEOUT_MS },
	);
	await suite.finish(code);
}

main().catch(suite.abort);
