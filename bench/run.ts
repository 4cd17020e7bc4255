/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, no-console -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * `npm run bench`: every benchmark of issue 6 against the sandbox on 127.0.0.1,
 * ratios measured side by side in this one run, printed and written to
 * bench/RESULTS.md. Absolute times on a shared machine are noise; the ratios
 * compare runs made minutes apart on the same machine, interleaved where a
 * benchmark is repeated.
 *
 *   npm run bench                      the full run (N = 1 000, about 8 minutes on 2 cores)
 *   npm run bench -- --quick           small N, a smoke test of the whole thing (~2 minutes)
 *   npm run bench -- --only=bulk,rate  some benchmarks (bulk, rate, rules, getall, trigger, memory, n8n)
 *   npm run bench -- --no-write        do not write bench/RESULTS.md
 */
import { cpus, loadavg, totalmem } from 'node:os';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { median, round, runJob, startSandboxProcess, type SandboxProcess } from './lib';
import { realN8nUnavailable, startRealN8n, type RealVariant } from './n8n-real';
import { benchPoll } from './poll';
import type { TriggerResult } from './trigger-worker';
import type { Job, JobResult } from './worker';
import type { Batching } from './workflows';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const WRITE = !argv.includes('--no-write') && !QUICK;
const ONLY = argv.find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');
const wanted = (name: string) => !ONLY || ONLY.includes(name);

const LATENCY_MS = 20;
const N = QUICK ? 100 : 1000;
const RATE_LIMIT = 100;
const ROUNDS = QUICK ? 1 : 3;
const JOB_TIMEOUT_MS = 240_000;

const t0 = Date.now();
const log = (...args: unknown[]) => console.error(`[bench ${((Date.now() - t0) / 1000).toFixed(0).padStart(3)}s]`, ...args);
let startLoad = 0;
const sections: string[] = [];
const summary: Array<{ bench: string; measure: string; value: string; goal: string; met: string }> = [];
const notes: string[] = [];

const misses: string[] = [];

/** A row of the summary; `why` (by how much, why, what would close it) is printed when the goal is missed. */
function goal(bench: string, measure: string, value: string, goalText: string, met: boolean | undefined, why?: () => string): void {
	summary.push({ bench, measure, value, goal: goalText, met: met === undefined ? '–' : met ? 'yes' : '**no**' });
	if (met === false) misses.push(`- **${bench}, ${measure}: ${value}** (goal ${goalText}). ${why ? why() : ''}`);
}

const ratio = (x: number) => `${x.toFixed(2)}×`;

function table(headers: string[], rows: Array<Array<string | number>>): string {
	const line = (cells: Array<string | number>) => `| ${cells.map(String).join(' | ')} |`;
	return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}

const RULE_READ = 'GET /public/api/v1/business-rule/course/{id}';
const RULE_SAVE = 'POST /public/api/v1/business-rule/course/{id}';

interface Measured {
	result: JobResult;
	/** Average number of cores busy with other processes (not this benchmark) during the run. */
	otherCores: number;
	byRoute: Record<string, number>;
	requests: number;
	duplicateWrites: number;
	serverMaxInFlight: number;
	enrolled?: number;
	throttled: number;
}

let prefixCounter = 0;

/** Reset the sandbox, apply faults, run the job in its own process, read the sandbox's counters. */
async function measure(
	sandbox: SandboxProcess,
	faults: Record<string, unknown>,
	job: (ids: { workgroupId: number; prefix: string }) => Job,
	prepare?: () => Promise<void>,
): Promise<Measured> {
	const demo = await sandbox.call<{ workgroups: Record<string, number> }>('reset');
	if (prepare) await prepare();
	await sandbox.call('faults', { faults });
	await sandbox.call('resetStats');
	const workgroupId = demo.workgroups['Intro to n8n'];
	const prefix = `b${++prefixCounter}`;
	const spec = job({ workgroupId, prefix });
	const sandboxCpuBefore = await sandbox.call<number>('cpu');
	const result = await runJob(spec, JOB_TIMEOUT_MS);
	const sandboxCpuMs = (await sandbox.call<number>('cpu')) - sandboxCpuBefore;
	if (result.error) log(`  run failed: ${result.error.split('\n')[0]}`);
	const stats = await sandbox.stats();
	const enrolled =
		spec.kind === 'enrol' && spec.client !== 'passthrough'
			? await sandbox.call<number>('members', { workgroupId, prefix, n: spec.n })
			: undefined;
	// CPU the rest of the machine (other engineers' processes) used while this ran, in cores.
	const other = (result.machineBusyMs ?? NaN) - (result.cpuMs ?? 0) - sandboxCpuMs;
	return {
		result,
		otherCores: result.ms > 0 ? Math.max(0, other / result.ms) : NaN,
		byRoute: stats.byRoute,
		requests: stats.requests,
		duplicateWrites: stats.duplicateWrites,
		serverMaxInFlight: stats.maxInFlight,
		enrolled,
		throttled: stats.faultsInjected.rateLimit ?? 0,
	};
}

interface Variant {
	name: string;
	job: (ids: { workgroupId: number; prefix: string }) => Job;
	/** How many interleaved rounds (slow variants run once). */
	rounds: number;
}

function enrolJob(
	url: string,
	client: 'knolyx' | 'http' | 'axios' | 'passthrough',
	n: number,
	extra: { concurrency?: number; batching?: Batching } = {},
) {
	return ({ workgroupId, prefix }: { workgroupId: number; prefix: string }): Job => ({
		kind: 'enrol',
		client,
		n,
		url,
		workgroupId,
		prefix,
		...extra,
	});
}

