// What the suite runners (scripts/e2e.mjs, queue.mjs, install-suite.mjs) share: the build they test,
// their child run in its own process group, and the end of the run whatever happened. No side
// effects on import.

import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { keepRunLogs } from './artifacts.mjs';
import { endRunProcesses, killGroup, killRunProcesses } from './processes.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

const BUILT = [
	'dist/nodes/Knolyx/Knolyx.node.js',
	'dist/nodes/Knolyx/KnolyxTrigger.node.js',
	'dist/credentials/KnolyxApi.credentials.js',
];
/** What `npm run build` reads (tsconfig.json's include, gulpfile.js's icons and codex files). */
const BUILD_INPUTS = ['nodes', 'credentials', 'package.json', 'tsconfig.json', 'gulpfile.js'];

/** The newest modification time of a file below `file` (itself when a file), in ms. */
function newestMtime(file) {
	const stat = fs.statSync(file);
	if (!stat.isDirectory()) return stat.mtimeMs;
	let newest = 0;
	for (const entry of fs.readdirSync(file))
		newest = Math.max(newest, newestMtime(path.join(file, entry)));
	return newest;
}

/**
 * Whether dist/ holds a build of the sources as they are: every entry point there, none older
 * than a file the build reads.
 */
export function buildIsCurrent() {
	const built = BUILT.map((f) => path.join(REPO_ROOT, f));
	if (!built.every((f) => fs.existsSync(f))) return false;
	const oldestBuilt = Math.min(...built.map((f) => fs.statSync(f).mtimeMs));
	const newestInput = Math.max(...BUILD_INPUTS.map((f) => newestMtime(path.join(REPO_ROOT, f))));
	return newestInput <= oldestBuilt;
}

/** The built package the suites load: `npm run build` when any of its entry points is missing. */
export function ensureBuild(say) {
	if (BUILT.every((f) => fs.existsSync(path.join(REPO_ROOT, f)))) return;
	const t = Date.now();
	say('dist/ is missing: npm run build');
	const res = spawnSync('npm', ['run', '--silent', 'build'], {
		cwd: REPO_ROOT,
		stdio: 'inherit',
		timeout: 15 * 60_000,
	});
	if (res.status !== 0)
		throw new Error(`npm run build failed (${res.status ?? res.signal ?? res.error?.message})`);
	say(`built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/**
 * A suite runner's run (`name`: e2e, queue, install). Call it at start-up, before the test libraries
 * are imported: it makes the run folder (a fresh `knolyx-<name>-*` in the temp dir, exported as
 * KNOLYX_E2E_RUN_DIR, which the test libraries read when imported) and returns it with `secs(from)`
 * and `say(msg)` (`[<name> <seconds since start>] msg` on stderr) and:
 *
 * - `run(what, nodeArgs, { env, timeoutMs })` starts Node with `nodeArgs` in the repository as its
 *   own process group (several runs may go on at once), stops it after `timeoutMs` (SIGTERM,
 *   SIGKILL 30 s later) and kills what is left of the group when it exits; it says how long it ran
 *   and resolves to its exit code (1 when killed by a signal).
 * - `finish(code)` ends the run: kills every process the run left (endRunProcesses: leftovers fail
 *   a passing run), copies the logs into `artifactsDir` (`logs`: { wanted, skipDirs } for
 *   keepRunLogs, or a function (runDir, say) that copies them itself), removes the run
 *   folder unless KNOLYX_<NAME>_KEEP=1, says the total time and exits with the child's code, or
 *   when that is 0: 1 if the run left processes or reached its time limit, 130 if interrupted.
 *   (A child stopped by the time limit or a signal exits 1 itself, so such runs usually exit 1.)
 * - `abort(err)`, for a runner that failed before or around its run: says the error, kills what
 *   runs in the folder, removes it and exits 1.
 *
 * A SIGINT/SIGTERM before the child starts removes the run folder and exits 130 at once (nothing
 * runs in it yet; scripts/n8n/children.mjs's exit hook stops an n8n install in progress). Once the
 * child runs, the signal stops its group (SIGTERM, SIGKILL 20 s later) and is remembered: the
 * runner still cleans up as above.
 */
export function suiteRun(name, { artifactsDir, logs }) {
	const t0 = Date.now();
	const secs = (from = t0) => `${((Date.now() - from) / 1000).toFixed(1)} s`;
	const say = (msg) => console.error(`[${name} ${secs()}] ${msg}`);
	const runDir = fs.mkdtempSync(path.join(os.tmpdir(), `knolyx-${name}-`));
	process.env.KNOLYX_E2E_RUN_DIR = runDir;
	const keep = process.env[`KNOLYX_${name.toUpperCase()}_KEEP`] === '1';
	// The children running now: run() may be called again before an earlier run ended (e2e.mjs
	// runs the poll file's jest beside the others').
	const children = new Set();
	let started = false;
	let interrupted = null;
	let timedOut = false;
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.on(signal, () => {
			interrupted = signal;
			if (!started) {
				fs.rmSync(runDir, { recursive: true, force: true });
				process.exit(130);
			}
			for (const child of children) {
				killGroup(child.pid, 'SIGTERM');
				setTimeout(() => killGroup(child.pid, 'SIGKILL'), 20_000).unref();
			}
		});
	}
	return {
		runDir,
		secs,
		say,
		async run(what, nodeArgs, { env, timeoutMs }) {
			const tRun = Date.now();
			say(`${what} (run folder ${runDir}, limit ${timeoutMs / 1000} s)`);
			started = true;
			const child = spawn(process.execPath, nodeArgs, {
				cwd: REPO_ROOT,
				stdio: 'inherit',
				detached: true,
				env,
			});
			children.add(child);
			const exited = new Promise((resolve) =>
				child.on('exit', (c, s) => resolve(c ?? (s ? 1 : 0))),
			);
			const timer = setTimeout(() => {
				timedOut = true;
				say(`still running after ${timeoutMs / 1000} s: stopping it`);
				killGroup(child.pid, 'SIGTERM');
				setTimeout(() => killGroup(child.pid, 'SIGKILL'), 30_000).unref();
			}, timeoutMs);
			const code = await exited;
			children.delete(child);
			clearTimeout(timer);
			killGroup(child.pid, 'SIGKILL'); // anything the child left in its group
			say(`${what} exited ${code} after ${secs(tRun)}`);
			return code;
		},
		async finish(code) {
			code = await endRunProcesses(runDir, code, say);
			if (typeof logs === 'function') logs(runDir, say);
			else keepRunLogs(runDir, artifactsDir, logs.wanted, logs.skipDirs, say);
			if (keep) say(`kept the run folder ${runDir}`);
			else fs.rmSync(runDir, { recursive: true, force: true });
			if (timedOut) {
				say('FAILED: the time limit was reached');
				code ||= 1;
			}
			if (interrupted) code ||= 130;
			say(`exit ${code}; total ${secs(t0)}; logs in ${path.relative(REPO_ROOT, artifactsDir)}/`);
			process.exit(code);
		},
		async abort(err) {
			console.error(`[${name}] ${err.stack ?? err}`);
			await killRunProcesses(runDir).catch(() => {});
			fs.rmSync(runDir, { recursive: true, force: true });
			process.exit(1);
		},
	};
}
