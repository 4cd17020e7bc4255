/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Row 10. The JSON reader (helpers/json.ts) on worst-case inputs at 1, 4 and 16 MiB, beside
 * JSON.parse on the same text (issue 30): time per MiB, the ratio, and how the time per MiB grows
 * with the size (a reader linear in its input keeps it flat; a quadratic one multiplies it by 16).
 * Measured in a process of its own (json-worker.ts); no sandbox.
 */
import { loadavg } from 'node:os';

import { log, QUICK } from '../config';
import type { JsonMeasure } from '../json-worker';
import { round, runJob } from '../lib';
import { goal, notes, ratio, sections, table } from '../report';

const BENCH = '10 JSON reader';
const SIZES = QUICK ? [1] : [1, 4, 16];
const ROUNDS = QUICK ? [1] : [7, 5, 3];

const perMiB = (ms: number, size: number) => `${round(ms / size, 1)} ms`;

export async function benchJson(): Promise<void> {
	log(`10. JSON reader, sizes ${SIZES.join(', ')} MiB`);
	const startLoad = round(loadavg()[0], 1);
	const job = await runJob<{ results?: JsonMeasure[]; error?: string }>(
		{ sizesMiB: SIZES, rounds: ROUNDS },
		40 * 60_000,
		'json-worker.ts',
	);
	const endLoad = round(loadavg()[0], 1);
	if (!job.results) {
		notes.push(`Row 10 (JSON reader) was not measured: ${job.error ?? 'no result'}.`);
		return;
	}
	const results = job.results;
	const rows = results.map((m) => [
		m.pattern,
		`${m.sizeMiB} MiB`,
		perMiB(m.readerMs, m.sizeMiB),
		m.jsonParseMs === undefined ? '–' : perMiB(m.jsonParseMs, m.sizeMiB),
		m.jsonParseMs === undefined ? '–' : ratio(m.readerMs / m.jsonParseMs),
		m.jsonParseWallMs === undefined ? '–' : ratio(m.readerWallMs / m.jsonParseWallMs),
		m.writeMs === undefined || m.jsonStringifyMs === undefined
			? '–'
			: ratio(m.writeMs / m.jsonStringifyMs),
		m.outcome,
	]);
	const compared = results.filter((m) => m.jsonParseMs !== undefined);
	const worst = compared.reduce<JsonMeasure | undefined>(
		(w, m) => (!w || m.readerMs / m.jsonParseMs! > w.readerMs / w.jsonParseMs! ? m : w),
		undefined,
	);
	const largest = SIZES[SIZES.length - 1];
	const growth = results
		.filter((m) => m.sizeMiB === largest && largest > SIZES[0])
		.map((m) => {
			const first = results.find((f) => f.pattern === m.pattern && f.sizeMiB === SIZES[0])!;
			const of = (ms: number | undefined, firstMs: number | undefined) =>
				ms === undefined || firstMs === undefined ? undefined : ms / largest / (firstMs / SIZES[0]);
			return {
				pattern: m.pattern,
				reader: of(m.readerMs, first.readerMs)!,
				jsonParse: of(m.jsonParseMs, first.jsonParseMs),
			};
		});
	// Side by side: the reader's growth beyond what the larger heap adds, as JSON.parse on the
	// same text shows it (never less than flat: a JSON.parse that gets faster per MiB excuses
	// nothing); alone where JSON.parse cannot read the text.
	const relative = (g: (typeof growth)[number]) => g.reader / Math.max(1, g.jsonParse ?? 1);
	const steepest = growth.reduce<(typeof growth)[number] | undefined>(
		(w, g) => (!w || relative(g) > relative(w) ? g : w),
		undefined,
	);
	const worstWrite = results
		.filter((m) => m.writeMs !== undefined)
		.reduce<
			JsonMeasure | undefined
		>((w, m) => (!w || m.writeMs! / m.jsonStringifyMs! > w.writeMs! / w.jsonStringifyMs! ? m : w), undefined);
	log(
		`  worst ratio ${worst ? ratio(worst.readerMs / worst.jsonParseMs!) : '–'}, steepest growth ${steepest ? ratio(steepest.reader) : '–'}`,
	);
	sections.push(
		[
			`### 10. JSON reader: worst-case inputs at ${SIZES.join(', ')} MiB, the node's reader beside JSON.parse on the same text`,
			'',
			`The node's reader is \`parseLossless\` (helpers/json.ts: one pass that counts nesting and stops at the first long integer; JSON.parse reads a text without one, the node's own reader a text with one, building each long integer as a LongInteger), the one every JSON answer of the rule endpoints and every JSON parameter goes through. Each input is one flat string decoded from bytes, as the node gets an answer, read twice by each before the timed rounds. Medians of ${ROUNDS.join(' / ')} rounds at ${SIZES.join(' / ')} MiB, the reader and JSON.parse interleaved, a full GC before each, timed in CPU time of the process (user + system, every thread: GC and compiler included; on 2 cores shared with other work the wall clock mostly measures the wait for a core, shown beside the ratio); "–" where JSON.parse cannot read the text (it is not JSON, or the reader refuses it). Write back = \`stringifyLossless\` ÷ \`JSON.stringify\` of what each read. Load average (1 min) during the row: ${startLoad} at its start, ${endLoad} at its end, on 2 cores shared with other work: only the ratios of this run count.`,
			'',
			table(
				[
					'input',
					'size',
					'reader CPU per MiB',
					'JSON.parse CPU per MiB',
					'reader ÷ JSON.parse',
					'same, wall clock',
					'write back ÷ JSON.stringify',
					'reader',
				],
				rows,
			),
			'',
			...(growth.length
				? [
						`Time per MiB at ${largest} MiB ÷ at ${SIZES[0]} MiB (flat = linear; a quadratic reader: ${largest / SIZES[0]}×): ${growth
							.map(
								(g) =>
									`${g.pattern} ${ratio(g.reader)}${g.jsonParse === undefined ? '' : ` (JSON.parse ${ratio(g.jsonParse)})`}`,
							)
							.join('; ')}.`,
					]
				: []),
		].join('\n'),
	);
	if (worst) {
		const value = worst.readerMs / worst.jsonParseMs!;
		goal(
			BENCH,
			'worst reader ÷ JSON.parse on the same text (JSON inputs, every size)',
			`${ratio(value)} (${worst.pattern}, ${worst.sizeMiB} MiB)`,
			'≤ 3×',
			value <= 3,
			() =>
				`The reader's passes are JavaScript loops over the text's characters (about 2 ns a character on this machine), JSON.parse native code that passes over digits and whitespace several times faster: texts made mostly of digits or whitespace come closest to the bound, and a loaded machine moves single medians. Would close it: JSON.parse with source access (Node 21+) in place of the second pass, not on Node 20.`,
		);
	}
	if (steepest) {
		goal(
			BENCH,
			`steepest growth of the reader's time per MiB, ${SIZES[0]} → ${largest} MiB, ÷ JSON.parse's growth on the same text where it grows (alone where it does not, or cannot read the text)`,
			`${ratio(relative(steepest))} (${steepest.pattern}: reader ${ratio(steepest.reader)}${steepest.jsonParse === undefined ? '' : `, JSON.parse ${ratio(steepest.jsonParse)}`})`,
			`linear: ≤ 2× (a quadratic reader: ${largest / SIZES[0]}×)`,
			relative(steepest) <= 2,
			() =>
				"The time per MiB grows with the garbage collector's work on the larger heap, for JSON.parse too; a backtracking or quadratic reader would grow 16× where JSON.parse stays flat.",
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