/** Runs the variants in interleaved rounds (A B C, B C A, ...) and keeps every measurement. */
async function sideBySide(sandbox: SandboxProcess, faults: Record<string, unknown>, variants: Variant[]) {
	const runs = new Map<string, Measured[]>(variants.map((v) => [v.name, []]));
	const maxRounds = Math.max(...variants.map((v) => v.rounds));
	for (let turn = 0; turn < maxRounds; turn++) {
		const order = variants.map((_, i) => variants[(i + turn) % variants.length]).filter((v) => v.rounds > turn);
		for (const variant of order) {
			const m = await measure(sandbox, faults, variant.job);
			log(
				`  ${variant.name.padEnd(34)} ${String(m.result.ms).padStart(7)} ms  cpu ${m.result.cpuMs} ms  other load ${round(m.otherCores, 1)} cores  failed ${failedOf(m)}  requests ${m.requests}  dup ${m.duplicateWrites}  rss ${m.result.maxRssMb} MB`,
			);
			runs.get(variant.name)?.push(m);
		}
	}
	return runs;
}

function failedOf(m: Measured, n?: number): number {
	if (m.enrolled !== undefined && n !== undefined) return n - m.enrolled;
	return m.result.errorItems;
}

const fmtMs = (ms: number) => (ms >= 10_000 ? `${round(ms / 1000, 1)} s` : `${Math.round(ms)} ms`);

// ---------------------------------------------------------------------------
// 1. Bulk enrolment

async function benchBulk(sandbox: SandboxProcess, httpAvailable: boolean): Promise<Map<string, Measured[]> | undefined> {
	log(`1. bulk enrolment, N = ${N}, latency ${LATENCY_MS} ms`);
	const url = sandbox.url;
	const variants: Variant[] = [
		{ name: 'Knolyx node, default (adaptive)', job: enrolJob(url, 'knolyx', N), rounds: ROUNDS },
		{ name: 'Knolyx node, concurrency 20', job: enrolJob(url, 'knolyx', N, { concurrency: 20 }), rounds: ROUNDS },
		{ name: 'Knolyx node, concurrency 5', job: enrolJob(url, 'knolyx', N, { concurrency: 5 }), rounds: 1 },
		{ name: 'Knolyx node, concurrency 1', job: enrolJob(url, 'knolyx', N, { concurrency: 1 }), rounds: 1 },
		{ name: 'sequential loop (axios)', job: enrolJob(url, 'axios', N), rounds: 1 },
	];
	if (httpAvailable) {
		variants.splice(1, 0, { name: 'HTTP Request nodes, defaults', job: enrolJob(url, 'http', N), rounds: ROUNDS });
	}
	const runs = await sideBySide(sandbox, { latencyMs: LATENCY_MS }, variants);
	const med = (name: string) => median((runs.get(name) ?? []).map((m) => m.result.ms));
	const adaptive = med('Knolyx node, default (adaptive)');
	const httpMs = httpAvailable ? med('HTTP Request nodes, defaults') : NaN;
	const sequential = med('sequential loop (axios)');
	const floorSeq = N * 2 * LATENCY_MS;
	const rows = variants.map((v) => {
		const ms = med(v.name);
		const last = (runs.get(v.name) ?? []).at(-1) as Measured;
		const failed = Math.max(...(runs.get(v.name) ?? []).map((m) => failedOf(m, N)));
		const dups = Math.max(...(runs.get(v.name) ?? []).map((m) => m.duplicateWrites));
		const cpu = median((runs.get(v.name) ?? []).map((m) => m.result.cpuMs ?? NaN));
		const other = median((runs.get(v.name) ?? []).map((m) => m.otherCores));
		return [
			v.name,
			`${fmtMs(ms)} (${(runs.get(v.name) ?? []).length}×)`,
			fmtMs(cpu),
			round(other, 1),
			httpAvailable ? `${round(ms / httpMs)}×` : 'n/a',
			`${round(sequential / ms, 1)}×`,
			`${round(ms / adaptive)}×`,
			failed,
			dups,
			last.serverMaxInFlight,
			round(last.result.maxRssMb, 0),
		];
	});
	sections.push(
		[
			`### 1. Bulk enrolment (provision + add member), N = ${N}, sandbox latency ${LATENCY_MS} ms`,
			'',
			`Median of the runs shown; variants interleaved round by round. Sequential floor N × 2 × ${LATENCY_MS} ms = ${fmtMs(floorSeq)}; the axios loop took ${round(sequential / floorSeq)}× that floor.`,
			'',
			table(
				['variant', 'time', 'client CPU', 'other processes (cores busy)', '÷ HTTP Request nodes', 'speed-up vs sequential loop', '÷ Knolyx default', 'failed items', 'duplicate writes', 'max in flight (server)', 'peak RSS MB'],
				rows,
			),
		].join('\n'),
	);
	const firstRequest = median((runs.get('Knolyx node, default (adaptive)') ?? []).map((m) => m.result.limiter?.firstRequestMs ?? NaN));
	notes.push(
		`Bulk, Knolyx node at default: the first request left ${Math.round(firstRequest)} ms (median) after the workflow started (Manual Trigger, Set Items and the node checking all ${N} items before sending anything); the client is CPU-bound at this point (client CPU ≈ wall time), so what decides the time is CPU per request, not latency.`,
	);
	const cpuOf = (name: string) => median((runs.get(name) ?? []).map((m) => m.result.cpuMs ?? NaN));
	const otherOf = (name: string) => median((runs.get(name) ?? []).map((m) => m.otherCores));
	const cpuBound = () =>
		`At 100 requests in flight the client is CPU-bound (Knolyx client CPU ${fmtMs(cpuOf('Knolyx node, default (adaptive)'))} for ${fmtMs(adaptive)} of wall time${httpAvailable ? `, HTTP Request nodes ${fmtMs(cpuOf('HTTP Request nodes, defaults'))}` : ''}): n8n spends about 2 ms of CPU per request (expression evaluation of the item's parameters and of the credential's generic auth block, a new HTTP agent and connection per request), so the wall time follows the CPU the process gets; other processes kept ${round(otherOf('Knolyx node, default (adaptive)'), 1)} cores busy during these runs. What would close it: less CPU per request in the node: a function \`authenticate\` in the credential instead of the generic expression block measured −17 % client CPU (median 4.0 s vs 4.85 s at N = 1 000, separate runs), and reading the credential once per node run (see item 7).`;
	if (httpAvailable) {
		goal('1 bulk', 'Knolyx default ÷ HTTP Request nodes', ratio(adaptive / httpMs), '≤ 1.25×', adaptive / httpMs <= 1.25, cpuBound);
	} else {
		goal('1 bulk', 'Knolyx default ÷ HTTP Request nodes', 'not measured', '≤ 1.25×', undefined);
	}
	const latencyBound = () =>
		`The sequential runs are latency-bound (${fmtMs(sequential)}, hardly affected by load); the concurrent one is CPU-bound. ${cpuBound()}`;
	goal('1 bulk', 'speed-up of Knolyx default vs sequential loop', `${round(sequential / adaptive, 1)}×`, '≥ 8×', sequential / adaptive >= 8, latencyBound);
	const c1 = med('Knolyx node, concurrency 1');
	goal('1 bulk', 'speed-up vs Knolyx at concurrency 1', `${round(c1 / adaptive, 1)}×`, '≥ 8×', c1 / adaptive >= 8, latencyBound);
	return runs;
}

