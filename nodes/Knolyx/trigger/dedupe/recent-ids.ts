/**
 * Part of the duplicate check (../dedupe.ts, its only user): the ids accepted in this
 * process's memory, per scope: catches a resend that arrives while
 * the first execution still runs (its static data is not saved yet), and tells which ids a
 * concurrent save dropped from the stored window (see `missingFrom` in dedupe.ts).
 *
 * An id counts as accepted only once n8n holds its execution (`settle(id, true)`); until then it
 * is pending: a resend that arrives meanwhile is neither run nor called a duplicate (see
 * `isPending`), and a pending id is never written into another delivery's save, so an id whose
 * execution n8n could not create is not remembered anywhere.
 */
import { randomBytes } from 'node:crypto';

import type { DedupeLimits } from './stored-window';

/**
 * How long an id stays pending without an answer: n8n answers every delivery it took (2xx once
 * the execution exists, an error when it could not be created), so this bounds only an answer
 * that never comes (a process stuck on its database); after it, a resend runs.
 */
export const PENDING_MAX_MS = 2 * 60 * 1000;

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
	/** id → since when (ms) it waits for n8n to hold its execution. */
	private readonly pending = new Map<string, number>();

	has(id: string, nowMs: number, limits: DedupeLimits): boolean {
		if (limits.maxEntries <= 0) return false;
		const entry = this.seen.get(id);
		return entry !== undefined && entry.at >= nowMs - limits.maxAgeMs;
	}

	/** Whether `id` waits for its execution to be created (see `begin`). */
	isPending(id: string, nowMs: number): boolean {
		const since = this.pending.get(id);
		return since !== undefined && nowMs - since < PENDING_MAX_MS;
	}

	/** `id` was taken for a new execution that n8n is still to create. */
	begin(id: string, nowMs: number): void {
		this.pending.delete(id);
		this.pending.set(id, nowMs);
		for (const [key, since] of this.pending) {
			if (nowMs - since < PENDING_MAX_MS) break;
			this.pending.delete(key);
		}
	}

	/** The outcome of `begin(id)`: accepted when n8n holds the execution (`ran`), forgotten otherwise. */
	settle(id: string, ran: boolean, nowMs: number, limits: DedupeLimits): void {
		this.pending.delete(id);
		if (ran) this.add(id, nowMs, limits);
	}

	/** How many ids are pending (tests). */
	get pendingCount(): number {
		return this.pending.size;
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
