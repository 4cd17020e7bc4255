/**
 * Remembers the message ids already accepted, so a message the platform sends
 * again (it resends what it thinks was not confirmed) starts no second execution.
 *
 * Two layers:
 * - `SeenStore`, kept in the workflow's static data: n8n saves it after the
 *   execution, so it survives restarts. Bounded by count and by age.
 * - `RecentIds`, kept in this process's memory: catches a resend that arrives
 *   while the first execution still runs (its static data is not saved yet),
 *   and the case where the static data in hand is known to be stale.
 *   Every save of the static data also carries these ids (`mergeRecent`), so
 *   concurrent deliveries that overwrite each other's save lose nothing for good.
 */

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

/** Reads a store from static data; anything malformed becomes an empty store. */
export function readSeenStore(value: unknown): SeenStore {
	if (value && typeof value === 'object') {
		const { ids, at } = value as { ids?: unknown; at?: unknown };
		if (
			Array.isArray(ids) &&
			Array.isArray(at) &&
			ids.length === at.length &&
			ids.every((id) => typeof id === 'string') &&
			at.every((t) => typeof t === 'number')
		) {
			return { ids: [...(ids as string[])], at: [...(at as number[])] };
		}
	}
	return { ids: [], at: [] };
}

/** Drops expired ids and, beyond the size limit, the oldest ones. Returns whether anything changed. */
export function pruneSeen(store: SeenStore, nowMs: number, limits: DedupeLimits): boolean {
	const cutoff = Math.floor((nowMs - limits.maxAgeMs) / 1000);
	const before = store.ids.length;
	let start = 0;
	while (start < store.at.length && store.at[start] < cutoff) start++;
	const overflow = store.ids.length - start - Math.max(0, limits.maxEntries);
	if (overflow > 0) start += overflow;
	if (start > 0) {
		store.ids.splice(0, start);
		store.at.splice(0, start);
	}
	return store.ids.length !== before;
}

export function hasSeen(store: SeenStore, id: string, nowMs: number, limits: DedupeLimits): boolean {
	if (limits.maxEntries <= 0) return false;
	const index = store.ids.lastIndexOf(id);
	if (index === -1) return false;
	return store.at[index] >= Math.floor((nowMs - limits.maxAgeMs) / 1000);
}

export function recordSeen(store: SeenStore, id: string, nowMs: number, limits: DedupeLimits): void {
	if (limits.maxEntries <= 0) return;
	store.ids.push(id);
	store.at.push(Math.floor(nowMs / 1000));
	pruneSeen(store, nowMs, limits);
}

/** Process-local window of accepted ids for one scope (workflow, node and test/production). */
export class RecentIds {
	private readonly seen = new Map<string, number>();

	has(id: string, nowMs: number, limits: DedupeLimits): boolean {
		if (limits.maxEntries <= 0) return false;
		const at = this.seen.get(id);
		return at !== undefined && at >= nowMs - limits.maxAgeMs;
	}

	add(id: string, nowMs: number, limits: DedupeLimits): void {
		if (limits.maxEntries <= 0) return;
		this.seen.delete(id);
		this.seen.set(id, nowMs);
		for (const [key, at] of this.seen) {
			if (this.seen.size <= limits.maxEntries && at >= nowMs - limits.maxAgeMs) break;
			this.seen.delete(key);
		}
	}

	get size(): number {
		return this.seen.size;
	}

	/** The ids with the time (ms) they were accepted, oldest first. */
	entries(): IterableIterator<[string, number]> {
		return this.seen.entries();
	}
}

/**
 * Adds to `store` every id of this process's window that `store` lacks (oldest
 * first, then pruned to the limits). Returns whether anything was added.
 *
 * Why: n8n saves a workflow's static data as one value, last writer wins, and a
 * webhook processor (or a main) loads it afresh for every delivery. Deliveries
 * handled at the same time each load the stored window, add their own id and
 * save; all but the last save lose the ids of the others. Folding this process's
 * recent ids into every save puts them back, so the saved window catches up with
 * everything this process accepted (measured in queue mode: 1000 events, see
 * README "Scaling").
 */
export function mergeRecent(store: SeenStore, recent: RecentIds, nowMs: number, limits: DedupeLimits): boolean {
	if (limits.maxEntries <= 0) return false;
	const have = new Set(store.ids);
	const cutoffMs = nowMs - limits.maxAgeMs;
	const missing: Array<[string, number]> = [];
	for (const [id, atMs] of recent.entries()) {
		if (atMs >= cutoffMs && !have.has(id)) missing.push([id, Math.floor(atMs / 1000)]);
	}
	if (missing.length === 0) return false;
	const merged: Array<[string, number]> = store.ids.map((id, i) => [id, store.at[i]] as [string, number]);
	merged.push(...missing);
	merged.sort((a, b) => a[1] - b[1]); // stable: equal seconds keep their order
	store.ids = merged.map(([id]) => id);
	store.at = merged.map(([, at]) => at);
	pruneSeen(store, nowMs, limits);
	return true;
}

/** Whether this process's window holds ids `store` lacks (cheap check before writing). */
export function lacksRecent(store: SeenStore, recent: RecentIds, nowMs: number, limits: DedupeLimits): boolean {
	if (limits.maxEntries <= 0 || recent.size === 0) return false;
	const have = new Set(store.ids);
	const cutoffMs = nowMs - limits.maxAgeMs;
	for (const [id, atMs] of recent.entries()) if (atMs >= cutoffMs && !have.has(id)) return true;
	return false;
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