// ---------------------------------------------------------------------------
// 2. Under a rate limit

async function benchRate(sandbox: SandboxProcess, httpAvailable: boolean, batchingInItem7: boolean): Promise<void> {
	log(`2. rate limit ${RATE_LIMIT}/s, N = ${N}, latency ${LATENCY_MS} ms`);
	const url = sandbox.url;
	const floorMs = ((N * 2) / RATE_LIMIT) * 1000;
	// Hand-tuned batching: the HTTP Request node fires one batch, sleeps the interval, fires the next,
	// without waiting for answers. 50 per second per node with two nodes in a row keeps the 1 s window at
	// most ~100 requests even when a node's batches straddle the window edge.
	const tuned: Batching = { batchSize: 50, batchInterval: 1000 };
	const variants: Variant[] = [{ name: 'Knolyx node, default (adaptive)', job: enrolJob(url, 'knolyx', N), rounds: 1 }];
	if (httpAvailable) variants.push({ name: 'HTTP Request nodes, defaults', job: enrolJob(url, 'http', N), rounds: 1 });
	// The batched run takes ~2× the floor (40 s); item 7 measures it in the real n8n, so it runs here only
	// when item 7 cannot (the whole run must stay under 10 minutes).
	if (httpAvailable && !batchingInItem7) {
		variants.push({
			name: `HTTP Request nodes, batching ${tuned.batchSize} per ${tuned.batchInterval} ms`,
			job: enrolJob(url, 'http', N, { batching: tuned }),
			rounds: 1,
		});
	}
	const runs = await sideBySide(sandbox, { latencyMs: LATENCY_MS, rateLimitPerSecond: RATE_LIMIT }, variants);
	const rows = variants.map((v) => {
		const m = (runs.get(v.name) ?? [])[0];
		return [v.name, fmtMs(m.result.ms), `${round(m.result.ms / floorMs)}×`, failedOf(m, N), m.duplicateWrites, m.throttled, m.requests, round(m.otherCores, 1)];
	});
	sections.push(
		[
			`### 2. Under a rate limit: ${RATE_LIMIT} requests/s (429 + Retry-After), N = ${N}, latency ${LATENCY_MS} ms`,
			'',
			`Floor N × 2 / limit = ${fmtMs(floorMs)} (the best any client can do).`,
			'',
			table(['variant', 'time', '÷ floor', 'failed items', 'duplicate writes', '429 answers', 'requests', 'other processes (cores busy)'], rows),
			...(batchingInItem7 ? ['', `The HTTP Request nodes with hand-tuned batching (${tuned.batchSize} per ${tuned.batchInterval} ms) under this limit: see item 7, measured in the real n8n.`] : []),
		].join('\n'),
	);
	const k = (runs.get('Knolyx node, default (adaptive)') ?? [])[0];
	const trace = k.result.limiter;
	// Throttle answers less than 200 ms apart belong to one episode (one pause for everyone).
	const episodes: Array<{ start: number; end: number; count: number; c: number; cap: number | null }> = [];
	if (trace) {
		for (const [t, c, cap] of trace.throttleLog) {
			const last = episodes.at(-1);
			if (last && t - last.end < 200) Object.assign(last, { end: t, count: last.count + 1, c, cap });
			else episodes.push({ start: t, end: t, count: 1, c, cap });
		}
		notes.push(
			`Rate limit, Knolyx node: ${trace.throttles} 429 answers in ${episodes.length} throttle episode(s) (each pauses every request for Retry-After = 1 s): ${episodes
				.map((e) => `at ${round(e.start / 1000, 1)} s, ${e.count}× → concurrency ${e.c}, rate cap ${e.cap ?? '∞'}/s`)
				.join('; ')}. ${trace.requests} requests sent (incl. retries); final concurrency ${trace.finalConcurrency}, rate cap ${trace.rateCap ?? '∞'}/s.`,
		);
	}
	const rateWhy = () =>
		`Over the floor by ${fmtMs(k.result.ms - floorMs)}. Where it goes: the first probe (slow start overshoots the unknown limit within its first second; ${episodes[0]?.count ?? 0} requests answered 429 and every request paused for Retry-After, 1 s), sending 5 % under the learned rate (2 000 requests at 95/s take 21.1 s instead of 20 s), and ${Math.max(0, episodes.length - 1)} later throttle episode(s) of about 1 s each. Later episodes at an unchanged cap (see the notes) come from answers bunching at the server by more than the 5 % margin, which grows with machine load (other processes: ${round(k.otherCores, 1)} cores during this run). Before the limiter change of this issue the same run took 39.7 s (1.98×, 19 throttle episodes; separate run). A 3 % margin with 0.1 %/s cap growth was tried and was no better (24.9 s and 22.9 s): the remaining episodes are jitter, not probing. In a run with the machine to itself: 22.4 s (1.12×).`;
	goal('2 rate limit', 'Knolyx default time ÷ floor', ratio(k.result.ms / floorMs), '≤ 1.2×', k.result.ms / floorMs <= 1.2, rateWhy);
	goal('2 rate limit', 'failed items', String(failedOf(k, N)), '0', failedOf(k, N) === 0);
	goal('2 rate limit', 'duplicated writes', String(k.duplicateWrites), '0', k.duplicateWrites === 0);
}

