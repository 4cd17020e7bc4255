/**
 * Remembers the message ids already accepted, so a message the platform sends
 * again (it resends what it thinks was not confirmed) starts no second execution.
 *
 * `openDedupe` is the one entry point of a delivery: is this id a duplicate,
 * accept it, or repair the stored window after a duplicate. Behind it, two layers:
 * - the stored window (`SeenStore`), kept in the node's static data under `seen`:
 *   n8n saves it with the workflow, so it survives restarts. Bounded by count and age.
 * - `RecentIds`, kept in this process's memory: catches a resend that arrives while
 *   the first execution still runs (its static data is not saved yet), and puts back
 *   into every save the ids a concurrent save dropped (see `missingFrom`).
 *
 * Every step costs the same whatever the window holds while the static data stays
 * in memory between deliveries: nothing scans or copies the stored window. A window
 * loaded afresh (n8n loads static data for each delivery; its own parse, proxy and
 * save of it are proportional to it anyway) is checked once, in full.
 */
import type { IDataObject } from 'n8n-workflow';
import { isRecord } from '../helpers/objects';

export interface DedupeLimits {
	/** How many ids are kept; the oldest are dropped first. 0 turns duplicate detection off. */
	maxEntries: number;
	/** How long an id is kept. */
	maxAgeMs: number;
}

export const DEFAULT_DEDUPE_WINDOW = 5000;
export const DEDUPE_MAX_AGE_DAYS = 7;
export const DEFAULT_LIMITS: DedupeLimits = {
	maxEntries: DEFAULT_DEDUPE_WINDOW,
	maxAgeMs: DEDUPE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
};

/**
 * Parallel arrays, oldest first. Arrays, not an object keyed by id: an object
 * would reorder integer-like keys and break the eviction order. `at` holds
 * seconds since the epoch (smaller static data).
 */
export interface SeenStore {
	ids: string[];
	at: number[];
}


/** Stored windows already checked, by their `ids` array (the one n8n's object holds): the `at` array they were checked with. */
const checked = new WeakMap<string[], number[]>();

/** The store inside static data when it is well-formed (checked once per array), else undefined. No copy. */
function wellFormed(value: unknown): SeenStore | undefined {
	if (!isRecord(value)) return undefined;
	const { ids, at } = value;
	if (!Array.isArray(ids) || !Array.isArray(at) || ids.length !== at.length) return undefined;
	if (checked.get(ids as string[]) === at) return value as unknown as SeenStore;
	if (!ids.every((id) => typeof id === 'string') || !at.every((t) => typeof t === 'number')) return undefined;
	checked.set(ids as string[], at as number[]);
	return value as unknown as SeenStore;
}

/** A copy of a store read from static data; anything malformed becomes an empty store. */
export function readSeenStore(value: unknown): SeenStore {
	const store = wellFormed(value);
	return store ? { ids: [...store.ids], at: [...store.at] } : { ids: [], at: [] };
}

/**
 * Lookups in a stored window. The first lookups in a given `ids` array scan it
 * (a store n8n has just loaded is asked once or twice); from the third on, a
 * count of each id answers, kept in step with every change made here. An index
 * that no longer matches its array (changed elsewhere) is dropped and rebuilt.
 */
interface StoreIndex {
	counts: Map<string, number>;
	length: number;
	last: string | undefined;
}
const SCANS_BEFORE_INDEX = 2;
const indexes = new WeakMap<string[], StoreIndex | number>();
const isIndex = (value: StoreIndex | number | undefined): value is StoreIndex => typeof value === 'object';

class StoredWindow {
	constructor(readonly store: SeenStore) {}

	private index(): StoreIndex | undefined {
		const { ids } = this.store;
		const index = indexes.get(ids);
		if (isIndex(index)) {
			if (index.length === ids.length && index.last === ids[ids.length - 1]) return index;
		} else if ((index ?? 0) < SCANS_BEFORE_INDEX) {
			indexes.set(ids, (index ?? 0) + 1);
			return undefined;
		}
		const counts = new Map<string, number>();
		for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
		const built = { counts, length: ids.length, last: ids[ids.length - 1] };
		indexes.set(ids, built);
		return built;
	}

	/** Whether `id` is stored with a time at or after `cutoffSec`. */
	holdsSince(id: string, cutoffSec: number): boolean {
		const index = this.index();
		if (index && !index.counts.has(id)) return false;
		const at = this.store.ids.lastIndexOf(id); // found: resends are recent, so from the end
		return at !== -1 && this.store.at[at] >= cutoffSec;
	}

	/** Adds entries (oldest first) in time order; they belong near the end, so the search starts there. */
	insert(entries: ReadonlyArray<readonly [string, number]>): void {
		const { ids, at } = this.store;
		const index = indexes.get(ids);
		for (const [id, atSec] of entries) {
			let position = ids.length;
			while (position > 0 && at[position - 1] > atSec) position--;
			if (position === ids.length) {
				ids.push(id);
				at.push(atSec);
			} else {
				ids.splice(position, 0, id);
				at.splice(position, 0, atSec);
			}
			if (isIndex(index)) index.counts.set(id, (index.counts.get(id) ?? 0) + 1);
		}
		this.touched(index);
	}

