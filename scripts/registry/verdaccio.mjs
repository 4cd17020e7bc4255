// A real local npm registry for the install suite: verdaccio, installed once per machine into the
// cache folder (outside the package's dependencies), started and stopped by the runner on a free
// 127.0.0.1 port. Packages that are not ours come from the public registry through its uplink.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { killGroup, sleep } from '../lib/processes.mjs';
import { log, run, running, tail } from '../n8n/children.mjs';
import { cleanNpmEnv, npmInstallInto } from '../n8n/install.mjs';
import { freePort } from '../n8n/server.mjs';
import { CACHE_ROOT } from '../n8n/version.mjs';

export const VERDACCIO_VERSION = '6.8.0';
/** verdaccio 6.8.0's node-fetch range resolves to a release that wants Node 22; 2.7.0 runs on Node 20. */
const OVERRIDES = { 'node-fetch': '2.7.0' };
export const VERDACCIO_DIR = path.join(CACHE_ROOT, `verdaccio-${VERDACCIO_VERSION}`);
const MARKER = '.install-complete';

/** Install verdaccio into its cache folder unless a complete install is there; returns its bin path. */
export async function ensureVerdaccio({ dir = VERDACCIO_DIR } = {}) {
	const bin = path.join(dir, 'node_modules', 'verdaccio', 'bin', 'verdaccio');
	if (fs.existsSync(path.join(dir, MARKER)) && fs.existsSync(bin)) return bin;
	const t0 = Date.now();
	log(`installing verdaccio@${VERDACCIO_VERSION} into ${dir}`);
	await npmInstallInto(
		dir,
		{
			name: 'verdaccio-cache',
			private: true,
			description:
				'The local registry of n8n-nodes-knolyx install tests. Managed by scripts/registry/verdaccio.mjs.',
			dependencies: { verdaccio: VERDACCIO_VERSION },
			overrides: OVERRIDES,
		},
		{ env: cleanNpmEnv(), timeoutMs: 10 * 60_000 },
	);
	await run(process.execPath, [bin, '--version'], { cwd: dir, quiet: true, timeoutMs: 60_000 });
	await fsp.writeFile(
		path.join(dir, MARKER),
		`verdaccio ${VERDACCIO_VERSION}, ${new Date().toISOString()}\n`,
	);
	log(`verdaccio ready after ${Math.round((Date.now() - t0) / 1000)} s`);
	return bin;
}

/**
 * Start verdaccio with its storage and config in `dir` (a run folder) on a free port.
 * `uplink` is the public registry's URL: every package that is not `ours` is proxied from it.
 * Returns { url, port, pid, logFile, stop() }.
 */
export async function startVerdaccio({ dir, uplink, ours, timeoutMs = 60_000 }) {
	const bin = await ensureVerdaccio();
	const port = await freePort();
	await fsp.mkdir(path.join(dir, 'storage'), { recursive: true });
	const config = [
		`storage: ${JSON.stringify(path.join(dir, 'storage'))}`,
		'auth:',
		'  htpasswd:',
		`    file: ${JSON.stringify(path.join(dir, 'htpasswd'))}`,
		'    max_users: 100',
		'uplinks:',
		'  public:',
		`    url: ${JSON.stringify(uplink)}`,
		'    timeout: 60s',
		'    max_fails: 20',
		'packages:',
		`  ${JSON.stringify(ours)}:`,
		'    access: $all',
		'    publish: $authenticated',
		'    unpublish: $authenticated',
		"  '@*/*':",
		'    access: $all',
		'    publish: $authenticated',
		'    proxy: public',
		"  '**':",
		'    access: $all',
		'    publish: $authenticated',
		'    proxy: public',
		'server:',
		'  keepAliveTimeout: 60',
		'web:',
		'  enable: false',
		'audit:',
		'  enabled: false',
		'middlewares:',
		'  audit:',
		'    enabled: false',
		'log: { type: stdout, format: pretty, level: warn }',
		'',
	].join('\n');
	const configFile = path.join(dir, 'config.yaml');
	await fsp.writeFile(configFile, config);
	const logFile = path.join(dir, 'verdaccio.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawn(
		process.execPath,
		[bin, '--config', configFile, '--listen', `127.0.0.1:${port}`],
		{
			cwd: dir,
			env: cleanNpmEnv(),
			stdio: ['ignore', out, out],
			detached: true,
		},
	);
	fs.closeSync(out);
	let exit = null;
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => resolve((exit = { code, signal }))),
	);
	const handle = {
		url: `http://127.0.0.1:${port}/`,
		port,
		pid: child.pid,
		logFile,
		async stop() {
			if (exit) return exit;
			killGroup(child.pid, 'SIGTERM');
			const done = await Promise.race([exited, sleep(5_000).then(() => null)]);
			killGroup(child.pid, 'SIGKILL');
			running.delete(handle);
			return done;
		},
	};
	running.add(handle);
	const t0 = Date.now();
	while (Date.now() - t0 < timeoutMs) {
		if (exit) throw new Error(`verdaccio exited (${exit.code ?? exit.signal}):\n${tail(logFile)}`);
		try {
			const res = await fetch(`${handle.url}-/ping`, { signal: AbortSignal.timeout(2_000) });
			if (res.ok) return handle;
		} catch {
			/* not yet */
		}
		await sleep(300);
	}
	await handle.stop();
	throw new Error(`verdaccio did not answer within ${timeoutMs} ms:\n${tail(logFile)}`);
}
