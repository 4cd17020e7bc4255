/** Benchmark 8. Cost growth: the same bulk enrolment at N = 100, 1 000 and 10 000, per item. */
import { LATENCY_MS, QUICK, log } from '../config';
import { round, type SandboxProcess } from '../lib';
import { enrolJob, failedOf, measure, type Measured } from '../measure';
import { fmtMs, goal, sections, table } from '../report';

/** Knolyx node (default) enrolment runs by N, shared by the memory and growth rows (one run per N). */
const runsByN = new Map<number, Measured>();

export async function knolyxEnrolAt(sandbox: SandboxProcess, n: number): Promise<Measured> {
	const known = runsByN.get(n);
	if (known) return known;
	const m = await measure(sandbox, { latencyMs: LATENCY_MS }, enrolJob(sandbox.url, 'knolyx', n));
	log(
		`  Knolyx node, default               N=${n} ${m.result.ms} ms, peak RSS ${m.result.maxRssMb} MB, failed ${failedOf(m, n)}`,
	);
	runsByN.set(n, m);
	return m;
}

/**
 * Heap the run keeps, in MB: after a full GC with the run's data (input, every node's output)
 * still referenced, minus the same once it is let go. Code compiled during the run (more of it
 * the longer the run) stays either way and is not counted.
 */
export const keptMb = (m: Measured) =>
	(m.result.heapAfterMb ?? NaN) - (m.result.heapReleasedMb ?? m.result.heapBeforeMb ?? NaN);

export async function benchGrowth(sandbox: SandboxProcess): Promise<void> {
	const sizes = QUICK ? [100, 300, 1000] : [100, 1000, 10_000];
	log(`8. cost growth: N = ${sizes.join(', ')}`);
	const runs: Measured[] = [];
	for (const n of sizes) runs.push(await knolyxEnrolAt(sandbox, n));
	const msPerItem = runs.map((m, i) => m.result.ms / sizes[i]);
	const kbPerItem = runs.map((m, i) => (keptMb(m) * 1024) / sizes[i]);
	const cpuPerItem = runs.map((m, i) => (m.result.cpuMs ?? NaN) / sizes[i]);
	sections.push(
		[
			`### 8. Cost growth: bulk enrolment (Knolyx node, default) at N = ${sizes.join(', ')}, latency ${LATENCY_MS} ms`,
			'',
			"One worker process per run (test/harness, as item 1). Heap per item = heap the run keeps (freed by a full GC once the run's input and output are let go; compiled code not counted) ÷ N.",
			'',
			table(
				[
					'N',
					'time',
					'time per item',
					'client CPU per item',
					'heap kept',
					'heap per item',
					'peak RSS',
					'failed items',
					'other processes (cores busy)',
				],
				runs.map((m, i) => [
					sizes[i],
					fmtMs(m.result.ms),
					`${round(msPerItem[i], 2)} ms`,
					`${round(cpuPerItem[i], 2)} ms`,
					`${round(keptMb(m), 1)} MB`,
					`${round(kbPerItem[i], 2)} KB`,
					`${m.result.maxRssMb} MB`,
					failedOf(m, sizes[i]),
					round(m.otherCores, 1),
				]),
			),
			'',
			`At N = ${sizes[0]} the fixed cost of a run (workflow start, the first requests' connection set-up, the limiter's slow start) is spread over few items.`,
		].join('\n'),
	);
	const [, mid, large] = [0, 1, 2];
	const timeGrowth = msPerItem[large] / msPerItem[mid];
	const heapGrowth = kbPerItem[large] / kbPerItem[mid];
	goal(
		'8 growth',
		`time per item N=${sizes[0]} / ${sizes[1]} / ${sizes[2]}`,
		msPerItem.map((v) => `${round(v, 2)} ms`).join(' / '),
		`flat: N=${sizes[2]} ≤ 1.1× N=${sizes[1]}`,
		timeGrowth <= 1.1,
		() =>
			`N=${sizes[2]} takes ${round(timeGrowth, 2)}× the time per item of N=${sizes[1]}; client CPU per item ${cpuPerItem.map((v) => round(v, 2)).join(' / ')} ms.`,
	);
	goal(
		'8 growth',
		`heap per item N=${sizes[0]} / ${sizes[1]} / ${sizes[2]}`,
		kbPerItem.map((v) => `${round(v, 2)} KB`).join(' / '),
		`flat: N=${sizes[2]} ≤ 1.1× N=${sizes[1]}`,
		heapGrowth <= 1.1,
		() => `N=${sizes[2]} keeps ${round(heapGrowth, 2)}× the heap per item of N=${sizes[1]}.`,
	);
}
