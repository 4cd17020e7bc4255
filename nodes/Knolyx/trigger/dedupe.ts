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
import { RecentIds, recentIds } from './dedupe/recent-ids';
import type { DedupeLimits } from './dedupe/stored-window';
import { hashOf, isString, readSeenStore, StoredWindow } from './dedupe/stored-window';

export type { DedupeLimits, SeenStore } from './dedupe/stored-window';
/** For tests and the benchmark: this process's window of a scope. */
export { RecentIds, recentIds };

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

/** The duplicate check of one delivery. */
interface Dedupe {
	/** Whether `id` was accepted before, within the window (this process's memory first, then the stored window). */
	isDuplicate(id: string): boolean;
	/** Remembers `id` as accepted: in memory, and in the stored window when it may be written. */
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

	return {
		isDuplicate(id) {
			if (off) return false;
			const key = hash(id);
			return (
				memory.has(key, nowMs, limits) ||
				stored.holdsSince(key, Math.floor((nowMs - limits.maxAgeMs) / 1000))
			);
		},
		accept(id) {
			if (off) return;
			memory.add(hash(id), nowMs, limits);
			if (writable) save(missingFrom(stored, writer, memory, nowMs, limits));
		},
		repair() {
			if (off || !writable) return;
			const missing = missingFrom(stored, writer, memory, nowMs, limits);
			if (missing.length > 0) save(missing);
		},
	};
}
