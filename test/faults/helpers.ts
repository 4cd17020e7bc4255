/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Shared pieces of the fault suite: the per-scenario counts line, what a "clear error item"
 * is, fault totals, and waiting for the sandbox to finish requests the client gave up on.
 */
import { appendFileSync } from 'node:fs';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import type { Sandbox, SandboxStats } from '../../sandbox';

export interface ScenarioCounts {
	suite: string;
	scenario: string;
	/** Faults the sandbox injected (latency not counted: it is no fault). */
	faults: number;
	items: number;
	succeeded: number;
	failed: number;
	/** Writes applied twice with an effect (a second user, e-mail, rule, webhook...). Must be 0. */
	duplicates: number;
	/** Edits reported as done that the platform does not hold at the end. Must be 0. */
	lost: number;
	note?: string;
}

/** One line of the summary the counts reporter prints after the run. */
export function recordCounts(counts: ScenarioCounts): void {
	const file = process.env.KNOLYX_FAULT_COUNTS;
	if (file) appendFileSync(file, `${JSON.stringify(counts)}\n`);
}

/** Faults injected, every kind but latency; `error:<status>` sub-counts are not counted twice. */
export function faultTotal(stats: SandboxStats): number {
	return Object.entries(stats.faultsInjected)
		.filter(([kind]) => kind !== 'latency' && !kind.startsWith('error:'))
		.reduce((sum, [, count]) => sum + count, 0);
}

/** The fault kinds injected, e.g. "rateLimit 40, error 12 (500: 3, 503: 9)". */
export function faultSummary(stats: SandboxStats): string {
	const kinds = Object.entries(stats.faultsInjected).filter(
		([kind]) => kind !== 'latency' && !kind.startsWith('error:'),
	);
	return kinds
		.map(([kind, count]) => {
			if (kind !== 'error') return `${kind} ${count}`;
			const statuses = Object.entries(stats.faultsInjected)
				.filter(([sub]) => sub.startsWith('error:'))
				.map(([sub, n]) => `${sub.slice(6)}: ${n}`);
			return `error ${count} (${statuses.join(', ')})`;
		})
		.join(', ');
}

const HTML = /<\s*\/?\s*(html|head|body|h1|p|title|div|!doctype)\b/i;
const STACK = /\n\s*at\s+\S+|\bat\s+\S+\s+\(\S+:\d+:\d+\)/;
/** The node's own message shapes: the platform's answer, a field of an item, a rule conflict. */
const CLEAR_MESSAGE = [
	/^Knolyx: .+ \[\d{3}\]$/s,
	/^Knolyx answered with status \d{3}/,
	/^Knolyx could not be reached \([A-Z_]+\)$/,
	/^Knolyx did not answer within the Timeout \(\d+ s per attempt\) \[[A-Z_]+\]$/,
	/^Knolyx answered (a list request|a read) with something that is not (a list|an object) \[\d{3}\]$/,
	/^The webhook registration for \S+ got no clear answer/,
	/^[A-Z][\w ()]*: .+ \(item \d+\)$/s,
	/^The rules of course \d+ kept changing/,
	/^The course has \d+ rules named /,
	/^Knolyx did not return the user ID/,
	/^Knolyx answered with (a web page \(HTML\)|text that is not JSON), not the API's JSON: the base URL looks wrong \[\d{3}\]$/,
	/^Base URL of the Knolyx API credential /,
	/^The save of the rules of course \d+ got no clear answer/,
	/^The rules of course \d+ could not be saved/,
];

/**
 * Why an output item is not a clear error item, or undefined when it is one: a short message in
 * one of the node's shapes, no HTML, no stack trace, no dump of a request.
 */
export function unclearError(json: IDataObject): string | undefined {
	const message = json.error;
	if (typeof message !== 'string' || message.trim() === '') return 'no error message';
	if (message.length > 400) return `message too long (${message.length} characters)`;
	if (!CLEAR_MESSAGE.some((shape) => shape.test(message)))
		return `message in no known shape: ${message}`;
	const everything = JSON.stringify(json);
	if (HTML.test(everything)) return 'HTML in the error item';
	if (STACK.test(everything)) return 'a stack trace in the error item';
	if (/"(headers|config|request|options)"\s*:/i.test(everything))
		return 'request details in the error item';
	const description = json.description;
	if (description !== undefined && (typeof description !== 'string' || description.length > 600))
		return 'odd description';
	return undefined;
}

export interface Tally {
	items: number;
	succeeded: number;
	failed: number;
	/** Item index → the error item's json. */
	errors: Map<number, IDataObject>;
	/** Item index → the success item's json. */
	ok: Map<number, IDataObject>;
}

/**
 * Splits a node's output into successes and error items, checking that there is exactly one
 * output item per input item, paired with it, and that every error item is clear.
 */
export function tally(output: INodeExecutionData[], inputCount: number, label: string): Tally {
	expect([label, output.length]).toEqual([label, inputCount]);
	const result: Tally = {
		items: inputCount,
		succeeded: 0,
		failed: 0,
		errors: new Map(),
		ok: new Map(),
	};
	output.forEach((item, index) => {
		expect([label, item.pairedItem]).toEqual([label, { item: index }]);
		if (item.json.error !== undefined) {
			result.failed++;
			result.errors.set(index, item.json);
			expect([label, index, item.json, unclearError(item.json)]).toEqual([
				label,
				index,
				item.json,
				undefined,
			]);
		} else {
			result.succeeded++;
			result.ok.set(index, item.json);
		}
	});
	return result;
}

/** Waits until the sandbox has no request in flight (answers the client gave up on still apply). */
export async function waitIdle(sandbox: Sandbox, timeoutMs = 10_000): Promise<void> {
	const started = Date.now();
	while (sandbox.stats().inFlight > 0) {
		if (Date.now() - started > timeoutMs) throw new Error('the sandbox kept requests in flight');
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	// A request whose socket was destroyed may still be inside its handler's delay.
	await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Write keys written more than once, with the count. */
export function repeatedWrites(stats: SandboxStats): Record<string, number> {
	return Object.fromEntries(Object.entries(stats.writes).filter(([, count]) => count > 1));
}
