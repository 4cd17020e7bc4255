// Debian's packages the suites in a real n8n need, installed with apt-get when missing (root, or a
// password-less sudo). One place for the apt-get calls of test:e2e (chromium), test:queue and
// test:install (redis-server, postgresql) and of .ci/run's preparation (all three in one apt-get,
// so two installs never wait on dpkg's lock). No side effects on import.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
export const REDIS_SERVER = '/usr/bin/redis-server';

/** The newest PostgreSQL server binaries Debian installed (/usr/lib/postgresql/<major>/bin). */
export function postgresBinDir() {
	const root = '/usr/lib/postgresql';
	if (!fs.existsSync(root)) return undefined;
	const majors = fs
		.readdirSync(root)
		.filter(
			(d) =>
				fs.existsSync(path.join(root, d, 'bin', 'initdb')) &&
				fs.existsSync(path.join(root, d, 'bin', 'postgres')),
		)
		.sort((a, b) => Number(b) - Number(a));
	return majors.length ? path.join(root, majors[0], 'bin') : undefined;
}

/** Each package by its Debian name: whether this machine has what the suites run of it. */
const PRESENT = {
	chromium: () => fs.existsSync(CHROMIUM),
	'redis-server': () => fs.existsSync(REDIS_SERVER),
	postgresql: () => postgresBinDir() !== undefined,
};

const WITH_RECOMMENDS = new Set(['chromium']);

/**
 * `apt-get update && apt-get install -y <the missing ones of names>`. Returns the seconds it took
 * (0 when nothing was missing); throws when it cannot install or a package is still missing after.
 */
export function ensureDebian(names, say = (msg) => console.error(`[debian] ${msg}`)) {
	const missing = names.filter((name) => !PRESENT[name]());
	if (!missing.length) return 0;
	const t0 = Date.now();
	const asRoot = process.getuid?.() === 0;
	if (!asRoot && spawnSync('sudo', ['-n', 'true']).status !== 0) {
		throw new Error(
			`missing ${missing.join(', ')} and this user cannot install them: run \`apt-get install -y ${missing.join(' ')}\` as root`,
		);
	}
	const aptGet = (args, timeoutMs) => {
		const [cmd, argv] = asRoot
			? ['apt-get', args]
			: ['sudo', ['-n', 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args]];
		const res = spawnSync(cmd, argv, {
			stdio: 'inherit',
			timeout: timeoutMs,
			env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		});
		if (res.status !== 0)
			throw new Error(
				`apt-get ${args.join(' ')} failed (${res.status ?? res.signal ?? res.error?.message})`,
			);
	};
	say(`installing Debian's ${missing.join(', ')} (apt-get update; apt-get install -y)`);
	aptGet(['update', '-qq'], 10 * 60_000);
	// Chromium with its recommended packages (its fonts draw the editor's screenshots); the servers
	// without theirs, as each suite installed them before.
	const withRecommends = missing.filter((name) => WITH_RECOMMENDS.has(name));
	const without = missing.filter((name) => !WITH_RECOMMENDS.has(name));
	if (withRecommends.length) aptGet(['install', '-y', '-qq', ...withRecommends], 15 * 60_000);
	if (without.length)
		aptGet(['install', '-y', '-qq', '--no-install-recommends', ...without], 15 * 60_000);
	const still = missing.filter((name) => !PRESENT[name]());
	if (still.length) throw new Error(`apt-get ran but ${still.join(', ')} is still missing`);
	const seconds = (Date.now() - t0) / 1000;
	say(`installed ${missing.join(', ')} in ${seconds.toFixed(1)} s`);
	return seconds;
}
