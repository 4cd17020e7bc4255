/**
 * The last API requests for the sandbox page: a fixed-size ring, so memory stays bounded however
 * many requests a test or a benchmark sends. API keys are kept masked only.
 */
import type { RequestHandler } from 'express';
import { maskSecret } from '../state';

export interface RecordedRequest {
	/** ISO time the request arrived. */
	at: string;
	method: string;
	/** Path and query as sent (cut at 300 characters). */
	path: string;
	/** HTTP status of the answer, or null when the connection was dropped without one. */
	status: number | null;
	ms: number;
	/** X-Api-Key masked like /sandbox/state masks keys; null when the header was missing. */
	key: string | null;
	/** True when a fault burst (POST /sandbox/fault-burst) counted this request. */
	burst: boolean;
}

const MAX_PATH = 300;

export class RecentRequests {
	private readonly ring: (RecordedRequest | undefined)[];
	private next = 0;
	private total = 0;

	constructor(readonly capacity = 100) {
		this.ring = new Array<RecordedRequest | undefined>(capacity);
	}

	add(request: RecordedRequest): void {
		this.ring[this.next] = request;
		this.next = (this.next + 1) % this.capacity;
		this.total++;
	}

	/** Newest first, at most `limit`. */
	newest(limit = this.capacity): RecordedRequest[] {
		const out: RecordedRequest[] = [];
		for (let i = 1; i <= Math.min(limit, this.capacity); i++) {
			const r = this.ring[(this.next - i + this.capacity) % this.capacity];
			if (!r) break;
			out.push(r);
		}
		return out;
	}

	/** Requests seen since start-up, including those no longer kept. */
	get count(): number {
		return this.total;
	}

	/** Records every request of the router it is mounted on, when its answer is sent or its socket closes. */
	middleware(): RequestHandler {
		return (req, res, next) => {
			const started = Date.now();
			const key = req.get('X-Api-Key');
			res.once('close', () => {
				this.add({
					at: new Date(started).toISOString(),
					method: req.method,
					path: req.originalUrl.slice(0, MAX_PATH),
					status: res.writableFinished ? res.statusCode : null,
					ms: Date.now() - started,
					key: key ? maskSecret(key) : null,
					burst: res.locals.faultBurst === true,
				});
			});
			next();
		};
	}
}
