/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * `npm run bench`: the benchmarks of issues 6 and 16 against the sandbox on 127.0.0.1,
 * ratios measured side by side in this one run, printed and written to
 * bench/RESULTS.md. Absolute times on a shared machine are noise; the ratios
 * compare runs made minutes apart on the same machine, interleaved where a
 * benchmark is repeated. Command line: see config.ts; one file per row in rows/.
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { argv, log, QUICK, ROWS, t0, UPDATE, wanted, WRITE } from './config';
import { round, runJob, startSandboxProcess } from './lib';
import { METHOD, NOT_MEASURED } from './method';
import { realN8nUnavailable, stopSharedN8n } from './n8n-real';
import { resolveRuntimeDir } from './runtime-dir';
import { benchPoll } from './poll';
import { misses, notes, sections, summary, table } from './report';
import { benchBulk } from './rows/bulk';
import { benchBulkTemplate } from './rows/bulk-template';
import { benchGetAll } from './rows/getall';
import { benchGrowth } from './rows/growth';
import { benchJson } from './rows/json';
import { benchLists } from './rows/lists';
import { benchTriggerInN8n } from './rows/n8n-trigger';
import { benchMemory } from './rows/memory';
import { benchRate } from './rows/rate';
import { benchRealN8n } from './rows/real-n8n';
import { benchRules } from './rows/rules';
import { benchTrigger } from './rows/trigger';
import { updateResults } from './update-results';

let startLoad = 0;

/** Rows that run against the sandbox process. */
const SANDBOX_ROWS = ROWS.filter((row) => row !== 'json' && row !== 'poll' && row !== 'lists');

async function main(): Promise<void> {
	const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
	startLoad = round(loadavg()[0], 1);
	await resolveRuntimeDir();
	log(
		`${command} on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`,
	);
	// Rows 10 (json), 12 (lists) and poll need no sandbox: a run of only those starts none.
	if (!SANDBOX_ROWS.some(wanted)) {
		if (wanted('poll')) sections.push(await benchPoll({ quick: QUICK, log }));
		if (wanted('json')) await benchJson();
		if (wanted('lists')) await benchLists();
		return report(command);
	}
	const sandbox = await startSandboxProcess({});
	const httpProbe = await runJob<{ error?: string }>(
		{ kind: 'enrol', client: 'http', n: 1, url: sandbox.url, workgroupId: 201, prefix: 'probe' },
		60_000,
	);
	const httpAvailable = !httpProbe.error;
	if (!httpAvailable) {
		log(`HTTP Request node not available: ${httpProbe.error?.split('\n')[0]}`);
		notes.push(
			`The HTTP Request node could not be loaded (${httpProbe.error?.split('\n')[0]}); its comparisons were not measured.`,
		);
	}
	try {
		const bulk = wanted('bulk') ? await benchBulk(sandbox, httpAvailable) : undefined;
		if (wanted('rate'))
			await benchRate(sandbox, httpAvailable, wanted('n8n') && realN8nUnavailable() === undefined);
		if (wanted('rules')) await benchRules(sandbox);
		if (wanted('getall')) await benchGetAll(sandbox);
		if (wanted('trigger')) await benchTrigger(sandbox);
		if (wanted('memory')) await benchMemory(sandbox, bulk);
		if (wanted('growth')) await benchGrowth(sandbox);
		if (wanted('n8n')) await benchRealN8n(sandbox);
		if (wanted('n8n-trigger')) await benchTriggerInN8n(sandbox);
		if (wanted('bulk-template')) await benchBulkTemplate(sandbox);
		if (wanted('poll')) sections.push(await benchPoll({ quick: QUICK, log }));
		if (wanted('json')) await benchJson();
		if (wanted('lists')) await benchLists();
	} finally {
		await stopSharedN8n();
		await sandbox.close();
	}
	report(command);
}

/** Prints this run's summary and sections, and writes them to RESULTS.md as the command line says. */
function report(command: string): void {
	const elapsed = round((Date.now() - t0) / 1000, 0);
	const endLoad = round(loadavg()[0], 1);
	const summaryTable = table(
		['benchmark', 'measure', 'value', 'goal', 'met'],
		summary.map((s) => [s.bench, s.measure, s.value, s.goal, s.met]),
	);
	const text = [
		`Load average (1 min) at the start: ${startLoad}, at the end: ${endLoad}.`,
		'',
		'## Summary: goals of issues 6 and 16',
		'',
		summaryTable,
		'',
		...(misses.length
			? ['### Goals missed in this run: by how much, why, what would close it', '', ...misses, '']
			: []),
		...sections.flatMap((s) => [s, '']),
		...(notes.length ? ['### Notes from this run', '', ...notes.map((n) => `- ${n}`), ''] : []),
		`Whole run: ${elapsed} s.`,
	].join('\n');
	console.log(text);
	if (UPDATE) {
		const file = join(__dirname, 'RESULTS.md');
		const summaryLines = summaryTable.split('\n').slice(2); // below the header and its rule
		writeFileSync(
			file,
			updateResults(readFileSync(file, 'utf8'), {
				command,
				date: new Date(t0).toISOString(),
				startLoad,
				endLoad,
				elapsedS: elapsed,
				sections,
				summary: summary.map((s, i) => ({ bench: s.bench, line: summaryLines[i] })),
				misses,
				notes,
			}),
		);
		log(
			`bench/RESULTS.md: replaced ${sections.length} section(s) and ${summary.length} summary line(s) of this run`,
		);
	}
	if (WRITE) {
		writeFileSync(
			join(__dirname, 'RESULTS.md'),
			[
				'# Benchmark results',
				'',
				`Command: \`${command}\` (${new Date().toISOString()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})`,
				'',
				text,
				'',
				METHOD,
				NOT_MEASURED,
			].join('\n'),
		);
	}
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