// ---------------------------------------------------------------------------
// 3. Rule edits

async function benchRules(sandbox: SandboxProcess): Promise<void> {
	const items = QUICK ? 50 : 200;
	log(`3. rule edits, ${items} items, latency ${LATENCY_MS} ms`);
	let workgroupIds: number[] = [];
	let courseId = 0;
	const m = await measure(
		sandbox,
		{ latencyMs: LATENCY_MS },
		() => ({ kind: 'rules', url: sandbox.url, courseId, workgroupIds }),
		async () => {
			const seeded = await sandbox.call<{ courses: number[]; workgroups: number[] }>('seed', {
				spec: { courses: [{ title: 'Bench course' }], workgroups: Array.from({ length: items }, (_, i) => ({ name: `Bench WG ${i}` })) },
			});
			courseId = seeded.courses[0];
			workgroupIds = seeded.workgroups;
		},
	);
	const rules = await sandbox.call<Array<{ associations?: { WORKGROUP?: number[] } }>>('rules', { courseId });
	const present = new Set(rules.flatMap((r) => r.associations?.WORKGROUP ?? []));
	const lost = workgroupIds.filter((id) => !present.has(id)).length;
	log(`  ${m.result.ms} ms, ${m.requests} requests, lost edits ${lost}, failed ${m.result.errorItems}`);
	sections.push(
		[
			`### 3. Rule edits: ${items} items adding different workgroups to the rule of one course, latency ${LATENCY_MS} ms`,
			'',
			table(
				['HTTP requests', 'reads / saves', 'wall time', '÷ one request latency', 'lost edits', 'failed items'],
				[[m.requests, `${m.byRoute[RULE_READ] ?? 0} / ${m.byRoute[RULE_SAVE] ?? 0}`, fmtMs(m.result.ms), `${round(m.result.ms / LATENCY_MS, 1)}×`, lost, m.result.errorItems]],
			),
		].join('\n'),
	);
	goal(
		'3 rule edits',
		`HTTP requests for ${items} edits`,
		`${m.requests} (${m.byRoute[RULE_READ] ?? 0} reads, ${m.byRoute[RULE_SAVE] ?? 0} save)`,
		'2: one read, one save',
		m.requests <= 2,
		() =>
			`One request over (+${LATENCY_MS} ms of latency for the whole batch): the rule editor (nodes/Knolyx/actions/rule/editor.ts) reads the list again after the save to verify that every edit holds. What would close it: when the save answers with the saved list (the sandbox does; the API contract says its response is "not shown"), verify against that answer and read again only when it is not a list.`,
	);
	goal('3 rule edits', 'at worst 2 per item, no lost edit', `${round(m.requests / items, 3)} per item, ${lost} lost`, '≤ 2 per item, 0 lost', m.requests <= 2 * items && lost === 0);
}

// ---------------------------------------------------------------------------
// 4. Return All

async function benchGetAll(sandbox: SandboxProcess): Promise<void> {
	const courses = QUICK ? 1000 : 10_000;
	log(`4. Return All over ${courses} courses, latency ${LATENCY_MS} ms`);
	let total = 0;
	const m = await measure(
		sandbox,
		{ latencyMs: LATENCY_MS },
		() => ({ kind: 'getAll', url: sandbox.url }),
		async () => {
			await sandbox.call('seed', { spec: { generate: { courses } } });
			total = courses + 3; // + the demo seed's three courses
		},
	);
	const maxPage = 100; // the sandbox's (and the platform's known) largest page
	const pages = Math.ceil(total / maxPage) + (total % maxPage === 0 ? 1 : 0);
	log(`  ${m.result.ms} ms, ${m.requests} requests for ${m.result.outputItems} courses`);
	sections.push(
		[
			`### 4. Return All: ${total} courses (page size ${maxPage}, the largest the API serves), latency ${LATENCY_MS} ms`,
			'',
			table(
				['courses returned', 'requests', 'pages needed', 'wall time', '÷ (pages × latency)'],
				[[m.result.outputItems, m.requests, pages, fmtMs(m.result.ms), `${round(m.result.ms / (pages * LATENCY_MS))}×`]],
			),
		].join('\n'),
	);
	goal('4 Return All', 'requests ÷ pages needed', `${m.requests} / ${pages}`, '1 request per page', m.requests === pages && m.result.outputItems === total);
	goal('4 Return All', 'wall time ÷ (pages × latency)', `${round(m.result.ms / (pages * LATENCY_MS))}×`, 'close to 1× (pages are sequential)', undefined);
}

// ---------------------------------------------------------------------------
// 5. Trigger

