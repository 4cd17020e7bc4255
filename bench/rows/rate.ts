/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** Benchmark 2. Under a rate limit. */
import { writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';

import { N, LATENCY_MS, RATE_LIMIT, WRITE, log } from '../config';
import { sections, notes, goal, ratio, table, fmtMs } from '../report';
import { round, type SandboxProcess } from '../lib';
import { type Measured, type Variant, enrolJob, sideBySide, failedOf } from '../measure';
import { rateLimitSvg } from '../svg';
import { type Batching } from '../workflows';

export async function benchRate(
	sandbox: SandboxProcess,
	httpAvailable: boolean,
	batchingInItem7: boolean,
): Promise<void> {
	log(`2. rate limit ${RATE_LIMIT}/s, N = ${N}, latency ${LATENCY_MS} ms`);
	const url = sandbox.url;
	const floorMs = ((N * 2) / RATE_LIMIT) * 1000;
	// Hand-tuned batching: the HTTP Request node fires one batch, sleeps the interval, fires the next,
	// without waiting for answers. 50 per second per node with two nodes in a row keeps the 1 s window at
	// most ~100 requests even when a node's batches straddle the window edge.
	const tuned: Batching = { batchSize: 50, batchInterval: 1000 };
	const variants: Variant[] = [
		{ name: 'Knolyx node, default (adaptive)', job: enrolJob(url, 'knolyx', N), rounds: 1 },
	];
	if (httpAvailable)
		variants.push({
			name: 'HTTP Request nodes, defaults',
			job: enrolJob(url, 'http', N),
			rounds: 1,
		});
	// The batched run takes ~2× the floor (40 s); item 7 measures it in the real n8n, so it runs here only
	// when item 7 cannot (the whole run must stay under 10 minutes).
	if (httpAvailable && !batchingInItem7) {
		variants.push({
			name: `HTTP Request nodes, batching ${tuned.batchSize} per ${tuned.batchInterval} ms`,
			job: enrolJob(url, 'http', N, { batching: tuned }),
			rounds: 1,
		});
	}
	const runs = await sideBySide(
		sandbox,
		{ latencyMs: LATENCY_MS, rateLimitPerSecond: RATE_LIMIT },
		variants,
		{ trace: true },
	);
	const picture = drawRun(runs, variants);
	const rows = variants.map((v) => {
		const m = (runs.get(v.name) ?? [])[0];
		return [
			v.name,
			fmtMs(m.result.ms),
			`${round(m.result.ms / floorMs)}×`,
			failedOf(m, N),
			m.duplicateWrites,
			m.throttled,
			m.requests,
			round(m.otherCores, 1),
		];
	});
	sections.push(
		[
			`### 2. Under a rate limit: ${RATE_LIMIT} requests/s (429 + Retry-After), N = ${N}, latency ${LATENCY_MS} ms`,
			'',
			`Floor N × 2 / limit = ${fmtMs(floorMs)} (the best any client can do).`,
			'',
			table(
				[
					'variant',
					'time',
					'÷ floor',
					'failed items',
					'duplicate writes',
					'429 answers',
					'requests',
					'other processes (cores busy)',
				],
				rows,
			),
			...(picture
				? [
						'',
						`![The rate-limit run: requests per second and in flight over time, 429 answers in red](${picture})`,
						'',
						`Drawn from the sandbox's log of every request of this run (${picture}): the Knolyx node's limiter starts slowly, overshoots the unknown limit once, pauses until the filled window has passed and then holds just under the limit (a later 429 holds only its own request); the HTTP Request nodes send everything at once and every request over the limit is a failed item.`,
					]
				: []),
			...(batchingInItem7
				? [
						'',
						`The HTTP Request nodes with hand-tuned batching (${tuned.batchSize} per ${tuned.batchInterval} ms) under this limit: see item 7, measured in the real n8n.`,
					]
				: []),
		].join('\n'),
	);
	const k = (runs.get('Knolyx node, default (adaptive)') ?? [])[0];
	const trace = k.result.limiter;
	// Throttle answers less than 200 ms apart belong to one episode (one pause for everyone).
	const episodes: Array<{
		start: number;
		end: number;
		count: number;
		c: number;
		cap: number | null;
	}> = [];
	if (trace) {
		for (const [t, c, cap] of trace.throttleLog) {
			const last = episodes.at(-1);
			if (last && t - last.end < 200)
				Object.assign(last, { end: t, count: last.count + 1, c, cap });
			else episodes.push({ start: t, end: t, count: 1, c, cap });
		}
		notes.push(
			`Rate limit, Knolyx node: ${trace.throttles} 429 answers in ${episodes.length} throttle episode(s) (the first pauses every request; a later one holds only its refused requests for Retry-After = 1 s, unless many come within a second): ${episodes
				.map(
					(e) =>
						`at ${round(e.start / 1000, 1)} s, ${e.count}× → concurrency ${e.c}, rate cap ${e.cap ?? '∞'}/s`,
				)
				.join(
					'; ',
				)}. Pauses of every request: ${trace.pauses}. ${trace.requests} requests sent (incl. retries); final concurrency ${trace.finalConcurrency}, rate cap ${trace.rateCap ?? '∞'}/s.`,
		);
	}
	// Sending gaps of 300 ms or more after the first second (the first probe's pause is expected):
	// a pause of every request, or a client slowed down by its machine.
	const sent = (k.trace ?? []).map(([start]) => start).sort((a, b) => a - b);
	const gaps = sent
		.slice(1)
		.filter((t, i) => t - sent[i] >= 300 && sent[i] - sent[0] > 1500).length;
	const startup = trace
		? `${fmtMs(trace.firstRequestMs)} before the first request (the workflow starting: not the limiter), `
		: '';
	const rateWhy = () =>
		`Over the floor by ${fmtMs(k.result.ms - floorMs)}. Where it goes: ${startup}the first probe (slow start overshoots the unknown limit within its first second; ${episodes[0]?.count ?? 0} requests answered 429, every request paused until the filled window passed), sending 3 % under the learned rate (2 000 requests at 97/s take 20.6 s instead of 20 s), and a client slowed down by the machine (other processes: ${round(k.otherCores, 1)} cores during this run; ${gaps} sending gap(s) of 300 ms or more after the first probe). Later 429s (${Math.max(0, episodes.length - 1)} episode(s)) each hold only their own requests for Retry-After. Before issue 16's limiter change: 25.5 s (1.27×, load 6-7) and 22.4 s (1.12×) on a quiet machine, each later episode pausing every request for 1 s.`;
	goal(
		'2 rate limit',
		'Knolyx default time ÷ floor',
		ratio(k.result.ms / floorMs),
		'≤ 1.1×',
		k.result.ms / floorMs <= 1.1,
		rateWhy,
	);
	goal('2 rate limit', 'failed items', String(failedOf(k, N)), '0', failedOf(k, N) === 0);
	goal(
		'2 rate limit',
		'duplicated writes',
		String(k.duplicateWrites),
		'0',
		k.duplicateWrites === 0,
	);
}

// ---------------------------------------------------------------------------

/** Writes the picture of the run (next to RESULTS.md in a full run, else into bench/out/); returns its path relative to bench/. */
function drawRun(runs: Map<string, Measured[]>, variants: Variant[]): string | undefined {
	const traced = variants.flatMap((v) => {
		const trace = runs.get(v.name)?.[0]?.trace;
		return trace
			? [
					{
						name: v.name,
						trace,
						throttledMeans: v.name.startsWith('Knolyx')
							? 'each retried after Retry-After'
							: 'each a failed item: no retry by default',
					},
				]
			: [];
	});
	if (traced.length === 0) return undefined;
	const file = WRITE ? 'rate-limit.svg' : join('out', 'rate-limit.svg');
	mkdirSync(join(__dirname, '..', 'out'), { recursive: true });
	writeFileSync(
		join(__dirname, '..', file),
		rateLimitSvg(
			traced,
			RATE_LIMIT,
			`Bulk enrolment, N = ${N}, under ${RATE_LIMIT} requests/s (429 + Retry-After), latency ${LATENCY_MS} ms`,
		),
	);
	log(`  picture: bench/${file}`);
	return file;
}
