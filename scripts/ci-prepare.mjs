#!/usr/bin/env node
// What the suites in a real n8n need and a fresh machine lacks, made ready in one go: .ci/run starts
// this in the background right after `npm ci`, so that the installs overlap the checks and the
// suites that need no n8n, and waits for it before the first suite in a real n8n.
//
//   1. Debian's chromium (test:e2e), redis-server and postgresql (test:queue, test:install on 2.x)
//      in one apt-get run (scripts/lib/debian.mjs)
//   2. verdaccio, the local registry of test:install (scripts/registry/verdaccio.mjs)
//   3. the pinned n8n of each line, one after the other (scripts/n8n-runtime.mjs install)
//
// Each part is skipped when already there (the suites check again and install what is missing,
// so nothing depends on this script having run). Prints the seconds of each part; exits non-zero
// when a part failed.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureDebian } from './lib/debian.mjs';
import { ensureVerdaccio } from './registry/verdaccio.mjs';
import { N8N_LINES } from './n8n/version.mjs';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const t0 = Date.now();
const say = (msg) =>
	console.error(`[ci-prepare ${((Date.now() - t0) / 1000).toFixed(0)} s] ${msg}`);

async function part(name, fn) {
	const t = Date.now();
	await fn();
	say(`${name}: ${((Date.now() - t) / 1000).toFixed(0)} s`);
}

await part("Debian's chromium, redis-server, postgresql", () =>
	ensureDebian(['chromium', 'redis-server', 'postgresql'], say),
);
await part('verdaccio', () => ensureVerdaccio());
for (const version of Object.keys(N8N_LINES)) {
	await part(`n8n ${version}`, () => {
		const res = spawnSync(
			process.execPath,
			[path.join(REPO_ROOT, 'scripts', 'n8n-runtime.mjs'), 'install', '--n8n', version],
			{ cwd: REPO_ROOT, stdio: ['ignore', 'ignore', 'inherit'] },
		);
		if (res.status !== 0) throw new Error(`installing n8n ${version} failed (${res.status})`);
	});
}
say('ready');
