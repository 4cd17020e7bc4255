import { sleep } from 'n8n-workflow';

/**
 * Adaptive concurrency and rate control shared by every request of one node run.
 *
 * The platform does not publish its rate limit, so the limiter learns it from what the transport
 * reports of each request it let through (`run` hands back `report`, the one channel):
 * - concurrency starts at `initialConcurrency` and grows by SLOW_START_STEP per good answer
 *   until a throttle is seen, then by about one per round trip;
 * - the first 429 halves the concurrency, pauses every request for its `Retry-After`, and learns
 *   the rate: the requests accepted among those sent in the RATE_WINDOW_MS before the refused
 *   one, less MARGIN. From then on a token bucket paces sending at that rate (BURST_MS of it at
 *   once at most);
 * - a later 429 at that pace is answers bunching at the platform: the refused request waits its
 *   `Retry-After` (the transport sleeps it), the rate drops by EPISODE_CUT at most once a window,
 *   nobody else stops. More 429s in a window than ESCALATE_SHARE of the rate, or a `Retry-After`
 *   over two windows, pause everyone and learn the rate anew (at most 30 % lower at once);
 * - a 503 pauses everyone for its wait and halves the concurrency, but teaches no rate;
 * - while answers stay good the rate rises again (CAP_GROWTH_*), so a lifted limit is found;
 *   answers to requests sent before a reaction belong to it and back off nothing more.
 * A fixed concurrency (the user's option) switches all of this off (a throttle still pauses every
 * request for `Retry-After`).
 */
export interface LimiterOptions {
	/** Fixed number of requests in flight; 0 or undefined = adaptive. */
	fixedConcurrency?: number;
	/** Upper bound of the adaptive concurrency. */
	maxConcurrency?: number;
	/** Adaptive starting point. */
	initialConcurrency?: number;
}

/**
 * Slow start: the concurrency grows by this much per success (×1.5 per round trip). Every
 * request in flight when the first 429 comes is refused as well: doubling per round trip had
 * about as many in flight as the limit itself.
 */
const SLOW_START_STEP = 0.5;

/** The window a rate limit is assumed to be counted in. */
const RATE_WINDOW_MS = 1000;

/**
 * The longest pause a throttle may impose on every request of the run; also the longest a
 * request waits in all (the retry policy's total wait). A longer Retry-After fails the item
 * that got it instead of holding the whole run (and a course's rule lock) for an hour.
 */
export const MAX_PAUSE_MS = 120_000;

/**
 * How fast a learned rate cap is raised again while no throttle comes: 1 % per second, doubling
 * every 5 s without a 429 (a cap learned by a client slowed down by its machine is too low), at
 * most 3 % per second.
 */
const CAP_GROWTH_PER_SECOND = 0.01;
const CAP_GROWTH_DOUBLES_MS = 5000;
const CAP_GROWTH_MAX = 0.03;

/** Requests are sent this far under the learned limit. */
const MARGIN = 0.03;

/** How much a single (cheap) 429 episode lowers the rate cap. */
const EPISODE_CUT = 0.02;

/** More 429 answers than this share of the rate cap within one window: the limit has changed, pause and learn it anew. */
const ESCALATE_SHARE = 0.25;

/** The token bucket holds this many milliseconds of the rate cap: the largest burst after a stall. */
const BURST_MS = 50;

/**
 * What came of a request the limiter let through, as the transport reports it:
 * - `good`: answered as asked: the concurrency and the rate may grow;
 * - `other`: the platform took it but refused it (a 400, a 404, a 5xx that is no throttle): it
 *   counts toward the rate the platform accepts, nothing grows;
 * - `throttled`: a 429 (`rateLimited`) or a 503, and how long the transport waits before
 *   sending it again (0 when it does not).
 */
export type Outcome =
	| { kind: 'good' }
	| { kind: 'other' }
	| { kind: 'throttled'; waitMs: number; rateLimited: boolean };

