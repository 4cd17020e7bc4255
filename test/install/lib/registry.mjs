// The package as users get it: the packed tarball published to the local registry, and n8n's
// npm pointed at that registry the way a company's HTTPS proxy would be (scripts/registry/).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { CACHE_DIR, cleanNpmEnv, PACKAGE_NAME } from '../../../scripts/n8n-runtime.mjs';

/**
 * The public registry's URL as the installed n8n has it by default (its community-packages
 * config: the registry used without N8N_COMMUNITY_PACKAGES_REGISTRY). Read from n8n's dist at run
 * time, so no registry host is written in this repository.
 */
export function n8nDefaultRegistry(cacheDir = CACHE_DIR) {
	const roots = [
		path.join(cacheDir, 'node_modules', 'n8n', 'dist'),
		path.join(cacheDir, 'node_modules', '@n8n', 'config', 'dist'),
	];
	const found = new Set();
	const walk = (dir) => {
		for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
			const p = path.join(dir, e.name);
			if (e.isDirectory()) walk(p);
			else if (/community-packages.*\.config\.js$|community-packages\.config\.js$/.test(e.name)) {
				const m = /this\.registry\s*=\s*['"]([^'"]+)['"]/.exec(fs.readFileSync(p, 'utf8'));
				if (m) found.add(m[1]);
			}
		}
	};
	for (const r of roots) if (fs.existsSync(r)) walk(r);
	if (found.size !== 1)
		throw new Error(
			`n8n's default community-packages registry: found ${found.size ? [...found].join(', ') : 'none'} in ${roots.join(', ')}`,
		);
	return [...found][0];
}

/** A throwaway registry user: PUT /-/user/org.couchdb.user:<name> answers a token; returns an npmrc for it. */
export async function registryUser({ registryUrl, dir }) {
	const name = `knolyx-test-${Date.now().toString(36)}`;
	const res = await fetch(new URL(`-/user/org.couchdb.user:${name}`, registryUrl), {
		method: 'PUT',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({
			name,
			password: `pw-${name}`,
			email: `${name}@example.com`,
			type: 'user',
		}),
	});
	const body = await res.json().catch(() => ({}));
	if (!res.ok || !body.token)
		throw new Error(`registry user ${name}: HTTP ${res.status} ${JSON.stringify(body)}`);
	const u = new URL(registryUrl);
	const npmrc = path.join(dir, 'publisher.npmrc');
	fs.writeFileSync(npmrc, `//${u.host}${u.pathname}:_authToken=${body.token}\n`);
	return { name, npmrc };
}

/**
 * Publish the packed tarball to the local registry, as `version` (default: its own). A copy is
 * unpacked in `dir`; its package.json changes in exactly two places: `version` (when bumped) and
 * publishConfig.provenance (removed: provenance needs a CI identity a local registry has none of).
 */
export function publishTarball({ tarball, version, registryUrl, npmrc, dir }) {
	const copy = path.join(dir, `publish-${version ?? 'packed'}`);
	fs.rmSync(copy, { recursive: true, force: true });
	fs.mkdirSync(copy, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', copy, '--strip-components=1']);
	const pkgFile = path.join(copy, 'package.json');
	const pkg = JSON.parse(fs.readFileSync(pkgFile, 'utf8'));
	if (pkg.name !== PACKAGE_NAME)
		throw new Error(`${tarball} holds ${pkg.name}, not ${PACKAGE_NAME}`);
	if (version) pkg.version = version;
	if (pkg.publishConfig) delete pkg.publishConfig.provenance;
	fs.writeFileSync(pkgFile, JSON.stringify(pkg, null, 2) + '\n');
	execFileSync(
		'npm',
		[
			'publish',
			copy,
			`--registry=${registryUrl}`,
			`--userconfig=${npmrc}`,
			'--ignore-scripts',
			'--provenance=false',
			'--access=public',
			'--tag=latest',
			'--loglevel=error',
		],
		{ env: cleanNpmEnv(), cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 },
	);
	return pkg.version;
}

/** Move the `latest` tag (users' "update" goes to latest; a rollback is an explicit version). */
export function setLatest({ version, registryUrl, npmrc, dir }) {
	execFileSync(
		'npm',
		[
			'dist-tag',
			'add',
			`${PACKAGE_NAME}@${version}`,
			'latest',
			`--registry=${registryUrl}`,
			`--userconfig=${npmrc}`,
			'--loglevel=error',
		],
		{
			env: cleanNpmEnv(),
			cwd: dir,
			stdio: ['ignore', 'pipe', 'pipe'],
			timeout: 60_000,
		},
	);
}

/**
 * n8n's environment behind the company proxy: npm's own proxy and CA settings.
 * n8n runs some npm commands with its whole environment (npm_config_* work there) and some with
 * only PATH/NODE_PATH/NODE_ENV (its `executeNpmCommand`), where npm still reads the project
 * npmrc of its working folder, <userFolder>/.n8n/nodes/.npmrc: both are set, as an admin would.
 * HTTPS_PROXY/NODE_EXTRA_CA_CERTS cover n8n's own HTTP client (its version check of a package).
 */
export function proxyEnv({ proxy }) {
	return {
		npm_config_https_proxy: proxy.url,
		npm_config_proxy: proxy.url,
		npm_config_cafile: proxy.caFile,
		npm_config_noproxy: '127.0.0.1,localhost',
		HTTPS_PROXY: proxy.url,
		https_proxy: proxy.url,
		NO_PROXY: '127.0.0.1,localhost',
		no_proxy: '127.0.0.1,localhost',
		NODE_EXTRA_CA_CERTS: proxy.caFile,
	};
}

export function writeNodesNpmrc({ userFolder, proxy }) {
	const dir = path.join(userFolder, '.n8n', 'nodes');
	fs.mkdirSync(dir, { recursive: true });
	fs.writeFileSync(
		path.join(dir, '.npmrc'),
		[
			`https-proxy=${proxy.url}`,
			`proxy=${proxy.url}`,
			`cafile=${proxy.caFile}`,
			'noproxy=127.0.0.1,localhost',
			'',
		].join('\n'),
	);
}
