/**
 * Items run concurrently: the output keeps the input order and pairing, a fixed concurrency is
 * honoured (1 = strictly sequential), the adaptive default runs several requests at once, and a
 * rate-limited platform gets no failures. The rate tests judge what the node sent (order,
 * requests in flight, 429s answered), never how long it took: speed is the benchmark's
 * (`npm run bench`, the rate-limit row).
 */
import type { IDataObject, INodeParameters } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { Knolyx } from '../../nodes/Knolyx/Knolyx.node';
import { runNode } from '../harness';
import { startRecordingProxy } from './recording-proxy';
import { credentialsFor, NODE_TYPE, rl, runOk, run, useSandbox } from './setup';

const ctx = useSandbox();

const enrolParams = (requestOptions: Record<string, number> = {}) => ({
	resource: 'user',
	operation: 'enrol',
	email: '={{ $json.email }}',
	firstName: '={{ $json.first }}',
	lastName: 'Order',
	workgroupId: rl(201),
	requestOptions,
});
const people = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ email: `p${i}@example.com`, first: `P${i}` }));
const courseItems = (count: number) =>
	Array.from({ length: count }, (_, i) => ({ id: 101 + (i % 3) }));
const courseGet = (requestOptions: Record<string, number> = {}) => ({
	resource: 'course',
	operation: 'get',
	courseId: rl('={{ $json.id }}'),
	requestOptions,
});

it('output order = input order, each output paired with its input, though answers come back out of order', async () => {
	ctx.sandbox.setFaults({ slowRate: 0.4, slowMs: 30, seed: 5 });
	const items = people(40);
	const result = await run(ctx.sandbox, enrolParams(), items);
	expect(result.error).toBeUndefined();
	expect(result.json.map((o) => o.email)).toEqual(items.map((i) => i.email));
	expect(result.items.map((o) => o.pairedItem)).toEqual(items.map((_, item) => ({ item })));
	expect(ctx.sandbox.stats().faultsInjected.slow).toBeGreaterThan(0);
	expect(ctx.sandbox.stats().maxInFlight).toBeGreaterThan(1);
	for (const { email, first } of items)
		expect(ctx.sandbox.state.findUserByEmail(email)?.firstName).toBe(first);
});

it('several outputs of one item are all paired with it', async () => {
	const result = await run(
		ctx.sandbox,
		{ resource: 'workgroup', operation: 'getAll', returnAll: true },
		[{}, {}],
	);
	expect(result.items.map((o) => o.pairedItem)).toEqual(
		[0, 0, 0, 0, 1, 1, 1, 1].map((item) => ({ item })),
	);
});

it('concurrency 1 is strictly sequential', async () => {
	ctx.sandbox.setFaults({ latencyMs: 5 });
	const items = people(15);
	const out = await runOk(ctx.sandbox, enrolParams({ concurrency: 1 }), items);
	expect(out.map((o) => o.email)).toEqual(items.map((i) => i.email));
	expect(ctx.sandbox.stats().maxInFlight).toBe(1);
	expect(ctx.sandbox.stats().requests).toBe(30);
	// Sequential: the users were created in input order.
	expect(ctx.sandbox.state.onboardingEmails.map((e) => e.to)).toEqual(items.map((i) => i.email));
});

it('a fixed concurrency of 4 runs exactly 4 at once', async () => {
	ctx.sandbox.setFaults({ latencyMs: 10 });
	await runOk(ctx.sandbox, courseGet({ concurrency: 4 }), courseItems(24));
	expect(ctx.sandbox.stats().maxInFlight).toBe(4);
});

it('the adaptive default runs several requests at once, up to the maximum the user sets', async () => {
	ctx.sandbox.setFaults({ latencyMs: 10 });
	await runOk(ctx.sandbox, courseGet(), courseItems(80));
	const adaptive = ctx.sandbox.stats().maxInFlight;
	expect(adaptive).toBeGreaterThan(8);

	ctx.sandbox.resetStats();
	await runOk(ctx.sandbox, courseGet({ maxConcurrency: 3 }), courseItems(30));
	expect(ctx.sandbox.stats().maxInFlight).toBeLessThanOrEqual(3);
	expect(ctx.sandbox.stats().maxInFlight).toBeGreaterThan(1);
});

/** Runs Course → Get for `items` through a recording proxy: the output and every request seen. */
const getThroughProxy = async (
	items: IDataObject[],
	options?: Parameters<typeof startRecordingProxy>[1],
) => {
	const proxy = await startRecordingProxy(ctx.sandbox.url, options);
	try {
		const out = await runOk(ctx.sandbox, courseGet(), items, {
			credentials: { baseUrl: proxy.url },
		});
		return { out, proxy };
	} finally {
		await proxy.close();
	}
};

