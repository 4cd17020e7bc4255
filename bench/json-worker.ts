/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The JSON row's measurements (rows/json.ts), in a process of their own started with
 * --expose-gc: for each pattern and size, the node's reader (parseLossless) and JSON.parse on the
 * same text, interleaved round by round (A B, B A, …) after a full GC each, and the medians, with
 * the young-generation collections inside each read; for a text both read (unless the job asks
 * for reads only), also stringifyLossless beside JSON.stringify; all patterns, or only those that
 * are JSON. The job comes as argv[2]; the results go to the runner (lib.ts runJob).
 */
import { GCProfiler } from 'node:v8';

import { parseExact, parseLossless, stringifyLossless } from '../nodes/Knolyx/helpers/json';
import { JSON_PATTERNS, LIST_PATTERNS } from './json-patterns';
import { median } from './lib';

export interface JsonJob {
	sizesMiB: number[];
	/** Rounds at each size (the same index as sizesMiB). */
	rounds: number[];
	/** Only the reads (no write back). */
	readsOnly?: boolean;
	/** Only the inputs that are JSON (those with a ratio to JSON.parse). */
	validOnly?: boolean;
	/** Row 12: the list patterns, read as the node reads lists (parseExact), not parseLossless. */
	lists?: boolean;
}

export interface JsonMeasure {
	pattern: string;
	valid: boolean;
	sizeMiB: number;
	/** Median CPU milliseconds of parseLossless (read, or refused). */
	readerMs: number;
	/** Median wall-clock milliseconds of the same reads. */
	readerWallMs: number;
	/** What the reader did: "read", or the start of its error. */
	outcome: string;
	/** The most young-generation collections in one timed read of the reader, and their median ms. */
	readerYoungGcs: number;
	readerYoungGcMs: number;
	/** The same for JSON.parse (valid patterns only). */
	jsonParseYoungGcs?: number;
	/** Median CPU milliseconds of JSON.parse on the same text (valid patterns only). */
	jsonParseMs?: number;
	/** Median wall-clock milliseconds of the same reads. */
	jsonParseWallMs?: number;
	/** Median CPU milliseconds of stringifyLossless / JSON.stringify of what each read. */
	writeMs?: number;
	jsonStringifyMs?: number;
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);

interface Timing {
	/** CPU time of this process (user + system, every thread: GC and compiler included). */
	cpu: number;
	wall: number;
	/** Young-generation collections (scavenges, minor mark-compacts) during the run, and their ms. */
	youngGcs: number;
	youngGcMs: number;
}

/**
 * A timed sample lasts at least this long: a read shorter than that is repeated inside it (as
 * often in every round, for each reader apart). The process's CPU time counts every thread, and
 * what the full GC before a sample leaves to V8's background threads (sweeping, freeing) is
 * charged to the sample: a few milliseconds, which on a read of 1 MiB (1-4 ms) moved single
 * medians up to 2x (2026-11-29: one number of a million digits, 2.38-3.41x in one bench run,
 * 1.51-1.83x read alone).
 */
const SAMPLE_MS = 25;

/** How many times to repeat `run` in a sample of SAMPLE_MS, from the time of one run. */
function repeatsFor(run: () => unknown): number {
	const started = process.hrtime.bigint();
	run();
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	return Math.min(100, Math.max(1, Math.ceil(SAMPLE_MS / Math.max(ms, 0.01))));
}

/**
 * Milliseconds of one `run`, after a full GC, from a sample of `repeats` runs: the process's CPU
 * time, the measure (on 2 cores shared with other work, wall-clock time mostly measures the wait
 * for a core), and the wall clock; and the young-generation collections V8 made meanwhile (per
 * run, the count rounded up).
 */
function timed(run: () => unknown, repeats = 1): Timing {
	gc();
	const profiler = new GCProfiler();
	profiler.start();
	const cpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	for (let i = 0; i < repeats; i++) run();
	const wall = Number(process.hrtime.bigint() - started) / 1e6;
	const used = process.cpuUsage(cpu);
	const young = profiler
		.stop()
		.statistics.filter((s) => s.gcType === 'Scavenge' || s.gcType.startsWith('MinorMark'));
	return {
		cpu: (used.user + used.system) / 1000 / repeats,
		wall: wall / repeats,
		youngGcs: Math.ceil(young.length / repeats),
		// GCProfiler gives each collection's cost in microseconds.
		youngGcMs: young.reduce((sum, s) => sum + s.cost, 0) / 1000 / repeats,
	};
}

