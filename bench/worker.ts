/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * One measurement in its own process (so peak RSS belongs to this run only).
 * Reads the job from argv[2] (JSON), runs it against the sandbox, sends the
 * result to the parent over IPC and exits.
 */
import axios from 'axios';
import http from 'node:http';
import type {
	IDataObject,
	INodeExecutionData,
	INodeParameters,
	INodeType,
	IVersionedNodeType,
} from 'n8n-workflow';

import { KnolyxApi } from '../credentials/KnolyxApi.credentials';
import { AdaptiveLimiter } from '../nodes/Knolyx/transport/limiter';
import { createNodeTypes, runWorkflow } from '../test/harness';
import { machineBusyMs } from './lib';
import {
	buyers,
	chain,
	DEMO_CREDENTIALS,
	HTTP_TYPE,
	httpEnrol,
	KNOLYX_TYPE,
	knolyxEnrol,
	loadHttpRequestNode,
	NOOP_TYPE,
	NoOp,
	type Batching,
} from './workflows';

// Knolyx.node.json sits next to Knolyx.node.ts and Node's resolver tries .json first: name the file.
const { Knolyx } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../nodes/Knolyx/Knolyx.node.ts') as typeof import('../nodes/Knolyx/Knolyx.node');

export type Job =
	| {
			kind: 'enrol';
			client: 'knolyx' | 'http' | 'axios' | 'passthrough';
			/** Knolyx: fixed concurrency; undefined = default (adaptive). */
			concurrency?: number;
			batching?: Batching;
			n: number;
			url: string;
			workgroupId: number;
			prefix: string;
	  }
	| { kind: 'rules'; url: string; courseId: number; workgroupIds: number[] }
	| { kind: 'getAll'; url: string };

export interface LimiterTrace {
	instances: number;
	throttles: number;
	/** Throttles that paused every request (the others held only their own request). */
	pauses: number;
	maxInFlight: number;
	requests: number;
	finalConcurrency: number;
	rateCap: number | null;
	/** When the first request was queued and the last answer came, ms after the workflow started. */
	firstRequestMs: number;
	lastAnswerMs: number;
	/** [ms since start, concurrency after, rate cap after] at each throttle. */
	throttleLog: Array<[number, number, number | null]>;
}

export interface JobResult {
	ms: number;
	/** CPU time (user + system) of this process during the measured part. */
	cpuMs?: number;
	/** Busy CPU time of the whole machine (all cores, all processes) during the measured part. */
	machineBusyMs?: number;
	/** Heap in use after a full GC before the run, and after it with the run's data still referenced. */
	heapBeforeMb?: number;
	heapAfterMb?: number;
	/** Heap in use after a full GC once the run's data is let go (the code compiled meanwhile stays). */
	heapReleasedMb?: number;
	/** Heap of a copy of the run's input and output items alone. */
	itemsHeapMb?: number;
	maxRssMb: number;
	outputItems: number;
	errorItems: number;
	/** Size of the items as JSON (input + output of the measured node), for the memory comparison. */
	itemsJsonBytes?: number;
	firstError?: string;
	limiter?: LimiterTrace;
	/** Failure of the run itself (not of items). */
	error?: string;
}

// Development hook: a module that patches the node's code in this worker, to try a change
// (limiter, credential, ...) side by side without touching the sources others work on.
// eslint-disable-next-line @typescript-eslint/no-require-imports
if (process.env.BENCH_PATCH) require(process.env.BENCH_PATCH);

let started = 0;

/** CPU of this process and of the whole machine during the measured part only. */
let measureStart: { cpu: NodeJS.CpuUsage; busy: number | undefined } | undefined;
let measured: { cpuMs: number; machineBusyMs?: number } | undefined;
function startMeasuring(): void {
	measureStart = { cpu: process.cpuUsage(), busy: machineBusyMs() };
	started = Date.now();
}
function stopMeasuring(): number {
	const ms = Date.now() - started;
	if (measureStart) {
		const used = process.cpuUsage(measureStart.cpu);
		const busy = machineBusyMs();
		measured = {
			cpuMs: Math.round((used.user + used.system) / 1000),
			machineBusyMs:
				busy !== undefined && measureStart.busy !== undefined
					? Math.round(busy - measureStart.busy)
					: undefined,
		};
	}
	return ms;
}

// Watch every limiter the node creates (read-only: wraps run and onThrottle to log them).
const limiters: AdaptiveLimiter[] = [];
const throttleLog: Array<[number, number, number | null]> = [];
let firstRequestMs = -1;
let lastAnswerMs = -1;
const proto = AdaptiveLimiter.prototype as unknown as Record<
	string,
	(...args: unknown[]) => unknown
