#!/usr/bin/env node
// What the suites in a real n8n need and a fresh machine lacks, made ready in one go: .ci/run starts
// this in the background before `npm ci` (it needs nothing from node_modules), so that the
// installs overlap the checks and the suites that need no n8n; each real-n8n suite waits only for
// what it uses (`--ready-dir`).
//
//   debian         Debian's chromium (test:e2e), redis-server and postgresql (test:queue,
//                  test:install on 2.x) in one apt-get run (scripts/lib/debian.mjs)
//   verdaccio      the local registry of test:install (scripts/registry/verdaccio.mjs)
//   n8n-<version>  the pinned n8n of each line (scripts/n8n-runtime.mjs install)
//   floor          n8n-core and n8n-workflow of n8n 1.85 for test:floor (scripts/floor.mjs)
//
// The parts run at once, each in a process of its own (apt-get, two npm installs and verdaccio's
// are mostly waits on the network and the disk). `--ready-dir <dir>`: a part that finished
// writes <dir>/<part> (its exit code and seconds); the whole run writes <dir>/all. Each part is
// skipped when already there (the suites check again and install what is missing, so nothing
// depends on this script having run). Exits non-zero when a part failed.
//
// `--part <name>` makes one of this script's own parts (debian, verdaccio) in this process: how
// they are started; the others are scripts of their own.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureDebian } from './lib/debian.mjs';
import { N8N_LINES } from './n8n/version.mjs';
import { ensureVerdaccio } from './registry/verdaccio.mjs';

const SCRIPT = fileURLToPath(import.meta.url);
const REPO_ROOT = path.resolve(path.dirname(SCRIPT), '..');
const t0 = Date.now();
const seconds = () => ((Date.now() - t0) / 1000).toFixed(0);

/** The parts this script makes itself, each in a process of its own (`--part <name>`). */
const OWN_PARTS = {
	debian: () => ensureDebian(['chromium', 'redis-server', 'postgresql'], sayPart('debian')),
	verdaccio: () => ensureVerdaccio(),
};

/** Every part, by name: the arguments of the Node process that makes it ready. */
const PARTS = {
	...Object.fromEntries(Object.keys(OWN_PARTS).map((name) => [name, [SCRIPT, '--part', name]])),
	floor: ['scripts/floor.mjs', '--install-only'],
	...Object.fromEntries(
		Object.keys(N8N_LINES).map((version) => [
			`n8n-${version}`,
			['scripts/n8n-runtime.mjs', 'install', '--n8n', version],
		]),
	),
};

function sayPart(name) {
	return (msg) => console.error(`[ci-prepare ${name} ${seconds()} s] ${msg}`);
}

function option(name) {
	const at = process.argv.indexOf(name);
	return at > 0 ? process.argv[at + 1] : undefined;
}

const partName = option('--part');
if (partName) {
	if (!OWN_PARTS[partName])
		throw new Error(`no part ${partName}: ${Object.keys(OWN_PARTS).join(', ')}`);
	await OWN_PARTS[partName]();
} else {
	const readyDir = option('--ready-dir');
	if (readyDir) fs.mkdirSync(readyDir, { recursive: true });
	const mark = (name, text) => readyDir && fs.writeFileSync(path.join(readyDir, name), text);
	const codes = await Promise.all(
		Object.entries(PARTS).map(
			([name, args]) =>
				new Promise((resolve) => {
					const child = spawn(process.execPath, args, {
						cwd: REPO_ROOT,
						stdio: ['ignore', 'inherit', 'inherit'],
					});
					let ended = false;
					const done = (code) => {
						if (ended) return;
						ended = true;
						sayPart(name)(`${code === 0 ? 'ready' : `FAILED (exit ${code})`}: ${seconds()} s`);
						mark(name, `exit ${code}, ${seconds()} s\n`);
						resolve(code);
					};
					child.on('error', () => done(1));
					child.on('exit', (code) => done(code ?? 1));
				}),
		),
	);
	const failed = codes.filter((code) => code !== 0).length;
	sayPart('all')(failed ? `${failed} part(s) failed` : 'ready');
	mark('all', `${failed} failed, ${seconds()} s\n`);
	process.exitCode = failed ? 1 : 0;
}