it('against a rate limit the adaptive default fails no item, and sends again only what was refused', async () => {
	// A limit well under what the node sends on a busy machine too (through the proxy, 60/s was
	// not always reached, and no 429 came).
	ctx.sandbox.setFaults({ rateLimitPerSecond: 30, latencyMs: 5 });
	const { out, proxy } = await getThroughProxy(courseItems(90));
	expect(out).toHaveLength(90);
	const stats = ctx.sandbox.stats();
	expect(stats.faultsInjected.rateLimit).toBeGreaterThan(0);
	// Throttled requests stay a small share of all requests.
	expect(stats.faultsInjected.rateLimit).toBeLessThan(45);
	// Every 429 answered with one more try of that request, nothing else sent twice: each
	// course read as often as items asked for it.
	const refused = proxy.seen.filter((s) => s.status === 429);
	expect(refused).toHaveLength(stats.faultsInjected.rateLimit);
	expect(proxy.seen).toHaveLength(90 + refused.length);
	const reads = new Map<string, number>();
	for (const s of proxy.seen.filter((s) => s.status === 200))
		reads.set(s.path, (reads.get(s.path) ?? 0) + 1);
	expect([...reads.values()]).toEqual([30, 30, 30]);
});

it('a passing burst of 503s does not slow the rest of the run down', async () => {
	ctx.sandbox.setFaults({ errorRate: 0.5, errorStatuses: [503], latencyMs: 5, seed: 2 });
	// The outage passes after its first 4 failures: the sandbox heals before the next request.
	const { out, proxy } = await getThroughProxy(courseItems(200), {
		arrived: () => {
			if ((ctx.sandbox.stats().faultsInjected.error ?? 0) >= 4)
				ctx.sandbox.setFaults({ errorRate: 0, latencyMs: 5 });
		},
	});
	expect(out).toHaveLength(200);
	expect(ctx.sandbox.stats().faultsInjected.error).toBeGreaterThan(0);
	// After the outage the node still runs several requests at once. Capped at the rate of the
	// first answers (what a 503 must not teach), it sent one at a time, a second or more apart.
	const lastFailure = proxy.seen.map((s) => s.status).lastIndexOf(503);
	const after = proxy.seen.slice(lastFailure + 1);
	expect(after.length).toBeGreaterThan(150);
	expect(Math.max(...after.map((s) => s.inFlight))).toBeGreaterThan(2);
});

describe('the credential is loaded once per node run', () => {
	// A real n8n loads the credential from its database and decrypts it on every getCredentials.
	const runCounting = async (
		parameters: Record<string, unknown>,
		items: Array<Record<string, unknown>>,
	) =>
		await runNode({
			nodeType: new Knolyx(),
			type: NODE_TYPE,
			parameters: parameters as INodeParameters,
			items: items as IDataObject[],
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox) } },
			credentialTypes: [new KnolyxApi()],
		});

	it('40 enrolments (80 requests) and a rule edit batch read it once each', async () => {
		const enrol = await runCounting(enrolParams(), people(40));
		expect(enrol.error).toBeUndefined();
		expect(ctx.sandbox.stats().requests).toBe(80);
		expect(enrol.credentialReads).toEqual({ knolyxApi: 1 });

		const rules = await runCounting(
			{
				resource: 'rule',
				operation: 'addWorkgroup',
				courseId: rl('={{ $json.id }}'),
				workgroupId: rl(201),
			},
			courseItems(6),
		);
		expect(rules.error).toBeUndefined();
		expect(rules.credentialReads).toEqual({ knolyxApi: 1 });
	});

	it('each request still carries the credential of the node (a wrong key is refused on every item)', async () => {
		const result = await runNode({
			nodeType: new Knolyx(),
			type: NODE_TYPE,
			parameters: { ...courseGet(), courseId: rl('={{ $json.id }}') } as INodeParameters,
			items: courseItems(3),
			credentials: { knolyxApi: { ...credentialsFor(ctx.sandbox, { apiKey: 'wrong-key' }) } },
			credentialTypes: [new KnolyxApi()],
			continueOnFail: true,
		});
		expect(result.items.map((item) => item.json.httpCode)).toEqual(['401', '401', '401']);
		expect(result.credentialReads).toEqual({ knolyxApi: 1 });
	});
});
