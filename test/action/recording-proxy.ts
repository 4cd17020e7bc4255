/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * A recording proxy between the node and the sandbox (real HTTP on 127.0.0.1), for the rate
 * tests: every request in the order it arrived, with its answer's status and how many others
 * were in flight, so a test judges what the node did (order, requests in flight, 429s answered)
 * rather than how long it took.
 */
import { createServer } from 'node:http';

import { forwardTo, listenOnLoopback } from '../faults/proxy';

export interface Seen {
	method: string;
	path: string;
	/** ms since the proxy started: request arrived, answer sent (-1 while pending). */
	start: number;
	end: number;
	/** 0 while pending. */
	status: number;
	/** Answered 429 by the proxy itself (`refuse`). */
	injected: boolean;
	/** Requests in flight at the proxy when this one arrived, itself included. */
	inFlight: number;
}

export interface RecordingProxy {
	url: string;
	seen: Seen[];
	close(): Promise<void>;
}

/**
 * Forwards every request to `target` and records it. `refuse` may answer one itself with
 * 429 + Retry-After: 1 instead; `arrived` is told of each request before it is forwarded (e.g.
 * to change the sandbox's faults after the Nth).
 */
export async function startRecordingProxy(
	target: string,
	options: {
		refuse?: (request: Seen, seen: Seen[]) => boolean;
		arrived?: (request: Seen, seen: Seen[]) => void;
	} = {},
): Promise<RecordingProxy> {
	const targetUrl = new URL(target);
	const t0 = Date.now();
	const seen: Seen[] = [];
	let inFlight = 0;
	const server = createServer((req, res) => {
		inFlight++;
		const entry: Seen = {
			method: req.method ?? '',
			path: req.url ?? '/',
			start: Date.now() - t0,
			end: -1,
			status: 0,
			injected: false,
			inFlight,
		};
		seen.push(entry);
		const done = (status: number) => {
			inFlight--;
			entry.status = status;
			entry.end = Date.now() - t0;
		};
		options.arrived?.(entry, seen);
		if (options.refuse?.(entry, seen)) {
			entry.injected = true;
			req.resume();
			req.on('end', () => {
				done(429);
				res
					.writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '1' })
					.end('{"message":"Too many requests"}');
			});
			return;
		}
		forwardTo(targetUrl, req, res, done);
	});
	return { ...(await listenOnLoopback(server)), seen };
}
