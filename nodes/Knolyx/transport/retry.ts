import { networkErrorCode } from './errors';
import { MAX_PAUSE_MS } from './limiter';

/** When a failed request is sent again, and how long the node waits before it does. */

/**
 * A request the platform may or may not have applied: the connection was lost before the
 * answer, or the answer was a 5xx (a gateway's 502/503/504, or a failure after the write).
 * Only a read can tell.
 */
export function outcomeUnknown(error: unknown): boolean {
	if (networkErrorCode(error)) return true;
	const status = Number((error as { httpCode?: unknown } | undefined)?.httpCode);
	return status >= 500 && status < 600;
}

export interface RetryPolicy {
	maxAttempts: number;
	/** Give up when the next wait would push the total waiting past this. */
	maxTotalWaitMs: number;
	baseDelayMs: number;
	maxDelayMs: number;
	timeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
	maxAttempts: 8,
	maxTotalWaitMs: MAX_PAUSE_MS,
	baseDelayMs: 250,
	maxDelayMs: 15_000,
	timeoutMs: 30_000,
};

export const RETRIED_STATUSES = new Set([429, 502, 503, 504]);
export const THROTTLE_STATUSES = new Set([429, 503]);
/** Answers of a gateway in front of the platform: the request may have been applied behind it. */
export const AMBIGUOUS_STATUSES = new Set([502, 503, 504]);
/**
 * Parses Retry-After: whole seconds or an HTTP date (0 when in the past). Undefined when
 * absent, malformed or negative. Anything but a positive wait gets the normal backoff.
 */
export function parseRetryAfter(value: unknown, now = Date.now()): number | undefined {
	const text = Array.isArray(value) ? value[0] : value;
	if (typeof text !== 'string' && typeof text !== 'number') return undefined;
	const raw = String(text).trim();
	if (/^[+-]?\d+(\.\d+)?$/.test(raw)) {
		const ms = Math.round(Number(raw) * 1000);
		return ms > 0 ? ms : undefined;
	}
	// An HTTP date names a weekday and a month; Date.parse alone would read "-5" as a year.
	if (!/[a-z]{3}/i.test(raw)) return undefined;
	const date = Date.parse(raw);
	if (Number.isNaN(date)) return undefined;
	return Math.max(0, date - now);
}

export function backoff(attempt: number, policy: RetryPolicy): number {
	const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
	// "Equal jitter": at least half the ceiling, so retries spread but never hammer.
	return Math.round(ceiling / 2 + Math.random() * (ceiling / 2));
}
