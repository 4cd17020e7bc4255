/**
 * A fault for the next N API requests only (the page's "429 storm" and "5xx burst"): the given
 * fault settings are applied at once, every request that passes the API key check counts, and
 * after the Nth the settings from before the burst come back. When someone changes the faults
 * in between (POST/DELETE /sandbox/faults), the burst is dropped and their settings stay.
 */
import type { RequestHandler } from 'express';
import { badRequest } from '../errors';
import { validateFaults, type FaultInjector } from '../faults';
import type { FaultConfig } from '../types';
import { checkObject, is, isObject } from '../validation';

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

/** Checks the faults of a burst: at least one setting, each as POST /sandbox/faults checks it. */
function burstFaults(input: unknown): Partial<FaultConfig> {
	if (isObject(input) && Object.keys(input).length === 0)
		throw badRequest('faults must be a non-empty object of fault settings');
	return validateFaults(input, 'faults');
}

/** POST /sandbox/fault-burst: {requests, faults}. */
const BURST_SCHEMA = { requests: is.integer(1, MAX_BURST_REQUESTS), faults: is.object };

export class FaultBurst {
	private armed: Armed | undefined;

	constructor(private readonly faults: FaultInjector) {}

	/** Applies `faults` for the next `requests` API requests (replacing a burst still running). */
	start(input: unknown): BurstStatus {
		const body = checkObject(input, BURST_SCHEMA, 'body', { required: ['requests', 'faults'] });
		const requests = body.requests;
		const partial = burstFaults(body.faults);
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
