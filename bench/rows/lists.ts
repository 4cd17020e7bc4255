/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Row 12 (issue 55). Lists of long ids, read as the node reads every list and read answer since
 * ids are exact (helpers/json.ts `parseExact`: long integers as their digits), beside JSON.parse
 * on the same text: 16 MiB of a course list, an event list and an attendee list whose every id is
 * above 2^53, in five processes one after another (json-worker.ts, as row 10 measures its
 * reader). The goal is the worst of the five at or under 3×. No sandbox.
 */
import { loadavg } from 'node:os';

import { log, QUICK } from '../config';
import type { JsonMeasure } from '../json-worker';
import { round, runJob } from '../lib';
import { goal, notes, ratio, sections, table } from '../report';

const BENCH = '12 lists with long ids';
const SIZE_MIB = QUICK ? 1 : 16;
const ROUNDS = QUICK ? 1 : 3;
/** Processes, one after another: the goal is the worst of them. */
const RUNS = QUICK ? 2 : 5;

type Job = { results?: JsonMeasure[]; error?: string };

const ratioOf = (m: JsonMeasure) => m.readerMs / m.jsonParseMs!;
const perMiB = (ms: number) => `${round(ms / SIZE_MIB, 1)} ms`;

export async function benchLists(): Promise<void> {
	log(`12. Lists with long ids, ${SIZE_MIB} MiB`);
	const startLoad = round(loadavg()[0], 1);
	const runs: Array<{ job: Job; load: number }> = [];
	for (let run = 0; run < RUNS; run++) {
		const load = round(loadavg()[0], 1);
		const job = await runJob<Job>(
			{ sizesMiB: [SIZE_MIB], rounds: [ROUNDS], readsOnly: true, validOnly: true, lists: true },
			20 * 60_000,
			'json-worker.ts',
		);
		const worst = job.results?.reduce((w, m) => (ratioOf(m) > ratioOf(w) ? m : w));
		log(
			`  run ${run + 1} of ${RUNS} (load ${load}): worst ratio ${worst ? `${ratio(ratioOf(worst))} (${worst.pattern})` : (job.error ?? 'no result')}`,
		);
		runs.push({ job, load });
	}
	const endLoad = round(loadavg()[0], 1);
	const measured = runs.filter(({ job }) => job.results);
	if (measured.length === 0) {
		notes.push(
			`Row 12 (lists with long ids) was not measured: ${runs[0]?.job.error ?? 'no result'}.`,
		);
		return;
	}
	const first = measured[0].job.results!;
	const all = measured.flatMap(({ job }) => job.results!);
	const rows = first.map((m) => {
		const same = all.filter((r) => r.pattern === m.pattern);
		return [
			m.pattern,
			perMiB(m.readerMs),
			perMiB(m.jsonParseMs!),
			ratio(ratioOf(m)),
			ratio(Math.max(...same.map(ratioOf))),
			ratio(m.readerWallMs / m.jsonParseWallMs!),
		];
	});
	const worst = all.reduce((w, m) => (ratioOf(m) > ratioOf(w) ? m : w));
	const eachRun = runs
		.map(({ job, load }) => {
			const of = job.results?.reduce((w, m) => (ratioOf(m) > ratioOf(w) ? m : w));
			return `${of ? ratio(ratioOf(of)) : 'not measured'} (load ${load})`;
		})
		.join(', ');
	log(`  worst ratio of ${RUNS} runs ${ratio(ratioOf(worst))}`);
	sections.push(
		[
			`### 12. Lists with long ids: ${SIZE_MIB} MiB read as the node reads lists, beside JSON.parse on the same text`,
			'',
			`The node reads every list and read answer with \`parseExact\` (helpers/json.ts; docs/api.md "Ids"): the scan of row 10 stops at the first integer past 2^53 - 1, and the node's own reader then reads the text, each such integer as its digits (a string: the output form of a long id). Each list here holds only ids past 2^53, every one distinct: the worst case for the reader. One flat string decoded from bytes, read twice by each before the timed rounds; medians of ${ROUNDS} rounds, the reader and JSON.parse interleaved, a full GC before each, timed in CPU time of the process (as row 10). Measured in ${RUNS} processes one after another: the times and the first ratio are from the first; "worst of ${RUNS} runs" is the highest ratio of the same list in any of them, and the goal is the worst of all. Load average (1 min): ${startLoad} at the start, ${endLoad} at the end, on 2 cores shared with other work.`,
			'',
			table(
				[
					'list',
					'reader CPU per MiB',
					'JSON.parse CPU per MiB',
					'reader ÷ JSON.parse',
					`same, worst of ${RUNS} runs`,
					'same, wall clock',
				],
				rows,
			),
		].join('\n'),
	);
	goal(
		BENCH,
		`worst parseExact ÷ JSON.parse on ${SIZE_MIB} MiB of lists whose every id is past 2^53, the worst of ${RUNS} runs`,
		`${ratio(ratioOf(worst))} (${worst.pattern}; the worst of each run: ${eachRun})`,
		'≤ 3×',
		ratioOf(worst) <= 3 && measured.length === RUNS,
		() =>
			'The reader is JavaScript passing over each character, JSON.parse native code; a loaded machine moves single medians.',
	);
}
