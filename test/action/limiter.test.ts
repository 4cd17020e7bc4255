/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The adaptive limiter against a rate-limited sandbox, seen through a recording proxy between
 * the node and the sandbox (real HTTP on 127.0.0.1): once the limit is learned, a single 429
 * holds only the request that got it (it waits its Retry-After) while the others go on; a limit
 * lowered in the middle of a run is learned again; nothing is lost or written twice.
 */
import { createServer } from 'node:http';

import { forwardTo, listenOnLoopback } from '../faults/proxy';

import { membership, rl, run, useSandbox } from './setup';

const ctx = useSandbox();

interface Seen {
	method: string;
	path: string;
	/** ms since the proxy started: request arrived, answer sent. */
	start: number;
	end: number;
	status: number;
	injected: boolean;
}

interface RecordingProxy {
	url: string;
	seen: Seen[];
	close(): Promise<void>;
}

/** Forwards every request to `target` and records it; `refuse` answers one itself with 429 + Retry-After: 1 instead. */
async function startRecordingProxy(
	target: string,
	refuse: (req: { method: string; path: string; at: number }, seen: Seen[]) => boolean,
): Promise<RecordingProxy> {
	const targetUrl = new URL(target);
	const t0 = Date.now();
	const seen: Seen[] = [];
	const server = createServer((req, res) => {
		const entry: Seen = {
			method: req.method ?? '',
			path: req.url ?? '/',
			start: Date.now() - t0,
			end: -1,
			status: 0,
			injected: false,
		};
		seen.push(entry);
		const done = (status: number) => {
			entry.status = status;
			entry.end = Date.now() - t0;
		};
		if (refuse({ method: entry.method, path: entry.path, at: entry.start }, seen)) {
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

const enrol = {
	resource: 'user',
	operation: 'enrol',
	email: '={{ $json.email }}',
	firstName: '={{ $json.first }}',
	lastName: 'Limiter',
	workgroupId: rl(201),
};
const people = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ email: `lim${i}@example.com`, first: `L${i}` }));
const isMemberPut = (s: { method: string; path: string }) =>
	s.method === 'PUT' && s.path.includes('/member/');

it('once the rate is learned, one 429 holds only its own request: it waits Retry-After, the others go on', async () => {
	ctx.sandbox.setFaults({ rateLimitPerSecond: 50, latencyMs: 5 });
	// The first member write arriving 1.5 s after the sandbox's first 429 (the first probe of the
	// limit, which pauses every request and teaches the rate) is refused by the proxy with
	// Retry-After: 1.
	let refused = false;
	const proxy = await startRecordingProxy(ctx.sandbox.url, (req, seen) => {
		const probe = seen.find((s) => s.status === 429);
		if (refused || !probe || !isMemberPut(req) || req.at < probe.end + 1500) return false;
		refused = true;
		return true;
	});
	try {
		const result = await run(ctx.sandbox, enrol, people(120), {
			credentials: { baseUrl: proxy.url },
		});
		expect(result.error).toBeUndefined();
		expect(result.json).toHaveLength(120);
		expect(result.json.every((o) => o.error === undefined)).toBe(true);
		for (const { email } of people(120)) expect(membership(ctx.sandbox, 201, email)).toBeDefined();
		expect(ctx.sandbox.stats().duplicateWrites).toBe(0);

		const injected = proxy.seen.find((s) => s.injected);
		expect(injected).toBeDefined();
		const at = (injected as Seen).end;
		// Its retry: the next request for the same member, no sooner than Retry-After.
		const retry = proxy.seen.find(
			(s) => s !== injected && s.path === (injected as Seen).path && s.start > at,
		);
		expect(retry).toBeDefined();
		expect((retry as Seen).start - at).toBeGreaterThanOrEqual(1000);
		expect((retry as Seen).status).toBe(200);
		// Meanwhile the other items went on at the learned rate (~48/s). Pausing every request
		// for the Retry-After second would let none through.
		const during = proxy.seen.filter(
			(s) => s.start > at + 50 && s.start < at + 950 && s.status !== 429,
		).length;
		expect(during).toBeGreaterThanOrEqual(15);
	} finally {
		await proxy.close();
	}
});

it('a limit lowered in the middle of a run is learned again: every item succeeds, the 429s stay a small share', async () => {
	ctx.sandbox.setFaults({ rateLimitPerSecond: 60, latencyMs: 5 });
	const lower = setTimeout(() => ctx.sandbox.setFaults({ rateLimitPerSecond: 20 }), 2000);
	try {
		const result = await run(ctx.sandbox, enrol, people(90));
		expect(result.error).toBeUndefined();
		expect(result.json.every((o) => o.error === undefined)).toBe(true);
	} finally {
		clearTimeout(lower);
	}
	const stats = ctx.sandbox.stats();
	expect(stats.duplicateWrites).toBe(0);
	expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
	// 180 writes; the first probe alone is refused about 60 times at 60/s.
	expect(stats.faultsInjected.rateLimit).toBeLessThan(stats.requests * 0.5);
});
