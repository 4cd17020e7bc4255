/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Fault injection for /public/api/*: latency, rate limit, 5xx, malformed answers, connection resets
 * (before or after applying a write) and slow answers. Decisions come from a PRNG seeded with
 * FaultConfig.seed, so a given seed and request sequence always give the same faults.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { badRequest, sendError } from './errors';
import type { StatsTracker } from './stats';
import type { FaultConfig } from './types';
import { checkObject, is, type FieldCheck } from './validation';

export const DEFAULT_FAULTS: Readonly<FaultConfig> = Object.freeze({
	latencyMs: 0,
	rateLimitPerSecond: 0,
	errorRate: 0,
	errorStatuses: [503, 502, 500],
	malformedRate: 0,
	resetRate: 0,
	resetAfterApplyRate: 0,
	slowMs: 0,
	slowRate: 0,
	webhookCreateReturnsNoId: false,
	deliveryContentType: 'application/json',
	applyThenFailRate: 0,
	applyThenStatus: 502,
	retryAfter: null,
	okHtmlRate: 0,
	errorBody: null,
	repeatPages: false,
	onlyMethod: null,
	onlyPath: null,
	maxFaults: 0,
	seed: 1,
});

/** A header value: printable ASCII (and tabs), not empty. */
const HEADER_VALUE = /^[\t\x20-\x7e]+$/;

/** A regular expression's source that compiles. */
const regexSource: FieldCheck = (value, field) => {
	if (value === null) return;
	if (typeof value !== 'string')
		throw badRequest(`${field} must be a regular expression (text) or null`);
	try {
		new RegExp(value);
	} catch (error) {
		throw badRequest(`${field} is not a valid regular expression: ${(error as Error).message}`);
	}
};

/** Every fault setting and the check of its value: the one schema of POST /sandbox/faults, fault bursts and startSandbox({faults}). */
export const FAULT_SCHEMA: Readonly<Record<keyof FaultConfig, FieldCheck>> = Object.freeze({
	latencyMs: is.integer(0),
	rateLimitPerSecond: is.integer(0),
	errorRate: is.rate,
	errorStatuses: (value: unknown, field: string) => {
		const ok =
			Array.isArray(value) &&
			value.length > 0 &&
			value.every((s) => Number.isInteger(s) && s >= 400 && s <= 599);
		if (!ok) throw badRequest(`${field} must be a non-empty array of HTTP statuses 400-599`);
	},
	malformedRate: is.rate,
	resetRate: is.rate,
	resetAfterApplyRate: is.rate,
	slowMs: is.integer(0),
	slowRate: is.rate,
	webhookCreateReturnsNoId: is.boolean,
	deliveryContentType: is.text({
		nullable: true,
		pattern: HEADER_VALUE,
		meaning: 'a Content-Type header value',
	}),
	applyThenFailRate: is.rate,
	applyThenStatus: is.integer(100, 599),
	retryAfter: is.text({
		nullable: true,
		pattern: HEADER_VALUE,
		meaning: 'a Retry-After header value',
	}),
	okHtmlRate: is.rate,
	errorBody: is.text({ nullable: true }),
	repeatPages: is.boolean,
	onlyMethod: is.text({
		nullable: true,
		pattern: /^[A-Za-z]+$/,
		meaning: 'an HTTP method such as "POST"',
	}),
	onlyPath: regexSource,
	maxFaults: is.integer(0),
	seed: is.integer(0, 0xffffffff),
});

/**
 * Checks a partial FaultConfig: only fault settings (own names, never `constructor` or
 * `__proto__`), each value of its type; a 400 naming the field otherwise. `where` prefixes the
 * field names (`faults` for a burst's `faults.errorRate`, `body` for none).
 */
export function validateFaults(input: unknown, where = 'body'): Partial<FaultConfig> {
	return checkObject(input, FAULT_SCHEMA, where, { noun: 'fault setting' }) as Partial<FaultConfig>;
}

const WEB_APP_PAGE =
	'<!DOCTYPE html><html><head><title>Knolyx</title></head><body><div id="app">Loading…</div><script src="/app.js"></script></body></html>';
const GATEWAY_PAGE = (status: number): string =>
	`<html><head><title>${status}</title></head><body><h1>${status} Gateway error</h1><p>The upstream answered too late or not at all.</p></body></html>`;

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const MALFORMED_BODY =
	'<html><head><title>Error</title></head><body><h1>Upstream error</h1><p>The proxy received an invalid response.</p></body></html>';

