/** Request, write and fault counters; the single place that decides what a duplicate write is. */
import type { SandboxStats } from './types';
import { canonical } from './validation';

export class StatsTracker {
	private data: SandboxStats = StatsTracker.empty();
	/** write key → canonical payload of its last occurrence */
	private readonly lastPayload = new Map<string, string>();

	private static empty(): SandboxStats {
		return {
			requests: 0,
			byRoute: {},
			writes: {},
			duplicateWrites: 0,
			faultsInjected: {},
			maxInFlight: 0,
			inFlight: 0,
		};
	}

	snapshot(): SandboxStats {
		return structuredClone(this.data);
	}

	/** Clears the counters; inFlight keeps its live value. */
	reset(): void {
		const inFlight = this.data.inFlight;
		this.data = StatsTracker.empty();
		this.data.inFlight = inFlight;
		this.data.maxInFlight = inFlight;
		this.lastPayload.clear();
	}

	requestStarted(routeKey: string): void {
		this.data.requests++;
		this.data.byRoute[routeKey] = (this.data.byRoute[routeKey] ?? 0) + 1;
		this.data.inFlight++;
		this.data.maxInFlight = Math.max(this.data.maxInFlight, this.data.inFlight);
	}

	requestEnded(): void {
		this.data.inFlight = Math.max(0, this.data.inFlight - 1);
	}

	fault(kind: string): void {
		this.data.faultsInjected[kind] = (this.data.faultsInjected[kind] ?? 0) + 1;
	}

	/**
	 * Records a write that reached the state. It is a duplicate when the same key was written
	 * before with the same payload and this write changed nothing.
	 */
	write(key: string, payload: unknown, changed: boolean): void {
		this.data.writes[key] = (this.data.writes[key] ?? 0) + 1;
		const text = canonical(payload ?? null);
		if (!changed && this.lastPayload.get(key) === text) this.data.duplicateWrites++;
		this.lastPayload.set(key, text);
	}
}

/**
 * "POST /public/api/v1/community/301/event/401/attend/1001" → "POST /public/api/v1/community/{id}/event/{id}/attend/{id}";
 * the segment after /member/ becomes {email}.
 */
export function routeKey(method: string, path: string): string {
	const segments = path.split('/').map((segment, i, all) => {
		if (all[i - 1] === 'member' && segment !== '') return '{email}';
		return /^\d+$/.test(segment) ? '{id}' : segment;
	});
	let normalised = segments.join('/');
	if (normalised.length > 1 && normalised.endsWith('/')) normalised = normalised.slice(0, -1);
	return `${method} ${normalised}`;
}
