/**
 * A fault for the next N API requests only (the page's "429 storm" and "5xx burst"): the given
 * fault settings are applied at once, every request that passes the API key check counts, and
 * after the Nth the settings from before the burst come back. When someone changes the faults
 * in between (POST/DELETE /sandbox/faults), the burst is dropped and their settings stay.
 */
import type { RequestHandler } from 'express';
import { badRequest } from '../errors';
import { DEFAULT_FAULTS, type FaultInjector } from '../faults';
import type { FaultConfig } from '../types';
import { isObject } from '../validation';

export const MAX_BURST_REQUESTS = 10_000;

export interface BurstStatus {
	requests: number;
	remaining: number;
	faults: Partial<FaultConfig>;
	startedAt: string;
}

interface Armed extends BurstStatus {
	/** The fault settings before the burst, restored after it. */
	before: FaultConfig;
	/** JSON of the settings while the burst runs: anything else means someone changed them. */
	during: string;
}

const RATES = ['errorRate', 'malformedRate', 'resetRate', 'resetAfterApplyRate', 'slowRate'] as const;
const INTEGERS = ['latencyMs', 'rateLimitPerSecond', 'slowMs', 'seed'] as const;

/** Checks a partial FaultConfig; 400 naming the field on anything unknown or of the wrong kind. */
export function validateFaults(input: unknown): Partial<FaultConfig> {
	if (!isObject(input) || Object.keys(input).length === 0) throw badRequest('faults must be a non-empty object of fault settings');
	for (const [name, value] of Object.entries(input)) {
		const field = `faults.${name}`;
		if (!(name in DEFAULT_FAULTS)) throw badRequest(`${field} is not a fault setting (see GET /sandbox/faults)`);
		if ((RATES as readonly string[]).includes(name)) {
			if (typeof value !== 'number' || !(value >= 0 && value <= 1)) throw badRequest(`${field} must be a number from 0 to 1`);
		} else if ((INTEGERS as readonly string[]).includes(name)) {
			if (!Number.isInteger(value) || (value as number) < 0) throw badRequest(`${field} must be a non-negative integer`);
		} else if (name === 'errorStatuses') {
			const ok = Array.isArray(value) && value.length > 0 && value.every((s) => Number.isInteger(s) && s >= 400 && s <= 599);
			if (!ok) throw badRequest(`${field} must be a non-empty array of HTTP statuses 400-599`);
		} else if (typeof value !== 'boolean') {
			throw badRequest(`${field} must be true or false`);
		}
	}
	return input as Partial<FaultConfig>;
}

export class FaultBurst {
	private armed: Armed | undefined;

	constructor(private readonly faults: FaultInjector) {}

	/** Applies `faults` for the next `requests` API requests (replacing a burst still running). */
	start(input: unknown): BurstStatus {
		if (!isObject(input)) throw badRequest('Body must be a JSON object {requests, faults}');
		const requests = input.requests;
		if (!Number.isInteger(requests) || (requests as number) < 1 || (requests as number) > MAX_BURST_REQUESTS) {
			throw badRequest(`requests must be an integer from 1 to ${MAX_BURST_REQUESTS}`);
		}
		const partial = validateFaults(input.faults);
		const before = this.armed && this.stillRunning() ? this.armed.before : this.faults.current;
		this.faults.set(partial);
		this.armed = {
			requests: requests as number,
			remaining: requests as number,
			faults: partial,
			startedAt: new Date().toISOString(),
			before,
			during: JSON.stringify(this.faults.current),
		};
		return this.status() as BurstStatus;
	}

	/** Ends the burst now and restores the settings from before it; false when none was running. */
	stop(): boolean {
		if (!this.armed || !this.stillRunning()) {
			this.armed = undefined;
			return false;
		}
		this.end();
		return true;
	}

	status(): BurstStatus | null {
		if (!this.armed || !this.stillRunning()) return null;
		const { requests, remaining, faults, startedAt } = this.armed;
		return { requests, remaining, faults, startedAt };
	}

	private stillRunning(): boolean {
		return this.armed !== undefined && JSON.stringify(this.faults.current) === this.armed.during;
	}

	private end(): void {
		const before = this.armed?.before;
		this.armed = undefined;
		if (before) this.faults.set(before);
	}

	/**
	 * Mount between the API key check and the fault middleware. The fault middleware reads its
	 * settings when a request enters, so the settings can be restored as soon as the Nth request
	 * has been handed on: request N+1 already meets the old settings.
	 */
	middleware(): RequestHandler {
		return (_req, res, next) => {
			if (!this.armed) return next();
			if (!this.stillRunning()) {
				this.armed = undefined;
				return next();
			}
			this.armed.remaining--;
			res.locals.faultBurst = true;
			next();
			if (this.armed && this.armed.remaining <= 0) this.end();
		};
	}
}
