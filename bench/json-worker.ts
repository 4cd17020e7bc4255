/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The JSON row's measurements (rows/json.ts), in a process of their own started with
 * --expose-gc: for each pattern and size, the node's reader (parseLossless) and JSON.parse on the
 * same text, interleaved round by round (A B, B A, …) after a full GC each, and the medians; for
 * a text both read, also stringifyLossless beside JSON.stringify. The job comes as argv[2]; the
 * results go to the runner (lib.ts runJob).
 */
import { parseLossless, stringifyLossless } from '../nodes/Knolyx/helpers/json';
import { JSON_PATTERNS } from './json-patterns';
import { median } from './lib';

export interface JsonJob {
	sizesMiB: number[];
	/** Rounds at each size (the same index as sizesMiB). */
	rounds: number[];
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
}

/**
 * Milliseconds of `run`, after a full GC: the process's CPU time, the measure (on 2 cores shared
 * with other work, wall-clock time mostly measures the wait for a core), and the wall clock.
 */
function timed(run: () => unknown): Timing {
	gc();
	const cpu = process.cpuUsage();
	const started = process.hrtime.bigint();
	run();
	const wall = Number(process.hrtime.bigint() - started) / 1e6;
	const used = process.cpuUsage(cpu);
	return { cpu: (used.user + used.system) / 1000, wall };
}

const cpuMedian = (timings: Timing[]) => median(timings.map((t) => t.cpu));
const wallMedian = (timings: Timing[]) => median(timings.map((t) => t.wall));

function outcomeOf(text: string): { outcome: string; value?: unknown } {
	try {
		return { outcome: 'read', value: parseLossless(text) };
	} catch (error) {
		return { outcome: (error as Error).message.slice(0, 60) };
	}
}

function measurePattern(
	pattern: (typeof JSON_PATTERNS)[number],
	sizeMiB: number,
	rounds: number,
): JsonMeasure {
	// As the node gets a text: decoded from the answer's bytes, one flat string (a pattern built
	// by concatenation is a tree of pieces that each reader would first have to join).
	const text = Buffer.from(pattern.make(sizeMiB * 1024 * 1024), 'utf8').toString('utf8');
	// Two reads by each before the timed rounds, so that both run compiled code (JSON.parse is
	// native code from the start; the node's reader is compiled once it has run).
	const { outcome, value } = outcomeOf(text);
	outcomeOf(text);
	const reader: Timing[] = [];
	const parse: Timing[] = [];
	const write: Timing[] = [];
	const stringify: Timing[] = [];
	const readBoth = pattern.valid && outcome === 'read';
	const parsed = readBoth ? (JSON.parse(text) as unknown) : undefined;
	if (readBoth) JSON.parse(text);
	// Write back is compared only where both wrote the same text (JSON.parse reads a number of
	// a million digits as Infinity, written "null"; the lossless value keeps the digits).
	const writeBoth = readBoth && stringifyLossless(value) === JSON.stringify(parsed);
	for (let round = 0; round < rounds; round++) {
		const steps: Array<() => void> = [
			() => reader.push(timed(() => outcomeOf(text))),
			...(readBoth ? [() => parse.push(timed(() => JSON.parse(text)))] : []),
		];
		const writes: Array<() => void> = writeBoth
			? [
					() => write.push(timed(() => stringifyLossless(value))),
					() => stringify.push(timed(() => JSON.stringify(parsed))),
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
		...(readBoth ? { jsonParseMs: cpuMedian(parse), jsonParseWallMs: wallMedian(parse) } : {}),
		...(writeBoth ? { writeMs: cpuMedian(write), jsonStringifyMs: cpuMedian(stringify) } : {}),
	};
}

const job = JSON.parse(process.argv[2]) as JsonJob;
const results: JsonMeasure[] = [];
for (const pattern of JSON_PATTERNS) {
	for (const [i, sizeMiB] of job.sizesMiB.entries()) {
		results.push(measurePattern(pattern, sizeMiB, job.rounds[i]));
	}
}
process.send?.({ results }, () => process.exit(0));
