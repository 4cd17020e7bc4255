/**
 * The TypeScript transform of every jest config here (jest.config.js and jest.floor.config.js,
 * which extends it, jest.faults.config.js, jest.variants.config.js): ts-jest, with its output kept
 * in one cache that all of them share.
 *
 * Jest keeps transformed files in a folder per config and project, and ts-jest's cache key holds
 * the whole jest config: each of the nine projects a CI run starts (npm test, test:floor,
 * test:faults, test:variants's six) transformed the same sources again. test:variants alone took
 * 38 s of user CPU with an empty cache and 21 s with its own (2026-11-29, this machine).
 *
 * Here ts-jest's output is also kept under a key of what it depends on, in transpile mode
 * (tsconfig.dev.json's isolatedModules): the source and its path, the transform's options, the
 * tsconfig files (the one named and every one it extends), the versions of ts-jest, TypeScript
 * and Node, and jest's ESM and instrument flags. Jest's own cache and ts-jest's cache key are
 * unchanged; a key that misses runs ts-jest as before.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { TsJestTransformer } = require('ts-jest');

const VERSIONS = ['ts-jest', 'typescript'].map(
	(name) => `${name}@${require(`${name}/package.json`).version}`,
);

/** The text of `file` and of every tsconfig it extends (relative `extends` only). */
function tsconfigChain(file, seen = []) {
	if (seen.includes(file) || !fs.existsSync(file)) return seen;
	seen.push(file);
	const text = fs.readFileSync(file, 'utf8');
	const extended = /"extends"\s*:\s*"(\.[^"]+)"/.exec(text);
	if (extended) tsconfigChain(path.resolve(path.dirname(file), extended[1]), seen);
	return seen;
}

module.exports = {
	createTransformer(options = {}) {
		const tsJest = new TsJestTransformer(options);
		/** Per config (rootDir, cacheDirectory): the part of the key all its files share, and the folder. */
		const shared = new Map();
		const sharedOf = (config) => {
			const id = `${config.rootDir}\0${config.cacheDirectory}`;
			let entry = shared.get(id);
			if (!entry) {
				const hash = crypto.createHash('sha256');
				hash.update(JSON.stringify([VERSIONS, process.version, options]));
				const tsconfig = path.resolve(config.rootDir, options.tsconfig ?? 'tsconfig.json');
				for (const file of tsconfigChain(tsconfig)) hash.update(fs.readFileSync(file));
				entry = {
					digest: hash.digest('hex'),
					dir: path.join(config.cacheDirectory, 'knolyx-ts-transform'),
				};
				shared.set(id, entry);
			}
			return entry;
		};
		return {
			canInstrument: false,
			getCacheKey: (source, file, transformOptions) =>
				tsJest.getCacheKey(source, file, transformOptions),
			process(source, file, transformOptions) {
				const { digest, dir } = sharedOf(transformOptions.config);
				const key = crypto
					.createHash('sha256')
					.update(digest)
					.update(
						`\0${file}\0${Boolean(transformOptions.supportsStaticESM)}\0${Boolean(transformOptions.instrument)}\0`,
					)
					.update(source)
					.digest('hex');
				const cached = path.join(dir, key.slice(0, 2), `${key}.json`);
				try {
					return JSON.parse(fs.readFileSync(cached, 'utf8'));
				} catch {
					// Not there yet (or being written by another worker): transform it.
				}
				const result = tsJest.process(source, file, transformOptions);
				const tmp = `${cached}.${process.pid}.${crypto.randomBytes(4).toString('hex')}`;
				fs.mkdirSync(path.dirname(cached), { recursive: true });
				fs.writeFileSync(tmp, JSON.stringify(result));
				fs.renameSync(tmp, cached);
				return result;
			},
		};
	},
};