async function benchTrigger(sandbox: SandboxProcess): Promise<void> {
	const deliveries = QUICK ? 1000 : 5000;
	log(`5. trigger: ${deliveries} deliveries, 10 % resent ids`);
	await sandbox.call('reset');
	const r = await runJob<TriggerResult>({ url: sandbox.url, deliveries, resentShare: 0.1, fill: QUICK ? 200 : 1000 }, JOB_TIMEOUT_MS, 'trigger-worker.ts');
	if (r.error) {
		log(`  trigger benchmark failed: ${r.error.split('\n')[0]}`);
		notes.push(`The trigger benchmark failed: ${r.error.split('\n')[0]}`);
		goal('5 trigger', 'handler overhead ÷ bare JSON handler', 'not measured', '–', undefined);
		return;
	}
	const k = r.knolyx;
	const b = r.bare;
	log(`  handler median ${k.handlerUsMedian} µs vs bare ${b.handlerUsMedian} µs; executions ${k.executions} for ${r.uniqueIds} unique ids`);
	const kb = (bytes: number) => `${round(bytes / 1024, 0)} KB`;
	sections.push(
		[
			`### 5. Trigger: ${r.deliveries} deliveries (${r.deliveries - r.uniqueIds} resent ids) into the webhook handler`,
			'',
			'Both nodes hosted like n8n hosts them (n8n-core WebhookContext over real express on 127.0.0.1), one delivery at a time, alternating in chunks of 250. "Handler" = time inside webhook(); "round trip" = the HTTP PUT as the platform sees it.',
			'',
			table(
				['handler', 'handler median', 'handler total', 'round trip median', 'executions started', 'answers'],
				[
					['Knolyx Trigger (token check, dedupe, item building)', `${k.handlerUsMedian} µs`, `${round(k.handlerUsTotal / 1000, 0)} ms`, `${k.roundTripUsMedian} µs`, k.executions, Object.entries(k.statuses).map(([s, c]) => `${c}× ${s}`).join(', ')],
					['bare handler (JSON.parse only)', `${b.handlerUsMedian} µs`, `${round(b.handlerUsTotal / 1000, 0)} ms`, `${b.roundTripUsMedian} µs`, b.executions, ''],
					['ratio', `${round(k.handlerUsMedian / b.handlerUsMedian, 1)}×`, `${round(k.handlerUsTotal / b.handlerUsTotal, 1)}×`, `${round(k.roundTripUsMedian / b.roundTripUsMedian, 2)}×`, '', ''],
				],
			),
			'',
			`Knolyx handler median per 500 deliveries, in order: ${r.knolyxByChunk.map((v) => `${v}`).join(', ')} µs. Other processes kept ${r.otherCores === undefined ? '?' : round(r.otherCores, 1)} cores busy meanwhile.`,
			'',
			'Where the handler time goes (CPU profile of this benchmark, separate run): 39 % in `mergeRecent` (nodes/Knolyx/trigger/dedupe.ts), which builds a `Set` of the whole stored window (up to 5 000 ids) on every delivery, plus `lacksRecent`, `hasSeen` (`lastIndexOf` over the stored ids) and `readSeenStore` (copies and checks both arrays): work that grows with the window. Before `mergeRecent` came (commit cf3242d) the median here was 132 µs (11× the bare handler). What would make it flat: merge only the recent ids newer than the store\'s newest entry (both are in time order), and look ids up in the process-local `Map` before touching the stored arrays.',
			'',
			`Seen-id store at its bound (${r.store.bound} ids, reached with ${r.uniqueAfterFill} unique ids; ${r.store.entriesAtEnd} kept): static data of the node ${kb(r.store.staticDataJsonBytes)} as JSON (what n8n saves with the workflow after an execution that changed it); retained heap ${kb(r.store.seenStoreHeapBytes)} for the static-data store and ${kb(r.store.recentIdsHeapBytes)} for the process-local window. Executions after the fill: ${r.executionsAfterFill} for ${r.uniqueAfterFill} unique ids.`,
		].join('\n'),
	);
	goal('5 trigger', 'handler time ÷ bare JSON handler (median)', `${round(k.handlerUsMedian / b.handlerUsMedian, 1)}× (+${k.handlerUsMedian - b.handlerUsMedian} µs)`, 'report', undefined);
	goal('5 trigger', 'executions started', `${k.executions} for ${r.uniqueIds} unique ids`, 'exactly the unique ids', k.executions === r.uniqueIds && r.executionsAfterFill === r.uniqueAfterFill);
	goal('5 trigger', 'seen-id store at its bound', `${r.store.entriesAtEnd} ids, ${kb(r.store.staticDataJsonBytes)} JSON, ${kb(r.store.seenStoreHeapBytes + r.store.recentIdsHeapBytes)} heap`, 'bounded', r.store.entriesAtEnd <= r.store.bound);
}

// ---------------------------------------------------------------------------
// 6. Memory

