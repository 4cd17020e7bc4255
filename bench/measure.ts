/** One measurement in its own worker process against a freshly reset sandbox, and interleaved variants. */
import { JOB_TIMEOUT_MS, log } from './config';
import { round, runJob, type SandboxProcess } from './lib';
import type { Job, JobResult } from './worker';
import type { Batching } from './workflows';

export interface Measured {
	result: JobResult;
	/** Average number of cores busy with other processes (not this benchmark) during the run. */
	otherCores: number;
	byRoute: Record<string, number>;
	requests: number;
	duplicateWrites: number;
	serverMaxInFlight: number;
	enrolled?: number;
	throttled: number;
	/** Every request the sandbox answered: [start, end] in ms from just before the worker started, and the status. */
	trace?: RequestTrace;
}

export type RequestTrace = Array<[number, number, number]>;

let prefixCounter = 0;
/** A fresh e-mail prefix per run, so runs never share users. */
export const nextPrefix = (letter: string) => `${letter}${++prefixCounter}`;

/** Reset the sandbox, apply faults, run the job in its own process, read the sandbox's counters. */
export async function measure(
	sandbox: SandboxProcess,
	faults: Record<string, unknown>,
	job: (ids: { workgroupId: number; prefix: string }) => Job,
	prepare?: () => Promise<void>,
	options: { trace?: boolean } = {},
): Promise<Measured> {
	const demo = await sandbox.call<{ workgroups: Record<string, number> }>('reset');
	if (prepare) await prepare();
	await sandbox.call('faults', { faults });
	await sandbox.call('resetStats');
	const workgroupId = demo.workgroups['Intro to n8n'];
	const prefix = nextPrefix('b');
	const spec = job({ workgroupId, prefix });
	const sandboxCpuBefore = await sandbox.call<number>('cpu');
	if (options.trace) await sandbox.call('traceStart');
	// A worker that failed sent nothing: its run counts as -1 ms, no items, and says why.
	const result: JobResult = {
		ms: -1,
		maxRssMb: 0,
		outputItems: 0,
		errorItems: 0,
		...(await runJob<Partial<JobResult>>(spec, JOB_TIMEOUT_MS)),
	};
	const trace = options.trace ? await sandbox.call<RequestTrace>('traceGet') : undefined;
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
		trace,
	};
}

export interface Variant {
	name: string;
	job: (ids: { workgroupId: number; prefix: string }) => Job;
	/** How many interleaved rounds (slow variants run once). */
	rounds: number;
}

export function enrolJob(
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
export async function sideBySide(
	sandbox: SandboxProcess,
	faults: Record<string, unknown>,
	variants: Variant[],
	options: { trace?: boolean } = {},
) {
	const runs = new Map<string, Measured[]>(variants.map((v) => [v.name, []]));
	const maxRounds = Math.max(...variants.map((v) => v.rounds));
	for (let turn = 0; turn < maxRounds; turn++) {
		const order = variants
			.map((_, i) => variants[(i + turn) % variants.length])
			.filter((v) => v.rounds > turn);
		for (const variant of order) {
			const m = await measure(sandbox, faults, variant.job, undefined, options);
			log(
				`  ${variant.name.padEnd(34)} ${String(m.result.ms).padStart(7)} ms  cpu ${m.result.cpuMs} ms  other load ${round(m.otherCores, 1)} cores  failed ${failedOf(m)}  requests ${m.requests}  dup ${m.duplicateWrites}  rss ${m.result.maxRssMb} MB`,
			);
			runs.get(variant.name)?.push(m);
		}
	}
	return runs;
}

export function failedOf(m: Measured, n?: number): number {
	if (m.enrolled !== undefined && n !== undefined) return n - m.enrolled;
	return m.result.errorItems;
}
