/**
 * Part of the duplicate check (../dedupe.ts, its only user): the ids accepted in this
 * process's memory, per scope: catches a resend that arrives while
 * the first execution still runs (its static data is not saved yet), and tells which ids a
 * concurrent save dropped from the stored window (see `missingFrom` in dedupe.ts).
 */
import { randomBytes } from 'node:crypto';

import type { DedupeLimits } from './stored-window';

/** This process, for the writer of a save: random, so processes on other hosts never share it. */
const PROCESS = randomBytes(6).toString('base64url');
let windowsMade = 0;

/** Process-local window of accepted ids (or hashes) for one scope (workflow, node and test/production). */
export class RecentIds {
	/** This window, as the writer of the saves it makes. */
	readonly writer = `${PROCESS}.${++windowsMade}`;
	/** id → when it was accepted (ms) and its place in the order of acceptance. */
	private readonly seen = new Map<string, { at: number; seq: number }>();
	/** Accepted ids in order; `log[i]` has sequence number `logStart + i` (entries of evicted ids are skipped). */
	private log: string[] = [];
	private logStart = 0;

	has(id: string, nowMs: number, limits: DedupeLimits): boolean {
		if (limits.maxEntries <= 0) return false;
		const entry = this.seen.get(id);
		return entry !== undefined && entry.at >= nowMs - limits.maxAgeMs;
	}

	add(id: string, nowMs: number, limits: DedupeLimits): void {
		if (limits.maxEntries <= 0) return;
		this.seen.delete(id);
		this.seen.set(id, { at: nowMs, seq: this.logStart + this.log.length });
		this.log.push(id);
		for (const [key, { at }] of this.seen) {
			if (this.seen.size <= limits.maxEntries && at >= nowMs - limits.maxAgeMs) break;
			this.seen.delete(key);
		}
		// Forget the log before the oldest id still held (amortised: only once it is twice the window).
		if (this.log.length > 2 * this.seen.size + 64) {
			const oldest = this.seen.values().next().value?.seq ?? this.logStart + this.log.length;
			this.log = this.log.slice(oldest - this.logStart);
			this.logStart = oldest;
		}
	}

	get size(): number {
		return this.seen.size;
	}

	/** The sequence number of the newest id accepted (-1 before the first). */
	get lastSeq(): number {
		return this.logStart + this.log.length - 1;
	}

	/** The ids accepted after sequence number `seq` and still held, oldest first, with when (ms). */
	*after(seq: number): Generator<[string, number]> {
		for (let i = Math.max(0, seq + 1 - this.logStart); i < this.log.length; i++) {
			const id = this.log[i];
			const entry = this.seen.get(id);
			if (entry?.seq === this.logStart + i) yield [id, entry.at];
		}
	}
}

const MAX_SCOPES = 1000;
const scopes = new Map<string, RecentIds>();

/** The process-local window of a scope; the least recently used scopes are forgotten beyond 1000. */
export function recentIds(scope: string): RecentIds {
	let window = scopes.get(scope);
	if (window) {
		scopes.delete(scope);
	} else {
		window = new RecentIds();
	}
	scopes.set(scope, window);
	while (scopes.size > MAX_SCOPES) {
		const oldest = scopes.keys().next().value as string;
		scopes.delete(oldest);
	}
	return window;
}
