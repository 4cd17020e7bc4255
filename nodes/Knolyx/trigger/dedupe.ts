/**
 * Remembers the message ids already accepted, so a message the platform sends
 * again (it resends what it thinks was not confirmed) starts no second execution.
 *
 * `openDedupe` is the one entry point of a delivery: is this id a duplicate,
 * accept it, or repair the stored window after a duplicate. Behind it, two layers, each in
 * its own file:
 * - the stored window (`SeenStore`, seen-store.ts), kept in the node's static data under `seen`:
 *   n8n saves it with the workflow, so it survives restarts. Bounded by count and age.
 * - `RecentIds` (recent-ids.ts), kept in this process's memory: catches a resend that arrives while
 *   the first execution still runs (its static data is not saved yet), and puts back
 *   into every save the ids a concurrent save dropped (see `missingFrom`).
 */
import type { IDataObject } from 'n8n-workflow';

import { isRecord } from '../helpers/objects';
import { PENDING_MAX_MS, RecentIds, recentIds } from './dedupe/recent-ids';
import type { DedupeLimits } from './dedupe/stored-window';
import { hashOf, isString, readSeenStore, StoredWindow } from './dedupe/stored-window';

export type { DedupeLimits, SeenStore } from './dedupe/stored-window';
/** For tests and the benchmark: this process's window of a scope. */
export { PENDING_MAX_MS, RecentIds, recentIds };

export const DEFAULT_DEDUPE_WINDOW = 5000;
export const DEDUPE_MAX_AGE_DAYS = 7;
export const DEFAULT_LIMITS: DedupeLimits = {
	maxEntries: DEFAULT_DEDUPE_WINDOW,
	maxAgeMs: DEDUPE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
};

/**
 * The window behind a stored object this process saved and still holds (as when static
 * data stays in memory between deliveries): reused, with its index, instead of read again.
 * n8n loads static data afresh for each delivery, so there each delivery reads its own.
 */
const windows = new WeakMap<object, StoredWindow>();

/** Below this many ids to look up, the stored window is searched for each; from it on, indexed once. */
const LOOKUPS_BEFORE_INDEX = 8;

/**
 * The ids (hashes) of this process's window that the stored window lacks, oldest first.
 *
 * Why: n8n saves a workflow's static data as one value, last writer wins, and a
 * webhook processor (or a main) loads it afresh for every delivery. Deliveries
 * handled at the same time each load the stored window, add their own id and
 * save; all but the last save lose the ids of the others. Every save here
 * carries every id this process accepted up to then, and says so in `writer`.
 *
 * So a stored window whose last save this process's window made (`writer`) lacks
 * only ids accepted after the sequence number written there: only those are looked
 * at, whatever the window holds. A window another process saved (queue mode, several
 * webhook processors), or one from before a restart, may lack any of them: every
 * id of this process's window is looked up.
 */
function missingFrom(
	window: StoredWindow,
	writer: string | undefined,
	recent: RecentIds,
	nowMs: number,
	limits: DedupeLimits,
): Array<[string, number]> {
	const [by, seq] = (writer ?? '').split(':');
	const newest = by === recent.writer && /^\d+$/.test(seq) ? Number(seq) : -1;
	const cutoffMs = nowMs - limits.maxAgeMs;
	const candidates = [...recent.after(newest)].filter(([, atMs]) => atMs >= cutoffMs);
	const index = candidates.length >= LOOKUPS_BEFORE_INDEX ? window.newestTimes() : undefined;
	const missing: Array<[string, number]> = [];
	for (const [hash, atMs] of candidates) {
		const atSec = Math.floor(atMs / 1000);
		const held = index ? (index.get(hash) ?? -1) >= atSec : window.holdsSince(hash, atSec);
		if (!held) missing.push([hash, atSec]);
	}
	return missing;
}

/**
 * What is known of an id: `seen` (accepted before, within the window: in this process's
 * memory or in the stored window), `pending` (taken by this process for an execution n8n has
 * not confirmed yet), or `new`.
 */
export type IdStatus = 'new' | 'seen' | 'pending';

/** An id taken for a new execution, until n8n's answer says whether the execution exists. */
export interface PendingId {
	/** `ran`: n8n holds the execution (the id is accepted); otherwise it is forgotten here. */
	settle(ran: boolean): void;
}

/** The duplicate check of one delivery. */
interface Dedupe {
	status(id: string): IdStatus;
	/** Whether `id` was accepted before, within the window, or is pending. */
	isDuplicate(id: string): boolean;
	/**
	 * Takes `id` for a new execution: written into the stored window (when it may be written),
	 * which n8n saves only with an execution it created; in memory, pending until settled.
	 */
	begin(id: string): PendingId;
	/** Remembers `id` as accepted at once (begin, settled as run). */
	accept(id: string): void;
	/** After a duplicate: puts back into the stored window the ids of this process a concurrent save dropped. */
	repair(): void;
}

