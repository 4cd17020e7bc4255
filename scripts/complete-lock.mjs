#!/usr/bin/env node
// Completes package-lock.json with the platform-specific optional packages the
// registry here does not serve, so that `npm ci` accepts the lock.
//
// Why: unrs-resolver (a dependency of jest 30 and of @n8n/node-cli's ESLint
// import resolver) lists one optional native binding per platform
// (@unrs/resolver-binding-darwin-arm64, -win32-x64-msvc, ...). npm locks every
// one of them, but the registry mirror this project is developed against only
// serves the Linux ones, so `npm install` here leaves the others out of the lock
// and `npm ci` then refuses it ("Missing: ... from lock file").
//
// This script adds, for every optional dependency that is named in the lock but
// has no entry, the entry npm would have written: version, `optional`, `dev`, and
// the os / cpu / libc it is built for, read from its name (the napi-rs naming
// `<name>-<os>-<cpu>[-<abi>]` these bindings use). Entries have no integrity
// hash (the registry here cannot give one). npm never downloads a binding whose
// os/cpu/libc does not match the machine, so on Linux x64 (here and on GitHub's
// runners) nothing new is fetched. Run it after any `npm install` that changed
// the lock; `npm run lock:check` (in CI: `npm ci` itself) tells when it is needed.
//
//   node scripts/complete-lock.mjs          write the missing entries
//   node scripts/complete-lock.mjs --check  exit 1 when entries are missing
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lockFile = path.join(root, 'package-lock.json');
const lock = JSON.parse(fs.readFileSync(lockFile, 'utf8'));
const packages = lock.packages;

const OS = {
	android: 'android',
	darwin: 'darwin',
	freebsd: 'freebsd',
	linux: 'linux',
	openharmony: 'openharmony',
	win32: 'win32',
};
const CPU = new Set(['arm', 'arm64', 'ia32', 'loong64', 'ppc64', 'riscv64', 's390x', 'x64']);
const LIBC = { gnu: 'glibc', gnueabihf: 'glibc', musl: 'musl', musleabihf: 'musl' };

/** { os, cpu, libc? } of a napi-rs style binding name, or null when the name does not say. */
function platformOf(name) {
	const parts = name.split('/').pop().split('-');
	for (let i = 0; i < parts.length - 1; i++) {
		if (OS[parts[i]] && CPU.has(parts[i + 1])) {
			const abi = parts[i + 2];
			return {
				os: [OS[parts[i]]],
				cpu: [parts[i + 1]],
				...(parts[i] === 'linux' && LIBC[abi] ? { libc: [LIBC[abi]] } : {}),
			};
		}
	}
	return null;
}

/** Where npm would look up `dep` from the package at `location` (node_modules resolution). */
function resolve(location, dep) {
	let dir = location;
	for (;;) {
		const candidate = `${dir ? `${dir}/` : ''}node_modules/${dep}`;
		if (packages[candidate]) return candidate;
		if (!dir) return null;
		const i = dir.lastIndexOf('/node_modules/');
		dir = i < 0 ? '' : dir.slice(0, i);
	}
}

const missing = [];
for (const [location, entry] of Object.entries(packages)) {
	for (const [dep, range] of Object.entries(entry.optionalDependencies ?? {})) {
		if (resolve(location, dep)) continue;
		const platform = platformOf(dep);
		if (!platform || !/^\d+\.\d+\.\d+$/.test(range)) {
			throw new Error(
				`${location} needs ${dep}@${range}, which is not in the lock and not a pinned platform binding: run npm install where the registry serves it`,
			);
		}
		// Keys in npm's order, so a later `npm install` rewrites nothing.
		const { os, cpu, libc } = platform;
		missing.push({
			key: `node_modules/${dep}`,
			entry: {
				version: range,
				cpu,
				...(entry.dev ? { dev: true } : {}),
				...(libc ? { libc } : {}),
				optional: true,
				os,
			},
		});
	}
}

if (process.argv.includes('--check')) {
	if (missing.length) {
		console.error(
			`package-lock.json lacks ${missing.length} platform binding(s) (${missing.map((m) => m.key).join(', ')}): run node scripts/complete-lock.mjs`,
		);
		process.exit(1);
	}
	console.log('package-lock.json: every optional platform binding is locked');
} else {
	for (const { key, entry } of missing) packages[key] = entry;
	// npm keeps the entries sorted by path.
	lock.packages = Object.fromEntries(
		Object.entries(packages).sort(([a], [b]) =>
			a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en'),
		),
	);
	fs.writeFileSync(lockFile, JSON.stringify(lock, null, 2) + '\n');
	console.log(`added ${missing.length} platform binding(s) to package-lock.json`);
}