async function benchMemory(sandbox: SandboxProcess, bulk: Map<string, Measured[]> | undefined): Promise<void> {
	const small = QUICK ? 100 : 1000;
	const large = QUICK ? 1000 : 10_000;
	log(`6. memory: peak RSS at N = ${small} and N = ${large}`);
	const url = sandbox.url;
	const runOne = async (name: string, client: 'knolyx' | 'passthrough', n: number): Promise<Measured> => {
		const m = await measure(sandbox, { latencyMs: LATENCY_MS }, enrolJob(url, client, n));
		log(`  ${name.padEnd(34)} N=${n} ${m.result.ms} ms, peak RSS ${m.result.maxRssMb} MB, failed ${failedOf(m, client === 'knolyx' ? n : undefined)}`);
		return m;
	};
	const knolyxSmall = bulk?.get('Knolyx node, default (adaptive)')?.at(-1) ?? (await runOne('Knolyx node, default', 'knolyx', small));
	const knolyxLarge = await runOne('Knolyx node, default', 'knolyx', large);
	const baseSmall = await runOne('items only (pass-through node)', 'passthrough', small);
	const baseLarge = await runOne('items only (pass-through node)', 'passthrough', large);
	const perItem = (a: Measured, b: Measured) => ((b.result.maxRssMb - a.result.maxRssMb) * 1024) / (large - small);
	const kept = (m: Measured) => (m.result.heapAfterMb ?? NaN) - (m.result.heapBeforeMb ?? NaN);
	const keptPerItem = (a: Measured, b: Measured) => ((kept(b) - kept(a)) * 1024) / (large - small);
	const itemsPerItem = (a: Measured, b: Measured) => (((b.result.itemsHeapMb ?? NaN) - (a.result.itemsHeapMb ?? NaN)) * 1024) / (large - small);
	const memoryCells = (a: Measured, b: Measured): string[] => [
		`${a.result.maxRssMb} MB`,
		`${b.result.maxRssMb} MB`,
		`${round(perItem(a, b), 1)} KB`,
		`${round(kept(a), 1)} MB`,
		`${round(kept(b), 1)} MB`,
		`${round(keptPerItem(a, b), 2)} KB`,
		`${round(itemsPerItem(a, b), 2)} KB`,
	];
	sections.push(
		[
			`### 6. Memory: peak RSS of the bulk run (one process per run), N = ${small} and N = ${large}`,
			'',
			table(
				['run', `peak RSS N=${small}`, `peak RSS N=${large}`, 'RSS growth per item', `heap kept by the run N=${small}`, `N=${large}`, 'kept per item', 'the items alone per item (input + output)', `time N=${large}`],
				[
					['Knolyx node, default (enrol)', ...memoryCells(knolyxSmall, knolyxLarge), fmtMs(knolyxLarge.result.ms)],
					['same items through a pass-through node', ...memoryCells(baseSmall, baseLarge), fmtMs(baseLarge.result.ms)],
				],
			),
			'',
			'"Heap kept by the run" = heap in use after a full GC with the finished run (every node\'s output) still referenced, minus the same before the run: what the run holds. "The items alone" = the heap of a structured clone of the run\'s input and output items, measured the same way. Peak RSS also counts garbage not yet collected, which V8 lets grow during a long allocation-heavy run (a run at N = 10 000 with --max-old-space-size=128 finished with 0 failures and a peak RSS of 229 MB instead of 378-443 MB; separate run).',
			'',
			`Failed items at N=${large}: ${failedOf(knolyxLarge, large)}; duplicate writes: ${knolyxLarge.duplicateWrites}.`,
		].join('\n'),
	);
	goal(
		'6 memory',
		'peak RSS N=1 000 → 10 000 (items only)',
		`${knolyxSmall.result.maxRssMb} → ${knolyxLarge.result.maxRssMb} MB (${baseSmall.result.maxRssMb} → ${baseLarge.result.maxRssMb} MB)`,
		'grows only by the items',
		undefined,
	);
	// What the node adds per item (Knolyx run minus the pass-through run of the same items, which holds
	// the same input items, n8n's run data and the benchmark's own copy) against what its output items
	// alone take: close means the node keeps nothing per item beyond its output.
	const addedByNode = keptPerItem(knolyxSmall, knolyxLarge) - keptPerItem(baseSmall, baseLarge);
	const addedItems = itemsPerItem(knolyxSmall, knolyxLarge) - itemsPerItem(baseSmall, baseLarge);
	goal(
		'6 memory',
		'heap the node adds per item / its output items alone',
		`${round(addedByNode, 2)} KB / ${round(addedItems, 2)} KB`,
		'≤ 1.5× (only the items)',
		addedByNode <= 1.5 * addedItems,
		() =>
			`The node's run keeps ${round(addedByNode - addedItems, 2)} KB per item (${round(((addedByNode - addedItems) * (large - small)) / 1024, 1)} MB per ${large - small} items) beyond its output items and beyond what the same workflow holds without it. Not attributed further: a heap snapshot diff of a 2 000-item run (separate run) shows only plain objects and strings growing with N, no node-specific structure; candidates are n8n's per-item execution metadata and strings kept from expression results. What would close it: find the holder with a retainer analysis of such a snapshot. The peak RSS growth is garbage, not this (see the table note).`,
	);
}

// ---------------------------------------------------------------------------
// 7. Real n8n

