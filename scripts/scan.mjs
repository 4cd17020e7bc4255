// n8n's own verification scan, run on exactly what `npm publish` would ship:
// pack the package, unpack the tarball into a temporary folder, and lint it
// with the scanner's rules (analyzePackage). The published scanner fetches
// packages by name from the registry and needs provenance, so it is called
// on the local tarball instead.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const { analyzePackage } = await import('@n8n/scan-community-package/scanner/scanner.mjs');

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'knolyx-scan-'));
try {
	const packed = JSON.parse(
		execFileSync('npm', ['pack', '--json', '--pack-destination', work], {
			cwd: root,
			encoding: 'utf8',
		}),
	);
	const tarball = path.join(work, packed[0].filename);
	const files = packed[0].files.map((f) => f.path);
	execFileSync('tar', ['-xzf', tarball, '-C', work]);
	const packageDir = path.join(work, 'package');

	const outside = files.filter(
		(f) =>
			!(
				f === 'package.json' ||
				f === 'index.js' ||
				f.startsWith('dist/') ||
				/^(README|LICENSE)/i.test(f)
			),
	);
	if (outside.length > 0) {
		console.error(`The package would ship files outside dist/: ${outside.join(', ')}`);
		process.exitCode = 1;
	}
	const banned = files.filter((f) => /(^|\/)(sandbox|test|scripts|bench|examples)\//.test(f));
	if (banned.length > 0) {
		console.error(`The package would ship development files: ${banned.join(', ')}`);
		process.exitCode = 1;
	}

	const result = await analyzePackage(packageDir);
	console.log(
		`Scanned ${packed[0].name}@${packed[0].version}: ${files.length} files, ${packed[0].size} bytes packed`,
	);
	if (result.passed) {
		console.log('n8n community package scan: passed');
	} else {
		console.error(`n8n community package scan: FAILED (${result.message})`);
		if (result.details) console.error(result.details);
		process.exitCode = 1;
	}
} finally {
	fs.rmSync(work, { recursive: true, force: true });
}