>;
const originalRun = proto.run;
proto.run = async function (this: AdaptiveLimiter, ...args: unknown[]) {
	if (!limiters.includes(this)) limiters.push(this);
	if (firstRequestMs < 0) firstRequestMs = Date.now() - started;
	try {
		return await originalRun.apply(this, args);
	} finally {
		lastAnswerMs = Date.now() - started;
	}
};
const originalThrottle = proto.onThrottle;
proto.onThrottle = function (this: AdaptiveLimiter, ...args: unknown[]) {
	const result = originalThrottle.apply(this, args);
	const cap = (this as unknown as { rateCap: number }).rateCap;
	throttleLog.push([
		Date.now() - started,
		this.concurrency,
		Number.isFinite(cap) ? Math.round(cap * 10) / 10 : null,
	]);
	return result;
};

function limiterTrace(): LimiterTrace | undefined {
	if (limiters.length === 0) return undefined;
	const cap = (limiters[0] as unknown as { rateCap: number }).rateCap;
	return {
		instances: limiters.length,
		throttles: limiters.reduce((sum, l) => sum + l.metrics.throttles, 0),
		pauses: limiters.reduce((sum, l) => sum + l.metrics.pauses, 0),
		maxInFlight: Math.max(...limiters.map((l) => l.metrics.maxInFlight)),
		requests: limiters.reduce((sum, l) => sum + l.metrics.requests, 0),
		finalConcurrency: limiters[0].concurrency,
		rateCap: Number.isFinite(cap) ? Math.round(cap * 10) / 10 : null,
		firstRequestMs,
		lastAnswerMs,
		throttleLog,
	};
}

const heapMb = (): number | undefined => {
	const gc = (global as { gc?: () => void }).gc;
	if (!gc) return undefined;
	gc();
	return Math.round((process.memoryUsage().heapUsed / 2 ** 20) * 1000) / 1000; // to the KB: the per-item figures divide by N
};

const credentials = (url: string) => ({ knolyxApi: { baseUrl: url, ...DEMO_CREDENTIALS } });

function errorsIn(items: INodeExecutionData[]): { count: number; first?: string } {
	const failed = items.filter((item) => item.json.error !== undefined);
	const first = failed[0]?.json.error;
	return {
		count: failed.length,
		first: first === undefined ? undefined : JSON.stringify(first).slice(0, 200),
	};
}

