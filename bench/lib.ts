/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports, @n8n/community-nodes/no-dangerous-functions -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/** Process plumbing of the benchmark runner: the sandbox process and one process per measurement. */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

import type { SandboxStats } from '../sandbox/types';

const TS_NODE = ['-r', 'ts-node/register/transpile-only'];
const childEnv = () => ({
	...process.env,
	TS_NODE_TRANSPILE_ONLY: 'true',
	N8N_LOG_LEVEL: 'silent',
});

export interface SandboxProcess {
	url: string;
	call<T = unknown>(cmd: string, args?: Record<string, unknown>): Promise<T>;
	stats(): Promise<SandboxStats>;
	close(): Promise<void>;
}

export async function startSandboxProcess(
	options: Record<string, unknown> = {},
): Promise<SandboxProcess> {
	const child = fork(join(__dirname, 'sandbox-server.ts'), [JSON.stringify(options)], {
		execArgv: TS_NODE,
		env: childEnv(),
		stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
	});
	let nextId = 1;
	const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
	const ready = new Promise<{ url: string }>((resolve, reject) => {
		child.once('exit', (code) => reject(new Error(`sandbox process exited (${code})`)));
		child.on(
			'message',
			(message: {
				ready?: boolean;
				url: string;
				id?: number;
				result?: unknown;
				error?: string;
			}) => {
				if (message.ready) return resolve(message);
				const waiter = pending.get(message.id as number);
				if (!waiter) return;
				pending.delete(message.id as number);
				if (message.error) waiter.reject(new Error(message.error));
				else waiter.resolve(message.result);
			},
		);
	});
	const { url } = await ready;
	const call = <T>(cmd: string, args: Record<string, unknown> = {}): Promise<T> =>
		new Promise<T>((resolve, reject) => {
			const id = nextId++;
			pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
			child.send({ id, cmd, ...args });
		});
	return {
		url,
		call,
		stats: () => call<SandboxStats>('stats'),
		close: async () => {
			const exited = new Promise((resolve) => child.once('exit', resolve));
			await call('close').catch(() => undefined);
			await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 2000))]);
			if (child.exitCode === null) child.kill('SIGKILL');
		},
	};
}

/**
 * Runs one job (argv[2] of `script`, as JSON) in a fresh worker process; resolves with the
 * result the worker sent. When the worker crashes, times out or sends nothing, it resolves with
 * `{ error }` only (why): a caller that needs the other fields of its result type fills them.
 */
export function runJob<R extends { error?: string }>(
	job: object,
	timeoutMs: number,
	script = 'worker.ts',
	/** Node flags for this worker (before BENCH_WORKER_FLAGS). */
	flags: string[] = [],
): Promise<R> {
	return new Promise<R>((resolve) => {
		const child: ChildProcess = fork(join(__dirname, script), [JSON.stringify(job)], {
			// BENCH_WORKER_FLAGS: extra Node flags for the workers (e.g. --max-old-space-size=160 to see what is garbage).
			execArgv: [
				...TS_NODE,
				'--expose-gc',
				...flags,
				...(process.env.BENCH_WORKER_FLAGS ?? '').split(' ').filter(Boolean),
			],
			env: childEnv(),
			stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
		});
		let result: R | undefined;
		const failed = (error: string) => ({ error }) as R;
		const timer = setTimeout(() => {
			child.kill('SIGKILL');
			resolve(failed(`timed out after ${timeoutMs} ms`));
		}, timeoutMs);
		child.on('message', (message: R) => (result = message));
		child.on('exit', (code) => {
			clearTimeout(timer);
			resolve(result ?? failed(`worker exited with ${code} and no result`));
		});
	});
}

export const median = (values: number[]): number => {
	const sorted = [...values].sort((a, b) => a - b);
	const mid = Math.floor(sorted.length / 2);
	return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const round = (value: number, digits = 2): number =>
	Math.round(value * 10 ** digits) / 10 ** digits;

/** Busy CPU time of the whole machine (all cores, all processes) so far, from /proc/stat; undefined where there is none. */
export function machineBusyMs(): number | undefined {
	try {
		const fields = readFileSync('/proc/stat', 'utf8')
			.split('\n')[0]
			.trim()
			.split(/\s+/)
			.slice(1)
			.map(Number);
		// user nice system idle iowait irq softirq steal, in USER_HZ (100 per second on Linux)
		const [user, nice, system, , , irq, softirq, steal] = fields;
		return ((user + nice + system + irq + softirq + (steal ?? 0)) * 1000) / 100;
	} catch {
		return undefined;
	}
}

/** CPU time used so far by one process (user + system), from /proc/<pid>/stat. */
export function processCpuMs(pid: number): number | undefined {
	try {
		const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime, stime
	} catch {
		return undefined;
	}
}
