/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Row 10. The JSON reader (helpers/json.ts) on worst-case inputs at 1, 4 and 16 MiB, beside
 * JSON.parse on the same text (issue 30): time per MiB, the ratio, and how the time per MiB grows
 * with the size (a reader linear in its input keeps it flat; a quadratic one multiplies it by 16).
 * Measured in a process of its own (json-worker.ts) with Node's default heap; the growth goal in
 * a second one whose young generation holds a whole read (see GROWTH_FLAGS). No sandbox.
 */
import { loadavg } from 'node:os';

import { log, QUICK } from '../config';
import type { JsonMeasure } from '../json-worker';
import { round, runJob } from '../lib';
import { goal, notes, ratio, sections, table } from '../report';

const BENCH = '10 JSON reader';
const SIZES = QUICK ? [1] : [1, 4, 16];
const ROUNDS = QUICK ? [1] : [7, 5, 3];
/**
 * Processes that measure the ratio, one after another: the goal is the worst of them, as one run
 * under 3× of several is no goal met (row 10 met it in one run of five, at 2.84×, with two over).
 * The first also writes back and reads the texts that are not JSON; the others read the JSON only.
 */
const RUNS = QUICK ? 2 : 5;

const perMiB = (ms: number, size: number) => `${round(ms / size, 1)} ms`;

/**
 * The growth goal's process: semi-spaces of 128 MiB, so that no read of 16 MiB fills the young
 * generation. With Node's default heap (semi-spaces of at most 16 MiB on 64 bits) a read whose
 * values are made in JavaScript and all kept (the node's reader on long integers) fills it
 * several times from a few MiB up: each time V8 copies everything the read has built so far, and
 * once more into the old generation; JSON.parse makes what it reads from a text of 100 KB or more
 * straight in the old generation (V8's json-parser, kPretenureTreshold), so it never pays that.
 * Its growth then cannot stand for "what the larger heap adds" to the reader, and the time per
 * MiB of the reader rises from 1 to 16 MiB by that copying (a step where the young generation
 * overflows, not a curve); making the reader's own work faster would raise its growth further.
 * The reader's total cost, copying included, is what the ratio goal measures with the default heap.
 */
const GROWTH_FLAGS = ['--min-semi-space-size=128', '--max-semi-space-size=128'];
/** Rounds there at the smallest and the largest size (no write back: half the work a round). */
const GROWTH_ROUNDS = [7, 5];

type Job = { results?: JsonMeasure[]; error?: string };

const ratioOf = (m: JsonMeasure) => m.readerMs / m.jsonParseMs!;

/** The input and size where the reader is slowest beside JSON.parse, of a run's JSON inputs. */
const worstOf = (results: JsonMeasure[]) =>
	results
		.filter((m) => m.jsonParseMs !== undefined)
		.reduce<JsonMeasure | undefined>((w, m) => (!w || ratioOf(m) > ratioOf(w) ? m : w), undefined);

/** Time per MiB at the largest size ÷ at the smallest, of the reader and of JSON.parse, per input. */
function growthOf(results: JsonMeasure[], first: number, largest: number) {
	return results
		.filter((m) => m.sizeMiB === largest && largest > first)
		.map((m) => {
			const at1 = results.find((f) => f.pattern === m.pattern && f.sizeMiB === first)!;
			const of = (ms: number | undefined, firstMs: number | undefined) =>
				ms === undefined || firstMs === undefined ? undefined : ms / largest / (firstMs / first);
			return {
				pattern: m.pattern,
				reader: of(m.readerMs, at1.readerMs)!,
				jsonParse: of(m.jsonParseMs, at1.jsonParseMs),
				// Young collections of the reader's read beyond JSON.parse's on the same text.
				youngBeyond: m.readerYoungGcs - (m.jsonParseYoungGcs ?? 0),
			};
		});
}

type Growth = ReturnType<typeof growthOf>[number];

const growthText = (growth: Growth[]) =>
	growth
		.map(
			(g) =>
				`${g.pattern} ${ratio(g.reader)}${g.jsonParse === undefined ? '' : ` (JSON.parse ${ratio(g.jsonParse)})`}`,
		)
		.join('; ');

const youngText = (m: JsonMeasure) =>
	m.readerYoungGcs === 0 ? '0' : `${m.readerYoungGcs} (${round(m.readerYoungGcMs, 0)} ms)`;

