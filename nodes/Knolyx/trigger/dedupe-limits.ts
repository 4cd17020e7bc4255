/** How many accepted ids the Knolyx Trigger remembers, and for how long. */

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
