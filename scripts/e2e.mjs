#!/usr/bin/env node
// `npm run test:e2e`: the end-to-end tests in a real n8n (test/e2e, jest.e2e.config.js).
//
//   1. Debian's chromium at /usr/bin/chromium (apt-get install when missing; needs root or sudo -n)
//   2. the built package (npm run build when dist/ is missing)
//   3. the pinned n8n of the selected line (scripts/n8n-runtime.mjs ensureN8n; 2.41.1 with Node 24:
//      ~10-12 min once, 1.123.81: ~2-5 min once; then cached in ~/.cache/n8n-nodes-knolyx/)
//   4. jest in band under --experimental-vm-modules, in its own process group, with a
//      hard time limit (KNOLYX_E2E_TIMEOUT_MS, default 20 min)
//   5. afterwards, whatever happened: kill every process group the tests recorded and every
//      process still running inside the run folder (n8n, its task runner, the sandbox,
//      Chromium); copy the n8n and sandbox logs to test-artifacts/e2e/; remove the run folder.
//      Processes left behind after a passing run fail the run.
//
// `--n8n <version>` (or KNOLYX_N8N_VERSION) picks the n8n line: 2.41.1 (default) or 1.123.81.
// Other arguments go to jest, e.g. `npm run test:e2e -- --n8n 1.123.81 -t "Knolyx Trigger"`.
// KNOLYX_E2E_KEEP=1 keeps the run folder (n8n's database and logs) for a look afterwards.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { endRunProcesses, killGroup } from './lib/processes.mjs';
// Importing n8n-runtime reads (and removes) `--n8n <version>` from process.argv and
// exports the choice as KNOLYX_N8N_VERSION, which jest and the tests inherit.
import { ensureN8n, N8N_VERSION, NODE_VERSION, REPO_ROOT } from './n8n-runtime.mjs';

const CHROMIUM = process.env.KNOLYX_E2E_CHROMIUM ?? '/usr/bin/chromium';
const JEST_TIMEOUT_MS = Number(process.env.KNOLYX_E2E_TIMEOUT_MS ?? 20 * 60_000);
const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', 'e2e');

const t0 = Date.now();
const secs = (from = t0) => `${((Date.now() - from) / 1000).toFixed(1)} s`;
const say = (msg) => console.error(`[e2e ${secs()}] ${msg}`);

function runSync(cmd, args, { env, timeoutMs = 15 * 60_000 } = {}) {
	const res = spawnSync(cmd, args, {
		stdio: 'inherit',
		env: { ...process.env, ...env },
		timeout: timeoutMs,
		cwd: REPO_ROOT,
	});
	if (res.status !== 0)
		throw new Error(
			`${cmd} ${args.join(' ')} failed (${res.status ?? res.signal ?? res.error?.message})`,
		);
}

function ensureChromium() {
	if (fs.existsSync(CHROMIUM)) return;
	if (CHROMIUM !== '/usr/bin/chromium')
		throw new Error(`KNOLYX_E2E_CHROMIUM=${CHROMIUM} does not exist`);
	const asRoot = process.getuid?.() === 0;
	if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
		throw new Error(
			'/usr/bin/chromium is missing and this user cannot install it: run `apt-get install -y chromium` as root',
		);
	}
	const aptGet = (args, timeoutMs) =>
		asRoot
			? runSync('apt-get', args, { env: { DEBIAN_FRONTEND: 'noninteractive' }, timeoutMs })
			: runSync('sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args], {
					timeoutMs,
				});
	const t = Date.now();
	say("installing Debian's chromium (apt-get update && apt-get install -y chromium)");
	aptGet(['update', '-qq'], 10 * 60_000);
	aptGet(['install', '-y', '-qq', 'chromium'], 15 * 60_000);
	if (!fs.existsSync(CHROMIUM))
		throw new Error(`apt-get installed chromium but ${CHROMIUM} is still missing`);
	say(`chromium installed in ${secs(t)}`);
}

function ensureBuild() {
	const built = [
		'dist/nodes/Knolyx/Knolyx.node.js',
		'dist/nodes/Knolyx/KnolyxTrigger.node.js',
		'dist/credentials/KnolyxApi.credentials.js',
	];
	if (built.every((f) => fs.existsSync(path.join(REPO_ROOT, f)))) return;
	const t = Date.now();
	say('dist/ is missing: npm run build');
	runSync('npm', ['run', '--silent', 'build']);
	say(`built in ${secs(t)}`);
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

let jestChild = null;
let interrupted = null;
// Before jest: exit at once (n8n-runtime's exit hook kills an install in progress).
// During jest: stop jest's group, then clean up as after any run.
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.on(signal, () => {
		if (!jestChild) process.exit(130);
		interrupted = signal;
		killGroup(jestChild.pid, 'SIGTERM');
		setTimeout(() => killGroup(jestChild.pid, 'SIGKILL'), 5_000).unref();
	});
}

async function main() {
	ensureChromium();
	say(
		`chromium: ${spawnSync(CHROMIUM, ['--version'], { encoding: 'utf8' }).stdout?.trim() || CHROMIUM}`,
	);
	ensureBuild();
	const tInstall = Date.now();
	const { nodeBin } = await ensureN8n();
	say(`n8n ${N8N_VERSION} ready (${secs(tInstall)}; Node ${NODE_VERSION} at ${nodeBin})`);

	fs.rmSync(ARTIFACTS_DIR, { recursive: true, force: true });
	fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), 'knolyx-e2e-'));
	process.env.KNOLYX_E2E_RUN_DIR = runDir; // for jest and the test libraries
	const tJest = Date.now();
	say(`jest (run folder ${runDir}, limit ${JEST_TIMEOUT_MS / 1000} s)`);
	const jest = spawn(
		process.execPath,
		[
			'--experimental-vm-modules',
			'--no-warnings=ExperimentalWarning',
			path.join(REPO_ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
			'--config',
			path.join(REPO_ROOT, 'jest.e2e.config.js'),
			'--runInBand',
			...process.argv.slice(2),
		],
		{ cwd: REPO_ROOT, stdio: 'inherit', detached: true, env: process.env },
	);
	jestChild = jest;
	let timedOut = false;
	const exited = new Promise((resolve) =>
		jest.on('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0))),
	);
	const timer = setTimeout(() => {
		timedOut = true;
		say(`jest still running after ${JEST_TIMEOUT_MS / 1000} s: stopping it`);
		killGroup(jest.pid, 'SIGTERM');
		setTimeout(() => killGroup(jest.pid, 'SIGKILL'), 10_000).unref();
	}, JEST_TIMEOUT_MS);

	let code = await exited;
	clearTimeout(timer);
	killGroup(jest.pid, 'SIGKILL'); // anything jest itself left in its group
	const jestTime = secs(tJest);

	code = await endRunProcesses(runDir, code, say);
	keepLogs(runDir);
	if (process.env.KNOLYX_E2E_KEEP === '1') say(`kept the run folder ${runDir}`);
	else fs.rmSync(runDir, { recursive: true, force: true });

	if (timedOut) {
		say(`FAILED: time limit of ${JEST_TIMEOUT_MS / 1000} s reached`);
		code ||= 1;
	}
	if (interrupted) code ||= 130;
	say(
		`jest exit ${code} after ${jestTime}; total ${secs()}; screenshots and logs in ${path.relative(REPO_ROOT, ARTIFACTS_DIR)}/`,
	);
	process.exit(code);
}

main().catch((err) => {
	console.error(`[e2e] ${err.stack ?? err}`);
	process.exit(1);
});