/** mulberry32: tiny deterministic PRNG returning floats in [0, 1). */
export function prng(seed: number): () => number {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class FaultInjector {
	private config: FaultConfig = {
		...DEFAULT_FAULTS,
		errorStatuses: [...DEFAULT_FAULTS.errorStatuses],
	};
	private random = prng(DEFAULT_FAULTS.seed);
	/** Arrival times (ms) of the requests admitted in the last second. */
	private window: number[] = [];
	/** Faults injected since the config was last set (for maxFaults). */
	private injected = 0;

	constructor(
		private readonly stats: StatsTracker,
		initial?: Partial<FaultConfig>,
	) {
		if (initial) this.set(initial);
	}

	get current(): FaultConfig {
		return { ...this.config, errorStatuses: [...this.config.errorStatuses] };
	}

	/** Merges a partial config (checked first: a 400 naming the field, nothing changed); the PRNG and the rate window restart. */
	set(partial: Partial<FaultConfig>): void {
		validateFaults(partial, 'faults');
		this.config = {
			...this.config,
			...partial,
			errorStatuses: [...(partial.errorStatuses ?? this.config.errorStatuses)],
		};
		this.random = prng(this.config.seed);
		this.window = [];
		this.injected = 0;
	}

	reset(): void {
		this.config = { ...DEFAULT_FAULTS, errorStatuses: [...DEFAULT_FAULTS.errorStatuses] };
		this.random = prng(this.config.seed);
		this.window = [];
		this.injected = 0;
	}

	/** Whether faults may be injected into this request (onlyMethod, onlyPath, maxFaults). */
	private targeted(req: Request): boolean {
		const c = this.config;
		if (c.maxFaults > 0 && this.injected >= c.maxFaults) return false;
		if (c.onlyMethod && req.method !== c.onlyMethod.toUpperCase()) return false;
		const path = req.path.replace(/^\/v1/, '');
		return !c.onlyPath || new RegExp(c.onlyPath).test(path);
	}

	/** Counts one injected fault of `kind`; false when maxFaults is reached. */
	private inject(kind: string): boolean {
		if (this.config.maxFaults > 0 && this.injected >= this.config.maxFaults) return false;
		this.injected++;
		this.stats.fault(kind);
		return true;
	}

	private sendInjectedError(res: Response, status: number): void {
		const c = this.config;
		if (c.retryAfter !== null && (status === 429 || status === 503))
			res.setHeader('Retry-After', c.retryAfter);
		if (c.errorBody === null) {
			sendError(res, status, 'Injected failure (sandbox fault)');
			return;
		}
		if (c.errorBody.trimStart().startsWith('<'))
			res.status(status).type('text/html').send(c.errorBody);
		else res.status(status).json({ status, error: 'Injected failure', message: c.errorBody });
	}

	/** Whether webhook creation should answer `{}`; counted as a fault when true. */
	webhookCreateReturnsNoId(): boolean {
		if (this.config.webhookCreateReturnsNoId) this.stats.fault('webhookNoId');
		return this.config.webhookCreateReturnsNoId;
	}

	/** The Content-Type header of event deliveries, or undefined to send none. */
	deliveryContentType(): string | undefined {
		return this.config.deliveryContentType ?? undefined;
	}

	private roll(rate: number): boolean {
		const draw = this.random();
		return rate > 0 && draw < rate;
	}

	/** Seconds until a slot frees up, or 0 when the request is admitted. */
	private rateLimited(now: number): number {
		const limit = this.config.rateLimitPerSecond;
		if (limit <= 0) return 0;
		this.window = this.window.filter((t) => now - t < 1000);
		if (this.window.length < limit) {
			this.window.push(now);
			return 0;
		}
		return Math.max(1, Math.ceil((this.window[0] + 1000 - now) / 1000));
	}

	middleware(): RequestHandler {
		return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
			const c = this.config;
			if (c.latencyMs > 0) {
				this.stats.fault('latency');
				await sleep(c.latencyMs);
			}
			const retryAfter = this.rateLimited(Date.now());
			if (retryAfter > 0) {
				this.stats.fault('rateLimit');
				res.setHeader('Retry-After', c.retryAfter ?? String(retryAfter));
				sendError(res, 429, `Rate limit of ${c.rateLimitPerSecond} requests per second exceeded`);
				return;
			}
			// One draw per fault kind, always in this order, so decisions depend only on the seed and request count.
			const reset = this.roll(c.resetRate);
			const error = this.roll(c.errorRate);
			const malformed = this.roll(c.malformedRate);
			const slow = this.roll(c.slowRate);
			const resetAfterApply = this.roll(c.resetAfterApplyRate) && WRITE_METHODS.has(req.method);
			const statusPick = this.random();
			// Drawn only when used, so that the sequences of the kinds above stay as they were.
			const applyThenFail =
				c.applyThenFailRate > 0 && this.roll(c.applyThenFailRate) && WRITE_METHODS.has(req.method);
			const okHtml = c.okHtmlRate > 0 && this.roll(c.okHtmlRate);
			if (c.repeatPages && /[?&]pagination\.page=[1-9]/.test(req.url)) {
				this.stats.fault('repeatPage');
				req.url = req.url.replace(/([?&]pagination\.page=)\d+/, '$10');
			}
			if (!this.targeted(req)) {
				next();
				return;
			}
			if (reset && this.inject('reset')) {
				req.socket.destroy();
				return;
			}
			if (error && c.errorStatuses.length > 0) {
				const status = c.errorStatuses[Math.floor(statusPick * c.errorStatuses.length)];
				if (this.inject('error')) {
					this.stats.fault(`error:${status}`);
					this.sendInjectedError(res, status);
					return;
				}
			}
			if (malformed && this.inject('malformed')) {
				res.status(500).type('text/html').send(MALFORMED_BODY);
				return;
			}
			if (okHtml && this.inject('okHtml')) {
				res.status(200).type('text/html').send(WEB_APP_PAGE);
				return;
			}
			if (slow && c.slowMs > 0 && this.inject('slow')) {
				await sleep(c.slowMs);
			}
			if (resetAfterApply && this.inject('resetAfterApply')) {
				// The handler runs and changes the state; its answer is never sent.
				res.send = function destroyInsteadOfSending(this: Response): Response {
					this.req.socket.destroy();
					return this;
				};
			} else if (applyThenFail && this.inject('applyThenFail')) {
				// The handler runs and changes the state; a gateway answers in its place.
				const send = res.send.bind(res);
				const status = c.applyThenStatus;
				res.send = function gatewayInstead(this: Response): Response {
					this.status(status).type('text/html');
					return send(GATEWAY_PAGE(status));
				};
			}
			next();
		};
	}
}
