#!/usr/bin/env node
// `npm run test:install`: the package installed, updated and removed the way users do it
// (test/install/install.mjs; test/install/README.md).
//
//   1. the built package (`npm run build` when a source is newer than dist/), packed (`npm pack`) into the run folder: the tarball users get
//   2. for 2.x (queue mode) Debian's redis-server and PostgreSQL, as test:queue installs them;
//      the pinned n8n of the selected line (scripts/n8n-runtime.mjs ensureN8n) and verdaccio
//      (scripts/registry/verdaccio.mjs, once per machine in the cache folder)
//   3. test/install/install.mjs in its own process group with a hard time limit
//      (KNOLYX_INSTALL_TIMEOUT_MS, default 20 min), in a fresh run folder
//   4. afterwards, whatever happened: kill every process group the run recorded and every process
//      still running inside the run folder (n8n, verdaccio, the sandbox); copy the logs and
//      summary.json to test-artifacts/install-<version>/; remove the run folder (KNOLYX_INSTALL_KEEP=1 keeps it)
//
// `--n8n <version>` picks the line (2.41.1 default, or 1.123.81); other arguments go to
// test/install/install.mjs, e.g. `npm run test:install -- --n8n 1.123.81 --ways 1 --no-life`.

import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { buildIsCurrent, suiteRun } from './lib/suite.mjs';
import { ensureN8n, N8N_MAJOR, N8N_VERSION, REPO_ROOT } from './n8n-runtime.mjs';
import { ensureVerdaccio } from './registry/verdaccio.mjs';

const TIMEOUT_MS = Number(process.env.KNOLYX_INSTALL_TIMEOUT_MS ?? 20 * 60_000);
const ARTIFACTS_DIR = path.join(REPO_ROOT, 'test-artifacts', `install-${N8N_VERSION}`);

const { runDir, secs, say, ...suite } = suiteRun('install', {
	artifactsDir: ARTIFACTS_DIR,
	logs: {
		wanted: /(^|\/)(n8n\.log|sandbox\.log|verdaccio\.log|summary\.json)$/,
		skipDirs: ['node_modules', 'storage', '.n8n'],
	},
});

function npm(args) {
	const res = spawnSync('npm', args, {
		cwd: REPO_ROOT,
		encoding: 'utf8',
		stdio: ['ignore', 'pipe', 'inherit'],
	});
	if (res.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${res.status})`);
	return res.stdout;
}

/**
 * The tarball users install: the build of the sources as they are, packed with npm pack (the
 * `files` of package.json). dist/ is rebuilt only when a source is newer than it: a rebuild
 * rewrites the files an n8n of another suite running beside this one (.ci/run) loads.
 */
function pack() {
	if (buildIsCurrent()) say('dist/ is the build of the sources as they are: packed as it is');
	else npm(['run', '--silent', 'build']);
	const out = npm(['pack', '--json', '--pack-destination', runDir, '--loglevel=error']);
	const [{ filename }] = JSON.parse(out);
	return path.join(runDir, filename);
}

async function main() {
	let t = Date.now();
	const tarball = pack();
	say(`packed ${path.basename(tarball)} (${secs(t)})`);
	// Queue mode (2.x) needs Debian's redis-server and PostgreSQL (apt-get when missing, as test:queue).
	// Imported here: the test libraries read the run folder when imported.
	if (N8N_MAJOR >= 2 && !process.argv.includes('--no-queue')) {
		const { ensureDebianPackages } = await import('../test/queue/lib/services.mjs');
		const aptSeconds = ensureDebianPackages();
		if (aptSeconds) say(`redis-server and PostgreSQL installed in ${aptSeconds.toFixed(0)} s`);
	}
	t = Date.now();
	await ensureN8n();
	await ensureVerdaccio();
	say(`n8n ${N8N_VERSION} and verdaccio ready (${secs(t)})`);

	const code = await suite.run(
		'test/install/install.mjs',
		[path.join(REPO_ROOT, 'test', 'install', 'install.mjs'), ...process.argv.slice(2)],
		{
			env: { ...process.env, KNOLYX_INSTALL_TARBALL: tarball },
			timeoutMs: TIMEOUT_MS,
		},
	);
	await suite.finish(code);
}

main().catch(suite.abort);