	/** Drops expired ids and, beyond the size limit, the oldest ones. */
	prune(nowMs: number, limits: DedupeLimits): void {
		const { ids, at } = this.store;
		const cutoff = Math.floor((nowMs - limits.maxAgeMs) / 1000);
		let start = 0;
		while (start < at.length && at[start] < cutoff) start++;
		start += Math.max(0, ids.length - start - Math.max(0, limits.maxEntries));
		if (start === 0) return;
		const index = indexes.get(ids);
		const dropped = ids.splice(0, start);
		at.splice(0, start);
		if (isIndex(index)) {
			for (const id of dropped) {
				const count = (index.counts.get(id) ?? 1) - 1;
				if (count > 0) index.counts.set(id, count);
				else index.counts.delete(id);
			}
		}
		this.touched(index);
	}

	private touched(index: StoreIndex | number | undefined): void {
		if (!isIndex(index)) return;
		index.length = this.store.ids.length;
		index.last = this.store.ids[this.store.ids.length - 1];
	}
}

/** Process-local window of accepted ids for one scope (workflow, node and test/production). */
export class RecentIds {
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

	/** When `id` was accepted (ms) and its place in the order of acceptance, if it is held. */
	entryOf(id: string): { at: number; seq: number } | undefined {
		return this.seen.get(id);
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

/** Stored windows (their `ids` arrays) this process wrote and still holds: no other writer has touched them. */
const ownWindows = new WeakSet<string[]>();

/**
 * The ids of this process's window that the stored window lacks, oldest first.
 *
 * Why: n8n saves a workflow's static data as one value, last writer wins, and a
 * webhook processor (or a main) loads it afresh for every delivery. Deliveries
 * handled at the same time each load the stored window, add their own id and
 * save; all but the last save lose the ids of the others. Every save here
 * carries every id this process accepted up to then.
 *
 * So a stored window this process wrote itself and still holds (the same object,
 * as when static data stays in memory between deliveries) lacks only ids accepted
 * after its newest entry: only those are looked at, whatever the window holds.
 * A window loaded afresh may come from another process's save (queue mode,
 * several webhook processors) or from before a restart and may lack any of them:
 * every id of this process's window is looked up (O(1) each with the index).
 */
function missingFrom(window: StoredWindow, recent: RecentIds, nowMs: number, limits: DedupeLimits): Array<[string, number]> {
	const { ids, at } = window.store;
	let newest = -1;
	if (ids.length > 0 && ownWindows.has(ids)) {
		const entry = recent.entryOf(ids[ids.length - 1]);
		if (entry !== undefined && at[ids.length - 1] === Math.floor(entry.at / 1000)) newest = entry.seq;
	}
	const cutoffMs = nowMs - limits.maxAgeMs;
	const missing: Array<[string, number]> = [];
	for (const [id, atMs] of recent.after(newest)) {
		const atSec = Math.floor(atMs / 1000);
		if (atMs >= cutoffMs && !window.holdsSince(id, atSec)) missing.push([id, atSec]);
	}
	return missing;
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

/** The duplicate check of one delivery. */
export interface Dedupe {
	/** Whether `id` was accepted before, within the window (this process's memory first, then the stored window). */
	isDuplicate(id: string): boolean;
	/** Remembers `id` as accepted: in memory, and in the stored window when it may be written. */
	accept(id: string): void;
	/** After a duplicate: puts back into the stored window the ids of this process a concurrent save dropped. */
	repair(): void;
}

export interface DedupeOptions {
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
	const loaded = isRecord(nodeStaticData.seen) ? wellFormed(nodeStaticData.seen[kind]) : undefined;
	const stored = new StoredWindow(loaded ?? { ids: [], at: [] });

	/** Writes the stored window back: assigned again, so n8n sees the change whatever it wrapped. */
	const save = () => {
		ownWindows.add(stored.store.ids);
		const seen = isRecord(nodeStaticData.seen) ? nodeStaticData.seen : {};
		seen[kind] = stored.store;
		nodeStaticData.seen = seen as IDataObject;
	};

	return {
		isDuplicate(id) {
			if (off) return false;
			return memory.has(id, nowMs, limits) || stored.holdsSince(id, Math.floor((nowMs - limits.maxAgeMs) / 1000));
		},
		accept(id) {
			if (off) return;
			memory.add(id, nowMs, limits);
			if (!writable) return;
			stored.insert([...missingFrom(stored, memory, nowMs, limits)]);
			stored.prune(nowMs, limits);
			save();
		},
		repair() {
			if (off || !writable) return;
			const missing = missingFrom(stored, memory, nowMs, limits);
			if (missing.length === 0) return;
			stored.insert(missing);
			stored.prune(nowMs, limits);
			save();
		},
	};
}
