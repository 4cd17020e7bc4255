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
 *   slowly while answers stay good, so a limit that was lifted is found again.
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
		if (Number.isFinite(this.rateCap)) this.rateCap *= 1.002;
		this.wakeWaiters();
	}

	/** The platform throttled (429) or was unavailable (503): back off everyone. */
	onThrottle(retryAfterMs: number): void {
		this.metrics.throttles++;
		const now = Date.now();
		this.pausedUntil = Math.max(this.pausedUntil, now + retryAfterMs);
		if (this.fixed) return;
		this.slowStart = false;
		this.limit = Math.max(1, this.limit / 2);
		while (this.completions.length > 0 && this.completions[0] < now - RATE_WINDOW_MS) this.completions.shift();
		const achieved = (this.completions.length * 1000) / RATE_WINDOW_MS;
		if (achieved > 0) this.rateCap = Math.min(this.rateCap, Math.max(1, achieved * 0.95));
		this.nextSlotAt = this.pausedUntil;
	}
}
