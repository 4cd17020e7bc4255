import { sleep } from 'n8n-workflow';

/**
 * Adaptive concurrency and rate control shared by every request of one node run.
 *
 * The platform does not publish its rate limit, so the limiter learns it:
 * - concurrency starts moderate and grows by one per success while nothing is
 *   throttled (doubling per round trip, like TCP slow start), then by about one
 *   per round trip once a throttle has been seen;
 * - a 429 or 503 halves the concurrency at once, pauses every request until the
 *   `Retry-After` time has passed, and caps the request rate a little below the
 *   rate that was being achieved when the throttle came; the cap is raised
 *   slowly (0.5 % per second) while answers stay good, so a limit that was
 *   lifted is found again; every answer to a request sent before the pause
 *   belongs to the same throttle and backs off nothing more.
 * A fixed concurrency (the user's option) switches all of this off.
 */
export interface LimiterOptions {
	/** Fixed number of requests in flight; 0 or undefined = adaptive. */
	fixedConcurrency?: number;
	/** Upper bound of the adaptive concurrency. */
	maxConcurrency?: number;
	/** Adaptive starting point. */
	initialConcurrency?: number;
}

const RATE_WINDOW_MS = 1000;

/**
 * The longest pause a throttle may impose on every request of the run; also the longest a
 * request waits in all (the retry policy's total wait). A longer Retry-After fails the item
 * that got it instead of holding the whole run (and a course's rule lock) for an hour.
 */
export const MAX_PAUSE_MS = 120_000;

/** How fast a learned rate cap is raised again while no throttle comes: 0.5 % per second. */
const CAP_GROWTH_PER_SECOND = 0.005;

export class AdaptiveLimiter {
	private limit: number;

	private readonly max: number;

	private readonly fixed: boolean;

	private inFlight = 0;

	private waiters: Array<() => void> = [];

	private slowStart = true;

	private pausedUntil = 0;

	/** Requests per second allowed, learned from throttles; Infinity until one is seen. */
	private rateCap = Infinity;

	private nextSlotAt = 0;

	/** When the rate cap was last set or raised. */
	private capRaisedAt = 0;

	private readonly completions: number[] = [];

	/** Figures a benchmark or a test may read. */
	readonly metrics = { throttles: 0, maxInFlight: 0, requests: 0 };

	constructor(options: LimiterOptions = {}) {
		const fixed = options.fixedConcurrency ?? 0;
		this.fixed = fixed > 0;
		this.max = this.fixed ? fixed : Math.max(1, options.maxConcurrency ?? 100);
		this.limit = this.fixed ? fixed : Math.min(this.max, Math.max(1, options.initialConcurrency ?? 8));
	}

	get concurrency(): number {
		return Math.floor(this.limit);
	}

	/** Wait for a slot (concurrency, pause and rate cap), run `task`, release the slot. */
	async run<T>(task: () => Promise<T>): Promise<T> {
		await this.acquire();
		try {
			return await task();
		} finally {
			this.release();
		}
	}

	private async acquire(): Promise<void> {
		while (this.inFlight >= Math.floor(this.limit)) {
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
		this.inFlight++;
		this.metrics.maxInFlight = Math.max(this.metrics.maxInFlight, this.inFlight);
		// Pause and rate cap are waited for while holding the slot, so the number of
		// requests released together after a pause never exceeds the concurrency.
		for (;;) {
			const now = Date.now();
			if (this.pausedUntil > now) {
				await sleep(this.pausedUntil - now);
				continue;
			}
			if (Number.isFinite(this.rateCap)) {
				const slot = Math.max(now, this.nextSlotAt);
				this.nextSlotAt = slot + 1000 / this.rateCap;
				if (slot > now) {
					await sleep(slot - now);
					if (this.pausedUntil > Date.now()) continue;
				}
			}
			break;
		}
		this.metrics.requests++;
	}

	private release(): void {
		this.inFlight--;
		this.wakeWaiters();
	}

	private wakeWaiters(): void {
		// A woken waiter checks the limit again, so waking one too many is harmless.
		let free = Math.floor(this.limit) - this.inFlight;
		while (free-- > 0 && this.waiters.length > 0) (this.waiters.shift() as () => void)();
	}

	/** A request was answered well: grow. */
	onSuccess(): void {
		const now = Date.now();
		this.completions.push(now);
		while (this.completions.length > 0 && this.completions[0] < now - RATE_WINDOW_MS) this.completions.shift();
		if (this.fixed) return;
		if (this.slowStart) this.limit = Math.min(this.max, this.limit + 1);
		else this.limit = Math.min(this.max, this.limit + 1 / Math.max(1, this.limit));
		if (Number.isFinite(this.rateCap)) {
			// Per second of sending since the last throttle, not per success: 0.2 % per
			// success was +20 %/s at 100 requests/s, back over the limit within a second
			// of every throttle, and every throttle pauses all requests for Retry-After.
			const from = Math.max(this.capRaisedAt, this.pausedUntil);
			if (now > from) this.rateCap *= Math.exp((CAP_GROWTH_PER_SECOND * (now - from)) / 1000);
			this.capRaisedAt = now;
		}
		this.wakeWaiters();
	}

	/**
	 * The platform throttled (429) or was unavailable (503): back off everyone.
	 * Only a rate limit (429) teaches a request rate: the rate achieved when a 503
	 * came says nothing about a limit, and learning from it would cap a run that met
	 * a passing outage at the rate of its first few answers (as low as 1 per second).
	 */
	onThrottle(retryAfterMs: number, rateLimited = true): void {
		this.metrics.throttles++;
		const now = Date.now();
		// Answers to requests sent before the current pause began are the same throttle:
		// back off once per pause, not once per answer (a burst of 100 429s halved the
		// concurrency down to 1 and lowered the cap 100 times).
		const sameThrottle = this.pausedUntil > now;
		const resumedAt = this.pausedUntil;
		const pause = Math.min(Math.max(0, retryAfterMs), MAX_PAUSE_MS);
		this.pausedUntil = Math.max(this.pausedUntil, now + pause);
		this.nextSlotAt = this.pausedUntil;
		if (this.fixed || sameThrottle) return;
		this.slowStart = false;
		this.limit = Math.max(1, this.limit / 2);
		while (this.completions.length > 0 && this.completions[0] < now - RATE_WINDOW_MS) this.completions.shift();
		// The rate since sending resumed after the last pause (a pause inside the window
		// would make the rate look low, and the cap now rises slowly).
		const since = Math.max(now - RATE_WINDOW_MS, resumedAt);
		const answered = this.completions.filter((at) => at >= since).length;
		const achieved = (answered * 1000) / Math.max(RATE_WINDOW_MS / 4, now - since);
		if (rateLimited && achieved > 0) this.rateCap = Math.min(this.rateCap, Math.max(1, achieved * 0.95));
		this.capRaisedAt = now;
	}
}