async function runEnrol(
	job: Extract<Job, { kind: 'enrol' }>,
): Promise<Omit<JobResult, 'maxRssMb'>> {
	let items: ReturnType<typeof buyers> | undefined = buyers(job.n, job.prefix);
	if (job.client === 'axios') {
		// The strictly sequential loop most nodes amount to: one request after the other.
		const agent = new http.Agent({ keepAlive: true });
		const api = axios.create({
			baseURL: `${job.url}/public/api/v1`,
			headers: { 'X-Api-Key': DEMO_CREDENTIALS.apiKey, 'X-Project-Id': DEMO_CREDENTIALS.projectId },
			httpAgent: agent,
		});
		let failed = 0;
		let first: string | undefined;
		startMeasuring();
		for (const buyer of items ?? []) {
			try {
				await api.post('/user/provision', buyer);
				await api.put(`/workgroup/${job.workgroupId}/member/${encodeURIComponent(buyer.email)}/`, {
					removalDate: null,
				});
			} catch (error) {
				failed++;
				first ??= (error as Error).message;
			}
		}
		const ms = stopMeasuring();
		agent.destroy();
		return { ms, outputItems: job.n - failed, errorItems: failed, firstError: first };
	}

	const types: Record<string, INodeType | IVersionedNodeType> = {};
	let steps;
	if (job.client === 'knolyx') {
		types[KNOLYX_TYPE] = new Knolyx();
		steps = [knolyxEnrol(job.workgroupId, job.concurrency)];
	} else if (job.client === 'http') {
		types[HTTP_TYPE] = loadHttpRequestNode();
		steps = httpEnrol(job.url, job.workgroupId, job.batching);
	} else {
		types[KNOLYX_TYPE] = new Knolyx(); // same modules loaded as the Knolyx run
		types[NOOP_TYPE] = new NoOp();
		steps = [{ name: 'Pass', type: NOOP_TYPE, typeVersion: 1, parameters: {} }];
	}
	let workflow: ReturnType<typeof chain> | undefined = chain(items, steps);
	const nodeTypes = createNodeTypes(types);
	const heapBeforeMb = heapMb();
	startMeasuring();
	let result: Awaited<ReturnType<typeof runWorkflow>> | undefined = await runWorkflow({
		...workflow,
		nodeTypes,
		credentials: credentials(job.url),
		credentialTypes: [new KnolyxApi()],
	});
	const ms = stopMeasuring();
	let output: INodeExecutionData[] | undefined = result.output(workflow.last);
	const errors = errorsIn(output);
	const itemsJsonBytes =
		Buffer.byteLength(JSON.stringify(items)) +
		Buffer.byteLength(JSON.stringify(output.map((item) => item.json)));
	const summary = {
		outputItems: output.length,
		errorItems: errors.count,
		firstError: errors.first ?? result.error?.message,
		error: result.error?.message,
	};
	const heapAfterMb = heapMb(); // the run's data (every node's output) is still referenced here
	// BENCH_HEAP_SNAPSHOT: a folder to write a heap snapshot to at this point (what the run holds), for a retainer analysis.
	if (process.env.BENCH_HEAP_SNAPSHOT) {
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		(require('node:v8') as typeof import('node:v8')).writeHeapSnapshot(
			`${process.env.BENCH_HEAP_SNAPSHOT}/${job.client}-${job.n}.heapsnapshot`,
		);
	}
	// The items themselves: a structured clone of the run's input and output items (shared objects stay
	// shared, as in the run): the heap freed when the copy is let go.
	const held: { copy?: unknown } = {
		copy: structuredClone({
			input: result.output('Buyers').map((item) => item.json),
			output: output.map((item) => item.json),
		}),
	};
	const withCopyMb = heapMb();
	delete held.copy;
	const itemsHeapMb =
		withCopyMb === undefined
			? undefined
			: Math.round((withCopyMb - (heapMb() ?? NaN)) * 1000) / 1000;
	// What the run holds: the heap freed when the run (its input, every node's output, the
	// execution's data) is let go. Code compiled during the run stays either way, so it is not
	// counted, however long the run was.
	result = undefined;
	output = undefined;
	workflow = undefined;
	items = undefined;
	const heapReleasedMb = heapMb();
	return {
		ms,
		heapBeforeMb,
		heapAfterMb,
		heapReleasedMb,
		itemsHeapMb,
		itemsJsonBytes,
		...summary,
		limiter: limiterTrace(),
	};
}

async function runKnolyx(url: string, parameters: INodeParameters, items: IDataObject[]) {
	const workflow = chain(items, [
		{ name: 'Knolyx', type: KNOLYX_TYPE, typeVersion: 1, parameters },
	]);
	const nodeTypes = createNodeTypes({ [KNOLYX_TYPE]: new Knolyx() });
	startMeasuring();
	const result = await runWorkflow({
		...workflow,
		nodeTypes,
		credentials: credentials(url),
		credentialTypes: [new KnolyxApi()],
	});
	const ms = stopMeasuring();
	const output = result.output(workflow.last);
	const errors = errorsIn(output);
	return {
		ms,
		outputItems: output.length,
		errorItems: errors.count,
		firstError: errors.first ?? result.error?.message,
		error: result.error?.message,
		limiter: limiterTrace(),
	};
}

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2]) as Job;
	let result: Omit<JobResult, 'maxRssMb'>;
	try {
		if (job.kind === 'enrol') {
			result = await runEnrol(job);
		} else if (job.kind === 'rules') {
			const rl = (value: string) => ({ __rl: true, mode: 'id', value });
			result = await runKnolyx(
				job.url,
				{
					resource: 'rule',
					operation: 'addWorkgroup',
					courseId: rl(String(job.courseId)),
					ruleName: '',
					workgroupId: rl('={{ $json.workgroup }}'),
				},
				job.workgroupIds.map((workgroup) => ({ workgroup })),
			);
		} else {
			result = await runKnolyx(
				job.url,
				{ resource: 'course', operation: 'getAll', returnAll: true },
				[{}],
			);
		}
	} catch (error) {
		result = {
			ms: -1,
			outputItems: 0,
			errorItems: 0,
			error: (error as Error).stack ?? String(error),
		};
	}
	result.cpuMs = measured?.cpuMs;
	result.machineBusyMs = measured?.machineBusyMs;
	const maxRssMb = Math.round((process.resourceUsage().maxRSS / 1024) * 10) / 10;
	process.send?.({ ...result, maxRssMb } satisfies JobResult, () => process.exit(0));
}

void main();
