// Starting and stopping `n8n start` (and the queue mode's worker and webhook processes).

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';

import { killGroup, sleep } from '../lib/processes.mjs';
import { running, tail } from './children.mjs';
import { ensureN8n, n8nNodeBin } from './install.mjs';
import { LINE, N8N_MAJOR } from './version.mjs';

/** Resolve with a free TCP port on 127.0.0.1 (the OS picks it). */
export function freePort() {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.unref();
		srv.on('error', reject);
		srv.listen(0, '127.0.0.1', () => {
			const { port } = srv.address();
			srv.close(() => resolve(port));
		});
	});
}

/**
 * The environment n8n runs with: 127.0.0.1 only, its own user folder and
 * port, telemetry and every outbound "phone home" off.
 * `extensionsDir` (optional) becomes N8N_CUSTOM_EXTENSIONS: nodes loaded from
 * there get the type prefix `CUSTOM.` (see installPackageIntoUserFolder for
 * the community-package layout, which gives `n8n-nodes-knolyx.*`).
 */
export function n8nEnv({ port = 5678, brokerPort, userFolder, extensionsDir, env = {} } = {}) {
	if (!userFolder) throw new Error('n8nEnv: userFolder is required');
	const nodeBin = n8nNodeBin();
	const base = { ...process.env };
	for (const key of Object.keys(base))
		if (/^(npm_|N8N_|DB_|WEBHOOK_URL$|NODE_OPTIONS$)/.test(key)) delete base[key];
	return {
		...base,
		PATH: `${path.dirname(nodeBin)}${path.delimiter}${process.env.PATH}`,
		NODE_ENV: 'production',
		N8N_USER_FOLDER: path.resolve(userFolder), // n8n keeps its data in <userFolder>/.n8n
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PORT: String(port),
		N8N_PROTOCOL: 'http',
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${port}/`,
		// Base URL of test and production webhooks (WEBHOOK_URL is the deprecated 1.x name).
		N8N_WEBHOOK_URL: `http://127.0.0.1:${port}/`,
		N8N_SECURE_COOKIE: 'false', // plain http on 127.0.0.1
		// Telemetry, diagnostics and other outbound calls off.
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_DYNAMIC_BANNERS_ENABLED: 'false',
		N8N_LICENSE_AUTO_RENEW_ENABLED: 'false',
		// 2.x fetches an MCP server list from api.n8n.io on start (no internet here; only
		// log noise). 1.x has no such module (and rejects unknown module names).
		...(N8N_MAJOR >= 2 ? { N8N_DISABLED_MODULES: 'mcp-registry' } : {}),
		// Task runners (Code node) in internal mode; the broker gets its own port so
		// several n8n instances (dev + e2e) can run side by side.
		N8N_RUNNERS_MODE: 'internal',
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_RUNNERS_BROKER_PORT: String(brokerPort ?? port + 1),
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
		N8N_UNVERIFIED_PACKAGES_ENABLED: 'true', // only silences a deprecation notice
		N8N_LOG_LEVEL: 'info',
		...LINE.env, // per line, e.g. 1.x on Node 20: the legacy expression engine
		...(extensionsDir ? { N8N_CUSTOM_EXTENSIONS: path.resolve(extensionsDir) } : {}),
		...env,
	};
}

/** Reject when something already listens on 127.0.0.1:port (its /healthz would fool the readiness wait). */
export function assertPortFree(port) {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', () =>
			reject(new Error(`port ${port} on 127.0.0.1 is in use (another n8n?); choose another port`)),
		);
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
	});
}

/**
 * Start `n8n start` and wait until GET /healthz/readiness answers 200.
 * Output goes to <userFolder>/n8n.log (and to our stderr with `echo: true`).
 * Returns { url, port, pid, logFile, stop() }; stop() sends SIGTERM to the
 * whole process group (n8n + its task runner), waits up to `stopTimeoutMs`,
 * then SIGKILLs.
 *
 * Queue mode: `command: 'worker'` or `'webhook'` (plus `args`, e.g.
 * ['--concurrency=5']) starts the other n8n process types. A worker serves no
 * HTTP on N8N_PORT; its health server (QUEUE_HEALTH_CHECK_ACTIVE=true,
 * QUEUE_HEALTH_CHECK_PORT) answers the readiness check: pass `readyUrl`.
 */
export async function startN8n({
	port,
	userFolder,
	extensionsDir,
	env = {},
	echo = false,
	timeoutMs = 180_000,
	command = 'start',
	args = [],
	readyUrl,
} = {}) {
	const { nodeBin, n8nBin } = await ensureN8n();
	port ??= await freePort();
	await assertPortFree(port);
	const brokerPort = await freePort();
	await fsp.mkdir(userFolder, { recursive: true });
	const logFile = path.join(path.resolve(userFolder), 'n8n.log');
	const out = fs.openSync(logFile, 'a');
	const child = spawn(nodeBin, [n8nBin, command, ...args], {
		cwd: path.resolve(userFolder),
		env: n8nEnv({ port, brokerPort, userFolder, extensionsDir, env }),
		stdio: ['ignore', echo ? 'inherit' : out, echo ? 'inherit' : out],
		detached: true, // own process group: stop() reaches the task runner too
	});
	fs.closeSync(out);
	const url = `http://127.0.0.1:${port}`;
	let exit = null;
	const exited = new Promise((resolve) =>
		child.on('exit', (code, signal) => {
			exit = { code, signal };
			running.delete(handle);
			resolve(exit);
		}),
	);
	const handle = {
		url,
		port,
		pid: child.pid,
		logFile,
		exited,
		async stop({ stopTimeoutMs = 20_000 } = {}) {
			if (exit) return exit;
			killGroup(child.pid, 'SIGTERM');
			const done = await Promise.race([exited, sleep(stopTimeoutMs).then(() => null)]);
			if (done) {
				killGroup(child.pid, 'SIGKILL'); // leftovers in the group, if any
				return done;
			}
			killGroup(child.pid, 'SIGKILL');
			return Promise.race([exited, sleep(5_000)]);
		},
	};
	running.add(handle);

	const t0 = Date.now();
	while (Date.now() - t0 < timeoutMs) {
		if (exit) {
			throw new Error(
				`n8n exited early (${exit.code ?? exit.signal}); log ${logFile}:\n${tail(logFile)}`,
			);
		}
		try {
			const res = await fetch(readyUrl ?? `${url}/healthz/readiness`, {
				signal: AbortSignal.timeout(2_000),
			});
			// n8n 1.x answers the readiness check a few seconds before it serves /rest:
			// a main instance is ready when the editor's first call answers too.
			const restReady =
				!res.ok || readyUrl || command !== 'start'
					? res.ok
					: (await fetch(`${url}/rest/settings`, { signal: AbortSignal.timeout(2_000) })).ok;
			if (restReady) {
				handle.startupMs = Date.now() - t0;
				return handle;
			}
		} catch {
			/* not listening yet */
		}
		await sleep(500);
	}
	await handle.stop();
	throw new Error(
		`n8n did not become ready within ${timeoutMs} ms; log ${logFile}:\n${tail(logFile)}`,
	);
}