async function benchRealN8n(sandbox: SandboxProcess): Promise<void> {
	log(`7. real n8n 2.41.1: HTTP Request nodes vs the Knolyx node, N = ${N}`);
	const reason = realN8nUnavailable();
	if (reason) {
		log(`  not measured: ${reason}`);
		sections.push(`### 7. Real n8n: not measured\n\n${reason}.`);
		goal('7 real n8n', 'Knolyx ÷ HTTP Request nodes', 'not measured', 'report', undefined);
		return;
	}
	const real = await startRealN8n(sandbox.url, log);
	const tuned: Batching = { batchSize: 50, batchInterval: 1000 };
	const variants: RealVariant[] = [
		{ name: 'Knolyx node, default', kind: 'knolyx' },
		{ name: 'HTTP Request nodes, defaults', kind: 'http' },
		{ name: `HTTP Request nodes, batching ${tuned.batchSize}/${tuned.batchInterval} ms`, kind: 'http', batching: tuned },
	];
	const rows: Array<Array<string | number>> = [];
	const results = new Map<
		string,
		{ ms: number[]; failed: number[]; cpu: number[]; other: number[]; rateMs?: number; rateFailed?: number; rateDup?: number }
	>();
	try {
		const once = async (variant: RealVariant, n: number, faults: Record<string, unknown>) => {
			const demo = await sandbox.call<{ workgroups: Record<string, number> }>('reset');
			await sandbox.call('faults', { faults });
			await sandbox.call('resetStats');
			const workgroupId = demo.workgroups['Intro to n8n'];
			const prefix = `r${++prefixCounter}`;
			const sandboxCpuBefore = await sandbox.call<number>('cpu');
			const r = await real.run(variant, n, workgroupId, prefix);
			const sandboxCpuMs = (await sandbox.call<number>('cpu')) - sandboxCpuBefore;
			const stats = await sandbox.stats();
			const enrolled = await sandbox.call<number>('members', { workgroupId, prefix, n });
			const otherCores = Math.max(0, ((r.machineBusyMs ?? NaN) - (r.n8nCpuMs ?? 0) - sandboxCpuMs) / r.ms);
			return { ...r, otherCores, failed: n - enrolled, dup: stats.duplicateWrites, requests: stats.requests };
		};
		// Warm-up: every workflow once with a few items (n8n loads node code and compiles on first use).
		for (const v of variants) await once(v, 10, { latencyMs: LATENCY_MS });
		// A second round when the run is on schedule (the whole run must stay under 10 minutes).
		const rounds = QUICK || Date.now() - t0 > 330_000 ? 1 : 2;
		for (let turn = 0; turn < rounds; turn++) {
			for (const v of variants.map((_, i) => variants[(i + turn) % variants.length])) {
				if (v.batching && turn > 0) continue; // the batched run is slow and not noisy: once
				const r = await once(v, N, { latencyMs: LATENCY_MS });
				log(`  ${v.name.padEnd(40)} ${r.ms} ms (HTTP ${r.status}), n8n cpu ${r.n8nCpuMs} ms, other load ${round(r.otherCores, 1)} cores, failed ${r.failed}, requests ${r.requests}`);
				const entry = results.get(v.name) ?? { ms: [], failed: [], cpu: [], other: [] };
				entry.ms.push(r.ms);
				entry.failed.push(r.failed);
				entry.cpu.push(r.n8nCpuMs ?? NaN);
				entry.other.push(r.otherCores);
				results.set(v.name, entry);
			}
		}
		for (const v of variants) {
			const r = await once(v, N, { latencyMs: LATENCY_MS, rateLimitPerSecond: RATE_LIMIT });
			log(`  rate limit: ${v.name.padEnd(28)} ${r.ms} ms, failed ${r.failed}, duplicates ${r.dup}`);
			const entry = results.get(v.name) ?? { ms: [], failed: [], cpu: [], other: [] };
			entry.rateMs = r.ms;
			entry.rateFailed = r.failed;
			entry.rateDup = r.dup;
			results.set(v.name, entry);
		}
	} finally {
		await real.stop();
	}
	const httpMs = median(results.get('HTTP Request nodes, defaults')?.ms ?? [NaN]);
	const knolyxMs = median(results.get('Knolyx node, default')?.ms ?? [NaN]);
	const floorMs = ((N * 2) / RATE_LIMIT) * 1000;
	for (const v of variants) {
		const r = results.get(v.name);
		if (!r) continue;
		const ms = median(r.ms);
		rows.push([
			v.name,
			`${fmtMs(ms)} (${r.ms.length}×)`,
			fmtMs(median(r.cpu)),
			round(median(r.other), 1),
			`${round(ms / httpMs)}×`,
			`${round(ms / knolyxMs)}×`,
			Math.max(...r.failed),
			r.rateMs === undefined ? '' : `${fmtMs(r.rateMs)} (${round(r.rateMs / floorMs)}× floor)`,
			r.rateFailed ?? '',
			r.rateDup ?? '',
		]);
	}
	sections.push(
		[
			`### 7. In a real n8n 2.41.1 (Node 24): Webhook → Split Out → enrolment, N = ${N}, latency ${LATENCY_MS} ms`,
			'',
			'Time = wall time of the webhook call (responds when the last node is done); same trigger, split and execution saving for every variant. Each workflow ran once with 10 items first (warm-up).',
			'',
			table(['variant', 'time', 'n8n CPU', 'other processes (cores busy)', '÷ HTTP Request nodes', '÷ Knolyx', 'failed items', `time under ${RATE_LIMIT}/s`, 'failed under limit', 'duplicate writes under limit'], rows),
		].join('\n'),
	);
	const cpuK = median(results.get('Knolyx node, default')?.cpu ?? [NaN]);
	const cpuH = median(results.get('HTTP Request nodes, defaults')?.cpu ?? [NaN]);
	goal('7 real n8n', 'Knolyx ÷ HTTP Request nodes (defaults)', ratio(knolyxMs / httpMs), '≤ 1.25× (as item 1)', knolyxMs / httpMs <= 1.25, () =>
		`n8n used ${fmtMs(cpuK)} of CPU for the Knolyx node's run against ${fmtMs(cpuH)} for the HTTP Request nodes (${round(cpuK / cpuH, 2)}×), where in the harness the two are close (item 1). The difference: \`httpRequestWithAuthentication\` loads the credential for every request (n8n's CredentialsHelper.getDecrypted: a database read, decryption, policy check and defaults, 2 000 times here), while the HTTP Request nodes carry the key as static header parameters. What would close it: read the credential once per node run and pass it to every request as \`additionalCredentialOptions.credentialsDecrypted\` (nodes/Knolyx/transport/index.ts, send()); tried on a patched build in this real n8n (separate runs): Knolyx ÷ HTTP 1.0× (6.5 s vs 6.5 s) and 1.06× (10.1 s vs 9.5 s), against 2.1× (12.0 s vs 5.7 s) unpatched.`,
	);
	const k = results.get('Knolyx node, default');
	const h = results.get('HTTP Request nodes, defaults');
	const hb = results.get(variants[2].name);
	goal('7 real n8n', 'failed items under the rate limit: Knolyx / HTTP defaults / HTTP batching', `${k?.rateFailed} / ${h?.rateFailed} / ${hb?.rateFailed}`, 'Knolyx 0', k?.rateFailed === 0);
}

// ---------------------------------------------------------------------------
// main

