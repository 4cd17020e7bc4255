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