interface DedupeOptions {
	/** Workflow, node and test/production: whose ids these are. */
	scope: string;
	/** Which stored window of the node (test and production keep their own). */
	kind: string;
	limits: DedupeLimits;
	nowMs: number;
	/**
	 * Whether the static data in hand may be written. Static data that does not know
	 * the registration yet (its creation PING raced n8n's save) must not be: it would
	 * overwrite the newer copy. Accepted ids then live in memory until the next save.
	 */
	writable: boolean;
}

/** The dedupe of one delivery over the node's static data (`getWorkflowStaticData('node')`). */
export function openDedupe(nodeStaticData: IDataObject, options: DedupeOptions): Dedupe {
	const { kind, limits, nowMs, writable } = options;
	const off = limits.maxEntries <= 0;
	const memory = recentIds(options.scope);
	const record: unknown = isRecord(nodeStaticData.seen) ? nodeStaticData.seen[kind] : undefined;
	const held = isRecord(record) ? windows.get(record) : undefined;
	const writer = isRecord(record) && isString(record.writer) ? record.writer : undefined;
	const stored = held ?? new StoredWindow(readSeenStore(record));
	let hashed: [string, string] | undefined;
	const hash = (id: string) => (hashed?.[0] === id ? hashed[1] : (hashed = [id, hashOf(id)])[1]);

	/** Adds what the stored window lacks, prunes, and writes it back (assigned again, so n8n sees the change). */
	const save = (missing: Array<[string, number]>) => {
		stored.insert(missing);
		stored.prune(nowMs, limits);
		const saved = stored.toStore(`${memory.writer}:${memory.lastSeq}`);
		if (isRecord(record)) windows.delete(record);
		windows.set(saved, stored);
		const seen = isRecord(nodeStaticData.seen) ? nodeStaticData.seen : {};
		seen[kind] = saved as unknown as IDataObject;
		nodeStaticData.seen = seen as IDataObject;
	};

	const status = (id: string): IdStatus => {
		if (off) return 'new';
		const key = hash(id);
		if (
			memory.has(key, nowMs, limits) ||
			stored.holdsSince(key, Math.floor((nowMs - limits.maxAgeMs) / 1000))
		)
			return 'seen';
		return memory.isPending(key, nowMs) ? 'pending' : 'new';
	};
	const begin = (id: string): PendingId => {
		if (off) return { settle: () => undefined };
		const key = hash(id);
		memory.begin(key, nowMs);
		// Only this id and the ids this process accepted: never another delivery's pending id.
		if (writable)
			save([
				...missingFrom(stored, writer, memory, nowMs, limits),
				[key, Math.floor(nowMs / 1000)],
			]);
		let settled = false;
		return {
			settle(ran) {
				if (settled) return;
				settled = true;
				memory.settle(key, ran, nowMs, limits);
			},
		};
	};

	return {
		status,
		isDuplicate: (id) => status(id) !== 'new',
		begin,
		accept(id) {
			begin(id).settle(true);
		},
		repair() {
			if (off || !writable) return;
			const missing = missingFrom(stored, writer, memory, nowMs, limits);
			if (missing.length > 0) save(missing);
		},
	};
}

/**
 * Keeps, in an execution's copy of the node's static data, every id this process accepted up to
 * the moment n8n writes that copy out. Why: n8n saves a workflow's static data whole, from the
 * copy an execution read when it started, whenever a node of it changed some (a Code node keeping
 * data of its own): an execution that ends after another delivery was accepted would save a copy
 * without that delivery's id, and after a restart its resend would run again. n8n writes static
 * data out as JSON (its save, and on n8n 2 each Code node's task); the copy answers with itself
 * and the ids it lacks, and is not changed (n8n's changed flag is untouched).
 */
export function carryAcceptedIds(
	nodeStaticData: IDataObject,
	options: Omit<DedupeOptions, 'nowMs' | 'writable'>,
): void {
	if (options.limits.maxEntries <= 0) return;
	Object.defineProperty(nodeStaticData, 'toJSON', {
		configurable: true,
		enumerable: false,
		writable: true,
		value(this: IDataObject): IDataObject {
			const copy: IDataObject = { ...this };
			if (isRecord(this.seen)) copy.seen = { ...this.seen };
			openDedupe(copy, { ...options, nowMs: Date.now(), writable: true }).repair();
			return copy;
		},
	});
}
