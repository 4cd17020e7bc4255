/**
 * The adaptive limiter against a rate-limited sandbox, seen through a recording proxy between
 * the node and the sandbox (real HTTP on 127.0.0.1): once the limit is learned, a single 429
 * holds only the request that got it (it waits its Retry-After) while the others go on; a limit
 * lowered in the middle of a run is learned again; nothing is lost or written twice. The tests
 * judge the order of what the node sent, never how fast: a busy machine only slows them down.
 */
import type { Seen } from './recording-proxy';
import { startRecordingProxy } from './recording-proxy';
import { membership, rl, run, useSandbox } from './setup';

const ctx = useSandbox();

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
	// Once 40 requests were accepted after the sandbox's first 429 (the first probe of the limit,
	// which pauses every request and teaches the rate), the next member write is refused by the
	// proxy with Retry-After: 1.
	let refused = false;
	const proxy = await startRecordingProxy(ctx.sandbox.url, {
		refuse: (request, seen) => {
			const probe = seen.findIndex((s) => s.status === 429);
			if (refused || probe < 0 || !isMemberPut(request)) return false;
			if (seen.slice(probe).filter((s) => s.status === 200).length < 40) return false;
			refused = true;
			return true;
		},
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
		const retryIndex = proxy.seen.findIndex(
			(s) => s !== injected && s.path === (injected as Seen).path && s.start > at,
		);
		expect(retryIndex).toBeGreaterThan(0);
		const retry = proxy.seen[retryIndex];
		expect(retry.start - at).toBeGreaterThanOrEqual(1000);
		// It succeeds; or, on a machine busy enough to bunch the node's sends, the sandbox's own
		// limit (50 in any second) refuses it once more (the proxy refuses one request only): then
		// that member's write succeeds later, still once (every member is in, no duplicate write).
		expect(retry.injected).toBeFalsy();
		const accepted = proxy.seen.find(
			(s) => s.path === (injected as Seen).path && s.start > at && s.status === 200,
		);
		expect(accepted).toBeDefined();
		expect((accepted as Seen).start - at).toBeGreaterThanOrEqual(1000);
		if (retry.status !== 200) expect(retry.status).toBe(429);
		// Meanwhile the other items went on: requests that arrived after the 429 was answered and
		// before its retry, accepted. Pausing every request for the Retry-After second would let
		// none through but those already sent.
		const during = proxy.seen
			.slice(proxy.seen.indexOf(injected as Seen) + 1, retryIndex)
			.filter((s) => s.start > at && s.status !== 429).length;
		expect(during).toBeGreaterThanOrEqual(15);
	} finally {
		await proxy.close();
	}
});

it('a limit lowered in the middle of a run is learned again: every item succeeds, the 429s stay a small share', async () => {
	ctx.sandbox.setFaults({ rateLimitPerSecond: 60, latencyMs: 5 });
	// The limit drops to a third once 120 requests have arrived (of 180 writes and their retries).
	const proxy = await startRecordingProxy(ctx.sandbox.url, {
		arrived: (_request, seen) => {
			if (seen.length === 120) ctx.sandbox.setFaults({ rateLimitPerSecond: 20 });
		},
	});
	try {
		const result = await run(ctx.sandbox, enrol, people(90), {
			credentials: { baseUrl: proxy.url },
		});
		expect(result.error).toBeUndefined();
		expect(result.json.every((o) => o.error === undefined)).toBe(true);
	} finally {
		await proxy.close();
	}
	const stats = ctx.sandbox.stats();
	expect(stats.duplicateWrites).toBe(0);
	expect(proxy.seen.length).toBeGreaterThan(120);
	expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
	// 180 writes; the first probe alone is refused about 60 times at 60/s.
	expect(stats.faultsInjected.rateLimit).toBeLessThan(stats.requests * 0.5);
});