const cpuMedian = (timings: Timing[]) => median(timings.map((t) => t.cpu));
const wallMedian = (timings: Timing[]) => median(timings.map((t) => t.wall));
const mostYoungGcs = (timings: Timing[]) => Math.max(...timings.map((t) => t.youngGcs));

function outcomeOf(text: string): { outcome: string; value?: unknown } {
	try {
		return { outcome: 'read', value: job.lists ? parseExact(text) : parseLossless(text) };
	} catch (error) {
		return { outcome: (error as Error).message.slice(0, 60) };
	}
}

function measurePattern(
	pattern: (typeof JSON_PATTERNS)[number],
	sizeMiB: number,
	rounds: number,
	readsOnly: boolean,
): JsonMeasure {
	// As the node gets a text: decoded from the answer's bytes, one flat string (a pattern built
	// by concatenation is a tree of pieces that each reader would first have to join).
	const text = Buffer.from(pattern.make(sizeMiB * 1024 * 1024), 'utf8').toString('utf8');
	// Two reads by each before the timed rounds, so that both run compiled code (JSON.parse is
	// native code from the start; the node's reader is compiled once it has run).
	const { outcome, value } = outcomeOf(text);
	const readerRepeats = repeatsFor(() => outcomeOf(text));
	const reader: Timing[] = [];
	const parse: Timing[] = [];
	const write: Timing[] = [];
	const stringify: Timing[] = [];
	const readBoth = pattern.valid && outcome === 'read';
	const parsed = readBoth ? (JSON.parse(text) as unknown) : undefined;
	const parseRepeats = readBoth ? repeatsFor(() => JSON.parse(text)) : 1;
	// Write back is compared only where both wrote the same text (JSON.parse reads a number of
	// a million digits as Infinity, written "null"; the lossless value keeps the digits).
	const writeBoth = readBoth && !readsOnly && stringifyLossless(value) === JSON.stringify(parsed);
	const writeRepeats = writeBoth ? repeatsFor(() => stringifyLossless(value)) : 1;
	const stringifyRepeats = writeBoth ? repeatsFor(() => JSON.stringify(parsed)) : 1;
	for (let round = 0; round < rounds; round++) {
		const steps: Array<() => void> = [
			() => reader.push(timed(() => outcomeOf(text), readerRepeats)),
			...(readBoth ? [() => parse.push(timed(() => JSON.parse(text), parseRepeats))] : []),
		];
		const writes: Array<() => void> = writeBoth
			? [
					() => write.push(timed(() => stringifyLossless(value), writeRepeats)),
					() => stringify.push(timed(() => JSON.stringify(parsed), stringifyRepeats)),
				]
			: [];
		for (const list of [steps, writes]) {
			if (round % 2) list.reverse();
			for (const step of list) step();
		}
	}
	return {
		pattern: pattern.name,
		valid: pattern.valid,
		sizeMiB,
		readerMs: cpuMedian(reader),
		readerWallMs: wallMedian(reader),
		outcome,
		readerYoungGcs: mostYoungGcs(reader),
		readerYoungGcMs: median(reader.map((t) => t.youngGcMs)),
		...(readBoth
			? {
					jsonParseMs: cpuMedian(parse),
					jsonParseWallMs: wallMedian(parse),
					jsonParseYoungGcs: mostYoungGcs(parse),
				}
			: {}),
		...(writeBoth ? { writeMs: cpuMedian(write), jsonStringifyMs: cpuMedian(stringify) } : {}),
	};
}

const job = JSON.parse(process.argv[2]) as JsonJob;
const results: JsonMeasure[] = [];
for (const pattern of (job.lists ? LIST_PATTERNS : JSON_PATTERNS).filter(
	(p) => p.valid || !job.validOnly,
)) {
	for (const [i, sizeMiB] of job.sizesMiB.entries()) {
		results.push(measurePattern(pattern, sizeMiB, job.rounds[i], job.readsOnly ?? false));
	}
}
process.send?.({ results }, () => process.exit(0));