export async function benchJson(): Promise<void> {
	log(`10. JSON reader, sizes ${SIZES.join(', ')} MiB`);
	const startLoad = round(loadavg()[0], 1);
	const runs: Array<{ job: Job; load: number }> = [];
	for (let run = 0; run < RUNS; run++) {
		const load = round(loadavg()[0], 1);
		const later = run > 0 ? { readsOnly: true, validOnly: true } : {};
		const runJobResult = await runJob<Job>(
			{ sizesMiB: SIZES, rounds: ROUNDS, ...later },
			40 * 60_000,
			'json-worker.ts',
		);
		const worstOfRun = runJobResult.results ? worstOf(runJobResult.results) : undefined;
		log(
			`  run ${run + 1} of ${RUNS} (load ${load}): worst ratio ${worstOfRun ? `${ratio(ratioOf(worstOfRun))} (${worstOfRun.pattern}, ${worstOfRun.sizeMiB} MiB)` : (runJobResult.error ?? 'no result')}`,
		);
		runs.push({ job: runJobResult, load });
	}
	const job = runs[0].job;
	const largest = SIZES[SIZES.length - 1];
	const growthJob =
		job.results && largest > SIZES[0]
			? await runJob<Job>(
					{
						sizesMiB: [SIZES[0], largest],
						rounds: GROWTH_ROUNDS,
						readsOnly: true,
					},
					40 * 60_000,
					'json-worker.ts',
					GROWTH_FLAGS,
				)
			: undefined;
	const endLoad = round(loadavg()[0], 1);
	if (!job.results) {
		notes.push(`Row 10 (JSON reader) was not measured: ${job.error ?? 'no result'}.`);
		return;
	}
	const results = job.results;
	/** Each run's reads of the same input and size (a run that failed has none). */
	const sameIn = (m: JsonMeasure) =>
		runs.flatMap(({ job: { results: of } }) =>
			(of ?? []).filter((r) => r.pattern === m.pattern && r.sizeMiB === m.sizeMiB),
		);
	const rows = results.map((m) => [
		m.pattern,
		`${m.sizeMiB} MiB`,
		perMiB(m.readerMs, m.sizeMiB),
		m.jsonParseMs === undefined ? '–' : perMiB(m.jsonParseMs, m.sizeMiB),
		m.jsonParseMs === undefined ? '–' : ratio(ratioOf(m)),
		m.jsonParseMs === undefined ? '–' : ratio(Math.max(...sameIn(m).map(ratioOf))),
		m.jsonParseWallMs === undefined ? '–' : ratio(m.readerWallMs / m.jsonParseWallMs),
		m.writeMs === undefined || m.jsonStringifyMs === undefined
			? '–'
			: ratio(m.writeMs / m.jsonStringifyMs),
		youngText(m),
		m.outcome,
	]);
	const worsts = runs.map(({ job: { results: of } }) => (of ? worstOf(of) : undefined));
	const worst = worsts.reduce<JsonMeasure | undefined>(
		(w, m) => (!w || (m && ratioOf(m) > ratioOf(w)) ? m : w),
		undefined,
	);
	const failedRuns = runs.filter(({ job: { results: of } }) => !of);
	const eachRun = runs
		.map(
			({ load }, i) => `${worsts[i] ? ratio(ratioOf(worsts[i]!)) : 'not measured'} (load ${load})`,
		)
		.join(', ');
	const defaultGrowth = growthOf(results, SIZES[0], largest);
	const growth = growthJob?.results ? growthOf(growthJob.results, SIZES[0], largest) : [];
	// Side by side: the reader's growth beyond what the larger input adds, as JSON.parse on the
	// same text in the same process shows it (never less than flat: a JSON.parse that gets faster
	// per MiB excuses nothing); alone where JSON.parse cannot read the text.
	const relative = (g: Growth) => g.reader / Math.max(1, g.jsonParse ?? 1);
	const steepest = growth.reduce<Growth | undefined>(
		(w, g) => (!w || relative(g) > relative(w) ? g : w),
		undefined,
	);
	const readerYoung = Math.max(0, ...growth.map((g) => g.youngBeyond));
	const worstWrite = results
		.filter((m) => m.writeMs !== undefined)
		.reduce<
			JsonMeasure | undefined
		>((w, m) => (!w || m.writeMs! / m.jsonStringifyMs! > w.writeMs! / w.jsonStringifyMs! ? m : w), undefined);
	log(
		`  worst ratio of ${RUNS} runs ${worst ? ratio(ratioOf(worst)) : '–'}, steepest growth ${steepest ? ratio(relative(steepest)) : '–'}`,
	);
	sections.push(
		[
			`### 10. JSON reader: worst-case inputs at ${SIZES.join(', ')} MiB, the node's reader beside JSON.parse on the same text`,
			'',
			`The node's reader is \`parseLossless\` (helpers/json.ts: one pass that counts nesting and stops at the first long integer; JSON.parse reads a text without one, the node's own reader a text with one, building each long integer as a LongInteger), the one every JSON answer of the rule endpoints and every JSON parameter goes through. Each input is one flat string decoded from bytes, as the node gets an answer, read twice by each before the timed rounds. The reads are measured in ${RUNS} processes, one after another: the table's times and its first ratio are from the first, which also writes back and reads the texts that are not JSON; "worst of ${RUNS} runs" is the highest ratio of the same input and size in any of them, and the ratio goal is the worst of all of them (the worst input of each run is listed beside it). In each, medians of ${ROUNDS.join(' / ')} rounds at ${SIZES.join(' / ')} MiB, the reader and JSON.parse interleaved, a full GC before each (a read shorter than 25 ms repeated inside its sample and timed per read: what the full GC leaves to V8's background threads is charged to the process's CPU time, and moved single reads of 1 MiB up to 2×), timed in CPU time of the process (user + system, every thread: GC and compiler included; on 2 cores shared with other work the wall clock mostly measures the wait for a core, shown beside the ratio); "–" where JSON.parse cannot read the text (it is not JSON, or the reader refuses it). Write back = \`stringifyLossless\` ÷ \`JSON.stringify\` of what each read. Young collections = the most scavenges V8 made inside one timed read of the reader (GCProfiler; per read, rounded up, where a sample repeats the read), and their median time: JSON.parse makes what it reads from a text of 100 KB or more straight in the old generation (V8's json-parser), the node's reader makes its values in JavaScript, in the young generation, which with Node's default heap overflows from a few MiB of long integers on: V8 copies what lives on out of it twice, but for what one object literal makes once V8 has seen it live on (the long integers), which it then places straight in the old generation. ${growth.length ? `So the growth goal is measured in a second process of the same run, side by side again (the reader and JSON.parse interleaved on the same texts, ${SIZES[0]} and ${largest} MiB, ${GROWTH_ROUNDS.join(' / ')} rounds), whose young generation holds a whole ${largest} MiB read (Node flags ${GROWTH_FLAGS.join(' ')}; young collections in a ${largest} MiB read of the reader there beyond JSON.parse's on the same text: at most ${readerYoung}): with the default heap, JSON.parse's growth cannot stand for what the larger heap adds to the reader, and the reader's time per MiB rises by that copying, a step where the young generation overflows, not a curve. The copying is in every ratio of the table and in the ratio goal. ` : ''}Load average (1 min) during the row: ${startLoad} at its start, ${endLoad} at its end, on 2 cores shared with other work: only the ratios of this run count.`,
			'',
			table(
				[
					'input',
					'size',
					'reader CPU per MiB',
					'JSON.parse CPU per MiB',
					'reader ÷ JSON.parse',
					`same, worst of ${RUNS} runs`,
					'same, wall clock',
					'write back ÷ JSON.stringify',
					'reader: young collections in a read',
					'reader',
				],
				rows,
			),
			'',
			...(defaultGrowth.length
				? [
						`Time per MiB at ${largest} MiB ÷ at ${SIZES[0]} MiB with Node's default heap, as in the table (flat = linear; a quadratic reader: ${largest / SIZES[0]}×): ${growthText(defaultGrowth)}.`,
					]
				: []),
			...(growth.length
				? [
						'',
						`The same with a young generation that holds a whole read (the growth goal): ${growthText(growth)}.`,
					]
				: []),
		].join('\n'),
	);
	if (worst) {
		const value = ratioOf(worst);
		goal(
			BENCH,
			`worst reader ÷ JSON.parse on the same text (JSON inputs, every size), the worst of ${RUNS} runs`,
			`${ratio(value)} (${worst.pattern}, ${worst.sizeMiB} MiB; the worst of each run: ${eachRun})`,
			'≤ 3×',
			value <= 3 && failedRuns.length === 0,
			() =>
				`The reader's passes are JavaScript loops over the text's characters (about 2 ns a character on this machine), JSON.parse native code that passes over digits and whitespace several times faster: texts made mostly of digits or whitespace come closest to the bound, and a loaded machine moves single medians. The reads of 1 MiB take a few milliseconds each, and their medians move the most. The reader's long integers (800 000 at 16 MiB) are made at one object literal, which V8 places straight in the old generation once it sees that what it makes lives on (the young collections column); made as instances of a class until 2026-11-29, V8 copied each out of the overflowing young generation twice, by its parallel scavenger whose CPU time grows with the other processes on the machine, and long integers were the worst input (3.86×, the worst of 5). Would close it: JSON.parse with source access (Node 21+) in place of the second pass, not on Node 20.`,
		);
	}
	const growthMeasure = `steepest growth of the reader's time per MiB, ${SIZES[0]} → ${largest} MiB, ÷ JSON.parse's growth on the same text where it grows (alone where it does not, or cannot read the text), with a young generation that holds a whole read`;
	const growthGoal = `linear: ≤ 2× (a quadratic reader: ${largest / SIZES[0]}×)`;
	if (steepest) {
		goal(
			BENCH,
			growthMeasure,
			`${ratio(relative(steepest))} (${steepest.pattern}: reader ${ratio(steepest.reader)}${steepest.jsonParse === undefined ? '' : `, JSON.parse ${ratio(steepest.jsonParse)}`})`,
			growthGoal,
			relative(steepest) <= 2,
			() =>
				'With no young-generation overflow in the way, what grows is the work per character: a backtracking or quadratic reader would grow 16× where JSON.parse stays flat.',
		);
	} else if (defaultGrowth.length) {
		goal(
			BENCH,
			growthMeasure,
			`not measured: ${growthJob?.error ?? 'no result'}`,
			growthGoal,
			false,
		);
	}
	if (worstWrite) {
		goal(
			BENCH,
			'worst write back: stringifyLossless ÷ JSON.stringify',
			`${ratio(worstWrite.writeMs! / worstWrite.jsonStringifyMs!)} (${worstWrite.pattern}, ${worstWrite.sizeMiB} MiB)`,
			'linear (no goal on the ratio)',
			undefined,
		);
	}
}