const METHOD = `## How it is measured

- **Processes.** The sandbox runs in its own process; every measurement runs in a fresh child process (so each peak RSS belongs to one run) that executes a real workflow in-process with n8n-core 2.41.1's \`WorkflowExecute\` (test/harness). On 2 cores the client and the API each get one. The machine is shared with other engineers' test runs: the load average is printed above, and only ratios of runs made in this one run are reported. Repeated variants run interleaved round by round (A B C, B C A, ...) and the median is taken.
- **Other load.** "Other processes (cores busy)" = the machine's busy CPU time during a measurement (/proc/stat) minus the CPU of this benchmark's own processes (worker, sandbox, n8n), divided by the wall time: how much of the 2 cores other people's processes took meanwhile. The client of the concurrent runs is CPU-bound, so its wall time grows with this; the sequential runs are latency-bound and barely move.
- **HTTP Request nodes.** n8n's own \`HttpRequest\` class (n8n-nodes-base 2.41.1 from the n8n install made by \`scripts/n8n-runtime.mjs\`), loaded in-process on Node 20 with our n8n-core 2.41.1, typeVersion 4.5 (what n8n 2.41.1 puts on a new node). Two nodes: POST /user/provision (body fields from the item), then PUT /workgroup/{id}/member/{{ $json.email }}/; the API key and project id as header parameters, everything else at its default. "Batching" = the node's Batching option.
- **Sequential loop.** A plain \`for\` loop with axios (keep-alive), and the Knolyx node at concurrency 1.
- **Failed items** = buyers who are not members of the workgroup in the sandbox at the end (so a provision that failed counts even if the add-member step then "succeeded"); every node runs with On Error = Continue so a run always finishes. **Duplicate writes** = the sandbox's count of writes that repeated the same key and payload and changed nothing.
- **Rate limit.** The sandbox admits 100 requests per sliding second and answers 429 with \`Retry-After\` in whole seconds (at least 1). The hand-tuned batching is 50 items per 1 000 ms per node: 100 per 1 000 ms with two nodes in a row overlaps at the hand-over and fails items.
- **Bench-only sandbox change.** The sandbox finds users by e-mail with a scan of all users (≈1 ms per request at 10 000 users, making the sandbox the bottleneck at N = 10 000); bench/sandbox-server.ts adds an index with the same answers.
- **Trigger.** The Knolyx Trigger and a bare trigger (its webhook() only JSON-parses the body) hosted by the harness's trigger host (n8n-core \`WebhookContext\` over real express, production URL). The Knolyx Trigger is activated against the sandbox (real registration, real secret); the deliveries are then PUT directly, one at a time, with the registration's token. 10 % of the deliveries repeat an earlier id. The heap of the seen-id structures is measured in isolation (\`--expose-gc\`, heap before/after building them, at the bound, with platform-style UUIDs).
- **Memory.** Peak RSS of the worker process (\`process.resourceUsage().maxRSS\`), and the heap kept by the run: heap after a full GC with the finished run still referenced, minus the heap before the run.
- **Real n8n (item 7).** \`scripts/n8n-runtime.mjs\` starts n8n 2.41.1 on Node 24 with this package built into bench/out/pkg and linked as a community package (user folder bench/out/n8n-user). Workflows Webhook (POST, respond when the last node finishes) → Split Out → enrolment are created and published over n8n's REST API; the time is the wall time of the webhook call.
`;

const NOT_MEASURED = `## What was measured and what was not

- Measured: items 1-7 as listed above, all in this run.
- The HTTP Request node's "Retry On Fail" setting (off by default) was not tried: the issue compares defaults and the Batching option.
- The trigger was measured in the harness's n8n-core host, not in the real n8n: n8n's own cost per execution of saving the workflow's static data (which holds the seen-id store, its size is reported) is not in the handler time.
- Peak memory of the real n8n process was not measured (item 6 is measured in the harness, one process per run).
`;

async function main(): Promise<void> {
	const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
	startLoad = round(loadavg()[0], 1);
	log(`${command} on ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`);
	const sandbox = await startSandboxProcess({});
	const httpProbe = await runJob({ kind: 'enrol', client: 'http', n: 1, url: sandbox.url, workgroupId: 201, prefix: 'probe' }, 60_000);
	const httpAvailable = !httpProbe.error;
	if (!httpAvailable) {
		log(`HTTP Request node not available: ${httpProbe.error?.split('\n')[0]}`);
		notes.push(`The HTTP Request node could not be loaded (${httpProbe.error?.split('\n')[0]}); its comparisons were not measured.`);
	}
	try {
		const bulk = wanted('bulk') ? await benchBulk(sandbox, httpAvailable) : undefined;
		if (wanted('rate')) await benchRate(sandbox, httpAvailable, wanted('n8n') && realN8nUnavailable() === undefined);
		if (wanted('rules')) await benchRules(sandbox);
		if (wanted('getall')) await benchGetAll(sandbox);
		if (wanted('trigger')) await benchTrigger(sandbox);
		if (wanted('memory')) await benchMemory(sandbox, bulk);
		if (wanted('n8n')) await benchRealN8n(sandbox);
		if (wanted('poll')) sections.push(await benchPoll({ quick: QUICK, log }));
	} finally {
		await sandbox.close();
	}
	const elapsed = round((Date.now() - t0) / 1000, 0);
	const report = [
		`Load average (1 min) at the start: ${startLoad}, at the end: ${round(loadavg()[0], 1)}.`,
		'',
		'## Summary: goals of issue 6',
		'',
		table(['benchmark', 'measure', 'value', 'goal', 'met'], summary.map((s) => [s.bench, s.measure, s.value, s.goal, s.met])),
		'',
		...(misses.length ? ['### Goals missed in this run: by how much, why, what would close it', '', ...misses, ''] : []),
		...sections.flatMap((s) => [s, '']),
		...(notes.length ? ['### Notes from this run', '', ...notes.map((n) => `- ${n}`), ''] : []),
		`Whole run: ${elapsed} s.`,
	].join('\n');
	console.log(report);
	if (WRITE) {
		writeFileSync(
			join(__dirname, 'RESULTS.md'),
			[
				'# Benchmark results',
				'',
				`Command: \`${command}\` (${new Date().toISOString()}, ${cpus().length} cores, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version})`,
				'',
				report,
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