/** A task's result, and the one way to tell the limiter what came of it (once per answer). */
export interface Passed<T> {
	result: T;
	report(outcome: Outcome): void;
}

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

	/** Token bucket of the rate cap: tokens available at `tokensAt`. */
	private tokens = 0;

	private tokensAt = 0;

	/** Requests holding a concurrency slot and waiting for the pause or the rate (first come, first sent). */
	private gateQueue: Array<() => void> = [];

	private pumping = false;

	/** When the rate cap was last set or raised. */
	private capRaisedAt = 0;

	/** Send times of requests the platform accepted (any answer but 429/503), last two windows. */
	private readonly accepted: number[] = [];

	/** When the limiter last reacted to a throttle: answers to requests sent before belong to it. */
	private reactedAt = -Infinity;

	/** Answer times of the 429s of the last window. */
	private readonly refusals: number[] = [];

	/** Figures a benchmark or a test may read. */
	readonly metrics = { throttles: 0, maxInFlight: 0, requests: 0, pauses: 0 };

	constructor(options: LimiterOptions = {}) {
		const fixed = options.fixedConcurrency ?? 0;
		this.fixed = fixed > 0;
		this.max = this.fixed ? fixed : Math.max(1, options.maxConcurrency ?? 100);
		this.limit = this.fixed
			? fixed
			: Math.min(this.max, Math.max(1, options.initialConcurrency ?? 8));
	}

	get concurrency(): number {
		return Math.floor(this.limit);
	}

	/**
	 * Waits for a slot (concurrency, pause and rate cap), runs `task`, releases the slot. What
	 * came of the request is told through `report` (a task that threw got no answer: nothing to
	 * tell).
	 */
	async run<T>(task: () => Promise<T>): Promise<Passed<T>> {
		await this.acquire();
		const sentAt = Date.now();
		let result: T;
		try {
			result = await task();
		} finally {
			this.release();
		}
		return { result, report: (outcome) => this.answered(sentAt, outcome) };
	}

	private answered(sentAt: number, outcome: Outcome): void {
		if (outcome.kind === 'throttled') {
			this.onThrottle(sentAt, outcome.waitMs, outcome.rateLimited);
			return;
		}
		this.accepted.push(sentAt);
		trim(this.accepted, sentAt - 2 * RATE_WINDOW_MS);
		if (outcome.kind === 'good') this.onSuccess();
	}

	private async acquire(): Promise<void> {
		while (this.inFlight >= Math.floor(this.limit)) {
			await new Promise<void>((resolve) => this.waiters.push(resolve));
		}
		this.inFlight++;
		this.metrics.maxInFlight = Math.max(this.metrics.maxInFlight, this.inFlight);
		// Pause and rate cap are waited for while holding the slot, so the number of
		// requests released together after a pause never exceeds the concurrency.
		if (
			this.gateQueue.length > 0 ||
			this.pausedUntil > Date.now() ||
			Number.isFinite(this.rateCap)
		) {
			await new Promise<void>((resolve) => {
				this.gateQueue.push(resolve);
				void this.pump();
			});
		}
		this.metrics.requests++;
	}

	/** Lets the queued requests go one by one, as the pause and the token bucket allow. */
	private async pump(): Promise<void> {
		if (this.pumping) return;
		this.pumping = true;
		try {
			while (this.gateQueue.length > 0) {
				const wait = this.waitBeforeNext(Date.now());
				if (wait > 0) {
					await sleep(wait);
					continue;
				}
				(this.gateQueue.shift() as () => void)();
			}
		} finally {
			this.pumping = false;
		}
	}

	/** 0 and a token taken when a request may go now, else how long to wait. */
	private waitBeforeNext(now: number): number {
		if (this.pausedUntil > now) return this.pausedUntil - now;
		if (!Number.isFinite(this.rateCap)) return 0;
		const depth = Math.max(1, (this.rateCap * BURST_MS) / 1000);
		const from = Math.max(this.tokensAt, this.pausedUntil);
		if (now > from)
			this.tokens = Math.min(depth, this.tokens + ((now - from) * this.rateCap) / 1000);
		this.tokensAt = now;
		if (this.tokens >= 1) {
			this.tokens -= 1;
			return 0;
		}
		return Math.max(1, Math.ceil(((1 - this.tokens) * 1000) / this.rateCap));
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
	private onSuccess(): void {
		if (this.fixed) return;
		const now = Date.now();
		if (this.slowStart) this.limit = Math.min(this.max, this.limit + SLOW_START_STEP);
		else this.limit = Math.min(this.max, this.limit + 1 / Math.max(1, this.limit));
		if (Number.isFinite(this.rateCap)) {
			// Per second of sending since the last throttle, not per success: 0.2 % per
			// success was +20 %/s at 100 requests/s, back over the limit within a second
			// of every throttle.
			const from = Math.max(this.capRaisedAt, this.pausedUntil);
			const quiet = Math.max(0, now - Math.max(this.reactedAt, this.pausedUntil));
			const growth = Math.min(
				CAP_GROWTH_MAX,
				CAP_GROWTH_PER_SECOND * 2 ** (quiet / CAP_GROWTH_DOUBLES_MS),
			);
			if (now > from) this.rateCap *= Math.exp((growth * (now - from)) / 1000);
			this.capRaisedAt = Math.max(now, this.capRaisedAt);
		}
		this.wakeWaiters();
	}

	/**
	 * The platform throttled (429) or was unavailable (503).
	 * Only a rate limit (429) teaches a request rate: the rate achieved when a 503
	 * came says nothing about a limit, and learning from it would cap a run that met
	 * a passing outage at the rate of its first few answers (as low as 1 per second).
	 */
	private onThrottle(sentAt: number, retryAfterMs: number, rateLimited: boolean): void {
		this.metrics.throttles++;
		const now = Date.now();
		const pause = Math.min(Math.max(0, retryAfterMs), MAX_PAUSE_MS);
		if (this.fixed) {
			this.pauseAll(now, pause);
			return;
		}
		if (!rateLimited) {
			// Unavailable: everyone waits, the concurrency halves once per pause; no rate learned.
			const wasPaused = this.pausedUntil > now;
			this.pauseAll(now, pause);
			if (wasPaused || sentAt < this.reactedAt) return;
			this.reactedAt = now;
			this.slowStart = false;
			this.limit = Math.max(1, this.limit / 2);
			return;
		}
		// Answers to requests sent before the last reaction are the same throttle: react once,
		// not once per answer (a burst of 100 429s halved the concurrency down to 1 and lowered
		// the cap 100 times).
		if (sentAt < this.reactedAt) return;
		this.refusals.push(now);
		trim(this.refusals, now - RATE_WINDOW_MS);
		const learned = Number.isFinite(this.rateCap);
		// Many 429s within a window, or a Retry-After longer than it: not a bunch at the
		// edge of the window but a lower limit (or a block): pause everyone, learn anew.
		const changed =
			learned &&
			(pause > 2 * RATE_WINDOW_MS ||
				this.refusals.length > Math.max(3, this.rateCap * ESCALATE_SHARE));
		if (learned && !changed) {
			// A few answers bunched at the platform: this request waits its Retry-After (the
			// transport sleeps it), the others go on at a slightly lower rate.
			if (now - this.reactedAt < RATE_WINDOW_MS) return;
			this.reactedAt = now;
			this.rateCap = Math.max(1, this.rateCap * (1 - EPISODE_CUT));
			this.capRaisedAt = now;
			return;
		}
		if (this.pausedUntil > now) return;
		this.reactedAt = now;
		this.slowStart = false;
		this.capRaisedAt = now;
		this.refusals.length = 0;
		// The limit: the requests accepted among those sent in the window before the refused one.
		const inWindow = this.accepted.filter((at) => at > sentAt - RATE_WINDOW_MS && at <= sentAt);
		if (!learned) {
			this.limit = Math.max(1, this.limit / 2);
			this.pauseAll(now, pause);
			if (inWindow.length === 0) return;
			this.rateCap = Math.max(1, inWindow.length * (1 - MARGIN));
			// The first probe filled the window early in it; the refused requests wait their
			// Retry-After, the others start again, at the learned rate, when the window that was
			// filled has passed (Retry-After is whole seconds: up to a second more).
			const windowPassed = inWindow[0] + RATE_WINDOW_MS + BURST_MS;
			if (windowPassed < this.pausedUntil) this.pausedUntil = Math.max(now, windowPassed);
			return;
		}
		// A lower limit (the concurrency stays: the cap sets the pace, and halving it as well would
		// starve the pace when answers are slow). A client slowed down by its machine accepts
		// fewer than the limit: never more than a third off at once.
		this.pauseAll(now, pause);
		this.rateCap = Math.min(
			this.rateCap,
			Math.max(this.rateCap * 0.7, inWindow.length * (1 - MARGIN)),
		);
	}

	private pauseAll(now: number, pause: number): void {
		if (pause <= 0) return;
		if (this.pausedUntil <= now) this.metrics.pauses++;
		this.pausedUntil = Math.max(this.pausedUntil, now + pause);
	}
}

/** Drops the sorted-ish times before `from` at the head of `times`. */
function trim(times: number[], from: number): void {
	let drop = 0;
	while (drop < times.length && times[drop] < from) drop++;
	if (drop > 0) times.splice(0, drop);
}
