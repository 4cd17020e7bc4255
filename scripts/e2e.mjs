#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end tests in a real n8n (test/e2e, jest.e2e.config.js).
//
//   1. Debian's chromium at /usr/bin/chromium (apt-get install when missing; needs root or sudo -n)
//   2. the built package (npm run build when dist/ is missing)
//   3. the pinned n8n of the selected line (scripts/n8n-runtime.mjs ensureN8n; 2.41.1 with Node 24:
//      ~10-12 min once, 1.123.81: ~2-5 min once; then cached in ~/.cache/n8n-nodes-knolyx/)
//   4. jest under --experimental-vm-modules, two test files at a time (KNOLYX_E2E_WORKERS, default
//      2; 1 runs them one after the other), in its own process group, with a hard time limit
//      (KNOLYX_E2E_TIMEOUT_MS, default 30 min); with KNOLYX_E2E_BESIDE, the files it matches in a
//      second jest beside the first
//   5. afterwards, whatever happened: kill every process group the tests recorded and every
//      process still running inside the run folder (n8n, its task runner, the sandbox,
//      Chromium); copy the n8n and sandbox logs to test-artifacts/e2e-<version>/; remove the run
//      folder.
//      Processes left behind after a passing run fail the run.
//
// `--n8n <version>` (or KNOLYX_N8N_VERSION) picks the n8n line: 2.41.1 (default) or 1.123.81.
// Other arguments go to jest, e.g. `npm run test:e2e -- --n8n 1.123.81 -t "Knolyx Trigger"`.
// KNOLYX_E2E_KEEP=1 keeps the run folder (n8n's database and logs) for a look afterwards.
// KNOLYX_E2E_LEAVE_OUT (a jest path pattern) leaves the files it matches out of the run, and
// KNOLYX_E2E_ARTIFACTS_DIR names the artifacts folder: .ci/run runs a line's files in two parts,
// one in each lane, each part with its own folder.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { CHROMIUM as DEBIAN_CHROMIUM, ensureDebian } from './lib/debian.mjs';
import { ensureBuild, suiteRun } from './lib/suite.mjs';
// Importing n8n-runtime reads (and removes) `--n8n <version>` from process.argv and
// exports the choice as KNOLYX_N8N_VERSION, which jest and the tests inherit.
import { ensureN8n, N8N_VERSION, NODE_VERSION, REPO_ROOT } from './n8n-runtime.mjs';

const CHROMIUM = process.env.KNOLYX_E2E_CHROMIUM ?? DEBIAN_CHROMIUM;
const JEST_TIMEOUT_MS = Number(process.env.KNOLYX_E2E_TIMEOUT_MS ?? 30 * 60_000);
// Test files run two at a time (KNOLYX_E2E_WORKERS): each file has its own n8n, sandbox and
// Chromium on free ports, and most of a file's time is spent waiting on n8n (schedules, polls).
const WORKERS = Math.max(1, Number(process.env.KNOLYX_E2E_WORKERS ?? 2));
// KNOLYX_E2E_BESIDE (a jest path pattern, matched against each file's absolute path; .ci/run sets
// `/poll\.e2e\.test\.mjs$`): the test files it matches run in a jest of their own at the same time
// as the others' jest. For a file that mostly waits on n8n's clock (the poll file: in CI,
// 2026-11-28, its test of three one-minute polls took 135-160 s of the file's 202-208 s) beside the
// files that keep a core busy. Only for a whole run: left aside when arguments are given.
const BESIDE = process.env.KNOLYX_E2E_BESIDE ?? '';
// One folder per n8n line, so .ci/run can run both lines side by side; exported to the tests
// (test/e2e/lib/processes.mjs writes the screenshots and each file's logs there).
const ARTIFACTS_DIR = path.resolve(
	REPO_ROOT,
	process.env.KNOLYX_E2E_ARTIFACTS_DIR ?? path.join('test-artifacts', `e2e-${N8N_VERSION}`),
);
process.env.KNOLYX_E2E_ARTIFACTS_DIR = ARTIFACTS_DIR;
const LEAVE_OUT = process.env.KNOLYX_E2E_LEAVE_OUT ?? '';

const { secs, say, ...suite } = suiteRun('e2e', { artifactsDir: ARTIFACTS_DIR, logs: keepLogs });

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	if (CHROMIUM !== DEBIAN_CHROMIUM)
		throw new Error(`KNOLYX_E2E_CHROMIUM=${CHROMIUM} does not exist`);
	ensureDebian(['chromium'], say);
}

/** Each test file's n8n and sandbox logs (test/e2e/lib/processes.mjs: one folder per file). */
function keepLogs(runDir) {
	fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
	for (const dir of fs.readdirSync(runDir, { withFileTypes: true })) {
		if (!dir.isDirectory()) continue;
		for (const [from, to] of [
			[path.join(runDir, dir.name, 'n8n', 'n8n.log'), `${dir.name}-n8n.log`],
			[path.join(runDir, dir.name, 'sandbox.log'), `${dir.name}-sandbox.log`],
		]) {
			if (fs.existsSync(from)) fs.copyFileSync(from, path.join(ARTIFACTS_DIR, to));
		}
	}
}

async function main() {
	ensureChromium();
	say(
		`chromium: ${spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout?.trim() || CHROMIUM}`,
	);
	ensureBuild(say);
	const tInstall = Date.now();
	const { nodeBin } = await ensureN8n();
	say(`n8n ${N8N_VERSION} ready (${secs(tInstall)}; Node ${NODE_VERSION} at ${nodeBin})`);

	// Emptied now: the tests write their screenshots here, the end of the run adds the logs.
	fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
	const jest = (what, args) =>
		suite.run(
			what,
			[
				'--experimental-vm-modules',
				'--no-warnings=ExperimentalWarning',
				path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
				'--config',
				path.join(REPO_ROOT, 'jest.e2e.config.js'),
				...args,
			],
			{ env: process.env, timeoutMs: JEST_TIMEOUT_MS },
		);
	const args = process.argv.slice(2);
	if (BESIDE && args.length) say(`KNOLYX_E2E_BESIDE=${BESIDE} left aside: arguments were given`);
	if (LEAVE_OUT) say(`left out of this run (KNOLYX_E2E_LEAVE_OUT): ${LEAVE_OUT}`);
	// Last on jest's command line: the option takes every argument after it as a pattern.
	const leaveOut = (...patterns) =>
		[LEAVE_OUT, ...patterns]
			.filter(Boolean)
			.flatMap((pattern) => ['--testPathIgnorePatterns', pattern]);
	const codes =
		BESIDE && !args.length
			? await Promise.all([
					jest('jest', [`--maxWorkers=${WORKERS}`, ...leaveOut(BESIDE)]),
					jest(`jest beside (${BESIDE})`, ['--maxWorkers=1', BESIDE, ...leaveOut()]),
				])
			: [await jest('jest', [`--maxWorkers=${WORKERS}`, ...args, ...leaveOut()])];
	await suite.finish(codes.find((c) => c !== 0) ?? 0);
}

main().catch(suite.abort);
