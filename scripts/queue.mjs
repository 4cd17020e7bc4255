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

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { keepRunLogs } from './lib/artifacts.mjs';
import { endRunProcesses, killRunProcesses, suiteChild } from './lib/processes.mjs';
import { ensureN8n, N8N_VERSION, REPO_ROOT } from './n8n-runtime.mjs';

const TIMEOUT_MS = Number(process.env.KNOLYX_QUEUE_TIMEOUT_MS ?? 15 * 60_000);
const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'queue');

const t0 = Date.now();
const secs = (from = t0) => `${((Date.now() - from) / 1000).toFixed(1)} s`;
const say = (msg) => console.error(`[queue ${secs()}] ${msg}`);

// The run folder first: the test libraries (test/e2e/lib/processes.mjs) read it when imported.
const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'knolyx-queue-'));
process.env.KNOLYX_E2E_RUN_DIR = runDir;
const { ensureDebianPackages } = await import('../test/queue/lib/services.mjs');

function ensureBuild() {
	const built = [
		'dist/nodes/Knolyx/Knolyx.node.js',
		'dist/nodes/Knolyx/KnolyxTrigger.node.js',
		'dist/credentials/KnolyxApi.credentials.js',
	];
	if (built.every((f) => fs.existsSync(path.join(REPO_ROOT, f)))) return;
	say('dist/ is missing: npm run build');
	const res = spawnSync('npm', ['run', '--silent', 'build'], { cwd: REPO_ROOT, stdio: 'inherit' });
	if (res.status !== 0) throw new Error('npm run build failed');
}

function keepArtifacts() {
	keepRunLogs(
		runDir,
		ARTIFACTS_DIR,
		/(^|\/)(n8n\.log|sandbox\.log|redis\.log|postgres\.log|summary\.json)$/,
		['node_modules', 'data', '.n8n'],
		say,
	);
}

const suite = suiteChild(say);

async function main() {
	const aptSeconds = ensureDebianPackages();
	ensureBuild();
	const tInstall = Date.now();
	await ensureN8n();
	say(
		`redis-server, PostgreSQL${aptSeconds ? ` (installed in ${aptSeconds.toFixed(0)} s)` : ''} and n8n ${N8N_VERSION} (${secs(tInstall)}) ready`,
	);

	let code = 1;
	let timedOut = false;
	if (!suite.interrupted) {
		const tRun = Date.now();
		say(`test/queue/queue.mjs (run folder ${runDir}, limit ${TIMEOUT_MS / 1000} s)`);
		({ code, timedOut } = await suite.run(
			path.join(REPO_ROOT, 'test', 'queue', 'queue.mjs'),
			process.argv.slice(2),
			{
				cwd: REPO_ROOT,
				env: { ...process.env, KNOLYX_E2E_RUN_DIR: runDir },
				timeoutMs: TIMEOUT_MS,
			},
		));
		say(`queue run exited ${code} after ${secs(tRun)}`);
	}

	code = await endRunProcesses(runDir, code, say);
	keepArtifacts();
	if (process.env.KNOLYX_QUEUE_KEEP === '1') say(`kept the run folder ${runDir}`);
	else fs.rmSync(runDir, { recursive: true, force: true });
	if (timedOut) code ||= 1;
	if (suite.interrupted) code ||= 130;
	say(
		`exit ${code}; total ${secs()}; logs and summary.json in ${path.relative(REPO_ROOT, ARTIFACTS_DIR)}/`,
	);
	process.exit(code);
}

main().catch(async (err) => {
	console.error(`[queue] ${err.stack ?? err}`);
	await killRunProcesses(runDir).catch(() => {});
	fs.rmSync(runDir, { recursive: true, force: true });
	process.exit(1);
});
