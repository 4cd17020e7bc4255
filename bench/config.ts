/* eslint-disable @n8n/community-nodes/no-restricted-globals, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * What this run of `npm run bench` does: the command line, the sizes, the log.
 *
 *   npm run bench                        every row, written to bench/RESULTS.md
 *   npm run bench -- --quick             small N, a smoke test of the whole thing, writes nothing
 *   npm run bench -- trigger growth      only these rows (also --only=trigger,growth); writes nothing
 *   npm run bench -- --no-write          print only
 *   npm run bench -- n8n-trigger --update-results
 *                                        only these rows, and replace their parts of bench/RESULTS.md
 *                                        (sections, summary lines, misses) with this run's; the rest
 *                                        keeps the last whole run, and the file says which row came later
 */
export const ROWS = [
	'bulk',
	'rate',
	'rules',
	'getall',
	'trigger',
	'memory',
	'growth',
	'n8n',
	'n8n-trigger',
	'poll',
	'json',
	'bulk-template',
	'lists',
] as const;
export type Row = (typeof ROWS)[number];

export const argv = process.argv.slice(2);
export const QUICK = argv.includes('--quick');
const named = [
	...argv.filter((a) => !a.startsWith('-')),
	...(argv
		.find((a) => a.startsWith('--only='))
		?.slice('--only='.length)
		.split(',') ?? []),
].filter(Boolean);
const unknown = named.filter((name) => !(ROWS as readonly string[]).includes(name));
if (unknown.length) {
	console.error(`Unknown benchmark row(s): ${unknown.join(', ')}. Rows: ${ROWS.join(', ')}.`);
	process.exit(2);
}
/** A partial run never overwrites RESULTS.md (it must hold one whole run). */
export const WRITE = !argv.includes('--no-write') && !QUICK && named.length === 0;
/** A partial run replaces its own rows in RESULTS.md only when asked to (update-results.ts). */
export const UPDATE = argv.includes('--update-results');
if (UPDATE && (QUICK || named.length === 0 || argv.includes('--no-write'))) {
	console.error(
		'--update-results needs the rows to replace (e.g. npm run bench -- n8n-trigger --update-results), without --quick or --no-write.',
	);
	process.exit(2);
}
export const wanted = (row: Row) => named.length === 0 || named.includes(row);

export const LATENCY_MS = 20;
export const N = QUICK ? 100 : 1000;
export const RATE_LIMIT = 100;
export const ROUNDS = QUICK ? 1 : 3;
export const JOB_TIMEOUT_MS = 240_000;

export const t0 = Date.now();
export const log = (...args: unknown[]) =>
	console.error(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s]`, ...args);
