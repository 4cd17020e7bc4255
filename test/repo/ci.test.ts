/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * CONTRIBUTING.md says GitHub (.github/workflows/ci.yml) runs the same checks as .ci/run (a machine
 * of one's own): every command .ci/run runs, on each n8n line it names, is run by a job of the
 * hosted workflow (a job's `${{ matrix.n8n }}` stands for each version of its matrix).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const read = (file: string) => readFileSync(join(__dirname, '..', '..', file), 'utf8');

/** The npm/npx commands of a line, normalised: `npm run test:e2e --n8n 2.41.1`, `npm test`, ... */
function commandsOf(line: string): string[] {
	const found: string[] = [];
	const pattern =
		/\bnpm (ci|test)\b|\bnpm run (?:--silent )?([\w:-]+)(?: -- --n8n ([\d.]+))?|\bnpx (n8n-node [\w-]+)/g;
	for (const m of line.matchAll(pattern)) {
		if (m[1]) found.push(`npm ${m[1]}`);
		else if (m[2]) found.push(`npm run ${m[2]}${m[3] ? ` --n8n ${m[3]}` : ''}`);
		else found.push(`npx ${m[4]}`);
	}
	return found;
}

function ciRunCommands(): Set<string> {
	const lines = read('.ci/run')
		.split('\n')
		.filter((l) => !l.trim().startsWith('#'));
	return new Set(lines.flatMap(commandsOf));
}

/** Every command the jobs of a workflow file run, `${{ matrix.n8n }}` expanded per job. */
function workflowCommands(file: string): Set<string> {
	const text = read(file);
	const jobsAt = text.indexOf('\njobs:\n');
	expect(jobsAt).toBeGreaterThan(0);
	// A job starts at a two-space-indented key under `jobs:`.
	const jobs = text.slice(jobsAt + 7).split(/\n(?= {2}[\w-]+:\n)/);
	const commands = new Set<string>();
	for (const job of jobs) {
		const uncommented = job
			.split('\n')
			.filter((l) => !l.trim().startsWith('#'))
			.join('\n');
		const matrix = /\n {4}strategy:\n([\s\S]*?)\n {4}steps:/.exec(uncommented)?.[1] ?? '';
		const versions = [...new Set([...matrix.matchAll(/'(\d+\.\d+\.\d+)'/g)].map((m) => m[1]))];
		for (const line of uncommented.split('\n')) {
			const variants = line.includes('${{ matrix.n8n }}')
				? versions.map((v) => line.split('${{ matrix.n8n }}').join(v))
				: [line];
			for (const variant of variants) for (const c of commandsOf(variant)) commands.add(c);
		}
	}
	return commands;
}

describe('CI: GitHub runs what .ci/run runs', () => {
	test('.ci/run runs the real-n8n suites on both lines (the comparison below is not empty)', () => {
		const local = ciRunCommands();
		for (const c of [
			'npm ci',
			'npm test',
			'npm run typecheck',
			'npm run test:e2e --n8n 1.123.81',
			'npm run test:e2e --n8n 2.41.1',
			'npm run test:queue',
			'npm run test:install --n8n 2.41.1',
			'npm run test:install --n8n 1.123.81',
		])
			expect(local).toContain(c);
	});

	test('every command of .ci/run is run by a job of .github/workflows/ci.yml', () => {
		const hosted = workflowCommands('.github/workflows/ci.yml');
		const missing = [...ciRunCommands()].filter((c) => !hosted.has(c));
		expect(missing).toEqual([]);
	});
});
