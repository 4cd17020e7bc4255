// Processes of one e2e run: where they live, how they are tracked and how
// every one of them is killed again, even when a test fails or jest is killed.
//
// Everything a run starts lives below one run folder (KNOLYX_E2E_RUN_DIR, set by
// scripts/e2e.mjs; a fresh temp folder otherwise): n8n's user folder (n8n's cwd),
// the sandbox (cwd), Chromium's --user-data-dir. Each process group we start is
// also written to <runDir>/pids. scripts/e2e.mjs kills what is listed there and
// every process whose cwd or command line is inside the run folder after jest
// ends (scripts/lib/processes.mjs killRunProcesses), so nothing outlives the run.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { killGroup, sleep } from '../../../scripts/lib/processes.mjs';
import { REPO_ROOT } from '../../../scripts/n8n-runtime.mjs';

export { killGroup, processesInside, sleep } from '../../../scripts/lib/processes.mjs';
export { REPO_ROOT };

/** True when this module made the run folder (jest run directly, not through scripts/e2e.mjs). */
export const OWN_RUN_DIR = !process.env.KNOLYX_E2E_RUN_DIR;

/** The run folder scripts/e2e.mjs made (or this module, when jest is run directly). */
export const RUN_ROOT = (() => {
	const dir =
		process.env.KNOLYX_E2E_RUN_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'knolyx-e2e-'));
	fs.mkdirSync(dir, { recursive: true });
	return path.resolve(dir);
})();

/**
 * This test file's own folder inside the run folder: its sandbox.log (whose "listening on" line
 * startSandboxProcess reads), its n8n user folder and database. Jest loads this module once per
 * test file, so files that run one after the other never read each other's sandbox URL or share
 * a database; everything stays inside RUN_ROOT, where scripts/e2e.mjs finds what is left.
 */
export const RUN_DIR = fs.mkdtempSync(path.join(RUN_ROOT, 'file-'));

/**
 * Screenshots and logs kept by CI (git-ignored): test-artifacts/e2e-<version>/ under
 * scripts/e2e.mjs (KNOLYX_E2E_ARTIFACTS_DIR: one folder per n8n line, so both lines can run side
 * by side), test-artifacts/e2e/ when jest runs alone.
 */
export const ARTIFACTS_DIR =
	process.env.KNOLYX_E2E_ARTIFACTS_DIR ?? path.join(REPO_ROOT, 'test-artifacts', 'e2e');
fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });

/** Remember a process group leader, so the runner can kill its group if we cannot. */
export function trackPid(pid, label) {
	if (pid) fs.appendFileSync(path.join(RUN_ROOT, 'pids'), `${pid} ${label}\n`);
}

/** Poll `fn` until it returns a truthy value (returned) or the time is up (throws with `what` and the last value). */
export async function waitFor(
	fn,
	{ timeoutMs = 20_000, intervalMs = 250, what = 'condition' } = {},
) {
	const deadline = Date.now() + timeoutMs;
	let last;
	let lastError;
	for (;;) {
		try {
			last = await fn();
			if (last) return last;
		} catch (e) {
			lastError = e;
		}
		if (Date.now() > deadline) {
			const detail = lastError
				? `; last error: ${lastError.message}`
				: `; last value: ${JSON.stringify(last)?.slice(0, 1000)}`;
			throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`);
		}
		await sleep(intervalMs);
	}
}

/**
 * Start the Knolyx sandbox (`sandbox/cli.ts` through ts-node) as its own
 * process group with the demo seed on a free port; resolves when it answers.
 * Its log goes to <runDir>/sandbox.log.
 */
export async function startSandboxProcess({ seed = 'demo', timeoutMs = 60_000 } = {}) {
	const logFile = path.join(RUN_DIR, 'sandbox.log');
	const out = fs.openSync(logFile, 'a');
	const tsNode = path.join(REPO_ROOT, 'node_modules', 'ts-node', 'dist', 'bin.js');
	const child = spawn(
		process.execPath,
		[
			tsNode,
			'--transpile-only',
			path.join(REPO_ROOT, 'sandbox', 'cli.ts'),
			'--port',
			'0',
			'--seed',
			seed,
		],
		{ cwd: RUN_DIR, stdio: ['ignore', out, out], detached: true },
	);
	fs.closeSync(out);
	trackPid(child.pid, 'sandbox');
	let exited = false;
	child.on('exit', () => (exited = true));
	const stop = async () => {
		if (exited) return;
		killGroup(child.pid, 'SIGTERM');
		for (let i = 0; i < 50 && !exited; i++) await sleep(100);
		killGroup(child.pid, 'SIGKILL');
	};
	try {
		const url = await waitFor(
			() => {
				if (exited) throw new Error('the sandbox exited');
				const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(fs.readFileSync(logFile, 'utf8'));
				return m?.[1];
			},
			{ timeoutMs, intervalMs: 200, what: 'the sandbox to listen' },
		);
		return { url, port: Number(new URL(url).port), pid: child.pid, logFile, stop };
	} catch (e) {
		await stop();
		throw new Error(`${e.message}\n${fs.readFileSync(logFile, 'utf8').slice(-2000)}`);
	}
}

/**
 * The end of one e2e test file: stop its n8n and sandbox, keep their logs as
 * `<label>-n8n.log` / `<label>-sandbox.log` in ARTIFACTS_DIR (also when jest runs without
 * scripts/e2e.mjs), and remove the run folder when this module made it.
 */
export async function endTestFile(label, { n8n, sandbox }) {
	await n8n?.stop().catch((e) => console.error(`[e2e ${label}] stopping n8n: ${e.message}`));
	await sandbox
		?.stop()
		.catch((e) => console.error(`[e2e ${label}] stopping the sandbox: ${e.message}`));
	for (const [from, to] of [
		[n8n?.logFile, `${label}-n8n.log`],
		[sandbox?.logFile, `${label}-sandbox.log`],
	]) {
		if (from && fs.existsSync(from)) fs.copyFileSync(from, path.join(ARTIFACTS_DIR, to));
	}
	if (OWN_RUN_DIR) fs.rmSync(RUN_ROOT, { recursive: true, force: true });
}
