/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * The Knolyx Trigger under abuse, hosted as n8n hosts it (test/harness trigger host over real
 * HTTP, keep-alive connections): 10 000 deliveries with random or missing tokens, 2 MB bodies,
 * wrong methods, garbage JSON and events nested 10 000 levels deep start no execution, leave the
 * dedupe stores empty and do not grow the heap; a real delivery still works afterwards. With real events beyond the duplicate
 * window, the stores stay at the window's size.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Agent, request } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { KnolyxTrigger } from '../../nodes/Knolyx/KnolyxTrigger.node';
import { recentIds } from '../../nodes/Knolyx/trigger/dedupe';
import { triggerHosts, type TriggerHost } from '../harness';
import { DEMO, useSandbox } from '../action/setup';
import { recordCounts } from './helpers';
import { storedWindow } from '../trigger/seen-window';

const ctx = useSandbox();

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const agent = new Agent({ keepAlive: true, maxSockets: 16 });
afterAll(() => agent.destroy());

function send(
	url: string,
	method: string,
	body: Buffer | string,
	headers: Record<string, string>,
): Promise<number> {
	return new Promise((resolve, reject) => {
		const target = new URL(url);
		const payload = typeof body === 'string' ? Buffer.from(body) : body;
		const req = request(
			{
				host: target.hostname,
				port: target.port,
				path: target.pathname,
				method,
				agent,
				headers: { 'Content-Length': String(payload.length), ...headers },
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			},
		);
		req.on('error', reject);
		req.end(payload);
	});
}

function heap(): { heapUsed: number; arrayBuffers: number } {
	for (let i = 0; i < 3; i++) gc();
	const { heapUsed, arrayBuffers } = process.memoryUsage();
	return { heapUsed, arrayBuffers };
}

const MB = 1024 * 1024;
const TWO_MB_JSON = JSON.stringify({
	id: 'big',
	type: 'COURSE_STARTED',
	data: { pad: 'x'.repeat(2 * MB) },
});
const TWO_MB_GARBAGE = randomBytes(2 * MB);
/** A well-formed event of a selected type, nested 10 000 levels deep in 20 KB: refused, never run. */
const DEEP_EVENT = `{"id":"deep","type":"COURSE_STARTED","data":{"user":{"id":1},"extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
const GARBAGE = [
	'{"id":',
	'[]',
	'null',
	'"text"',
	'{"id":1,"type":2,"data":3}',
	'{"id":"x","type":"COURSE_STARTED"}',
	`${'['.repeat(5000)}${']'.repeat(5000)}`,
	'\u0000\u0001\u0002',
	'{"__proto__":{"polluted":true},"id":"p","type":"COURSE_STARTED","data":[]}',
	DEEP_EVENT,
];
const randomToken = (i: number): Record<string, string> => {
	switch (i % 6) {
		case 0:
			return {};
		case 1:
			return { 'X-Webhook-Security-Token': randomBytes(1 + (i % 120)).toString('base64') };
		default:
			return { 'X-Webhook-Security-Token': randomBytes(32).toString('hex') };
	}
};

const hosts = triggerHosts();
afterEach(() => hosts.endAll());

async function activeHost(dedupeWindow?: number): Promise<{ h: TriggerHost; token: string }> {
	const h = await hosts.start({
		nodeType: new KnolyxTrigger(),
		type: 'n8n-nodes-knolyx.knolyxTrigger',
		parameters: {
			events: ['COURSE_STARTED', 'COURSE_COMPLETED'],
			options: dedupeWindow === undefined ? {} : { dedupeWindow },
		},
		credentials: {
			knolyxApi: { baseUrl: ctx.sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		},
		credentialTypes: [new KnolyxApi()],
		webhookId: `abuse-${randomUUID()}`,
	});
	await h.activate('trigger');
	const webhook = [...ctx.sandbox.state.webhooks.values()].find((w) => w.url === h.url('trigger'));
	if (!webhook) throw new Error('no webhook registered');
	// The creation PING (not selected) is acknowledged without an execution.
	await ctx.sandbox.waitForDeliveries({ type: 'PING', ok: true }, 5000);
	return { h, token: webhook.securityToken };
}

/** Delivery `i` of the abuse mix; returns the status. */
async function abuse(url: string, token: string, i: number): Promise<number> {
	const event = () =>
		JSON.stringify({
			id: randomUUID(),
			type: 'COURSE_STARTED',
			data: {
				user: { id: i, name: 'Eve', email: 'eve@example.com' },
				course: { id: 101, name: 'X' },
			},
		});
	const json = { 'Content-Type': 'application/json' };
	if (i % 100 === 0)
		return await send(url, 'PUT', TWO_MB_JSON, { ...json, ...randomToken(i / 100) });
	if (i % 100 === 50)
		return await send(url, 'PUT', TWO_MB_GARBAGE, { ...json, 'X-Webhook-Security-Token': token });
	switch (i % 10) {
		case 7: {
			// Wrong method, right token, a valid event.
			const method = ['GET', 'POST', 'DELETE', 'PATCH'][i % 4];
			return await send(url, method, method === 'GET' ? '' : event(), {
				...json,
				'X-Webhook-Security-Token': token,
			});
		}
		case 8:
			// Garbage, with the right token (i ends in 8 here: the tens pick the entry).
			return await send(url, 'PUT', GARBAGE[Math.floor(i / 10) % GARBAGE.length], {
				...json,
				'X-Webhook-Security-Token': token,
			});
		case 9:
			// Garbage, with a random token, sometimes not even declared JSON.
			return await send(url, 'PUT', GARBAGE[i % GARBAGE.length], {
				'Content-Type': i % 3 === 0 ? 'text/plain' : 'application/json',
				...randomToken(i),
			});
		default:
			// A valid-looking event with a random, truncated or missing token.
			return await send(url, 'PUT', event(), { ...json, ...randomToken(i) });
	}
}

async function storm(
	url: string,
	token: string,
	from: number,
	count: number,
	statuses: Map<number, number>,
): Promise<void> {
	let next = from;
	const worker = async () => {
		while (next < from + count) {
			const status = await abuse(url, token, next++);
			statuses.set(status, (statuses.get(status) ?? 0) + 1);
		}
	};
	await Promise.all(Array.from({ length: 16 }, worker));
}

it('10 000 abusive deliveries start no execution, leave the dedupe stores empty and do not grow the heap', async () => {
	const { h, token } = await activeHost();
	const url = h.url('trigger');
	const statuses = new Map<number, number>();
	// Warm-up: JIT, express and n8n's caches reach their steady size before measuring.
	await storm(url, token, 1, 600, new Map());
	const before = heap();
	const started = Date.now();
	await storm(url, token, 1000, 10_000, statuses);
	const elapsed = Date.now() - started;
	const after = heap();

	expect(h.executions()).toEqual([]);
	expect(({} as Record<string, unknown>).polluted).toBeUndefined();
	expect([...statuses.keys()].filter((status) => status < 400)).toEqual([]);
	expect([...statuses.values()].reduce((a, b) => a + b, 0)).toBe(10_000);
	expect(storedWindow(h.nodeStaticData).hashes).toEqual([]);
	expect(recentIds('harness-workflow|trigger-node|production').size).toBe(0);
	const growth = after.heapUsed - before.heapUsed;
	// Generous: 10 000 requests, 200 of them 2 MB, must not leave even 16 MB behind.
	expect(growth).toBeLessThan(16 * MB);
	expect(after.arrayBuffers - before.arrayBuffers).toBeLessThan(16 * MB);

	// Still healthy: a real event from the platform starts exactly one execution.
	ctx.sandbox.activity('course-started', { email: 'ada@example.com', courseId: 101 });
	await ctx.sandbox.waitForDeliveries({ type: 'COURSE_STARTED', ok: true }, 5000);
	expect(h.executions()).toHaveLength(1);

	recordCounts({
		suite: 'trigger abuse',
		scenario: '10 000 deliveries: random tokens, 2 MB bodies, wrong methods, garbage',
		faults: 10_000,
		items: 10_000,
		succeeded: 0,
		failed: 10_000,
		duplicates: 0,
		lost: 0,
		note: `0 executions; answers ${[...statuses]
			.sort(([a], [b]) => a - b)
			.map(([status, n]) => `${status}×${n}`)
			.join(', ')}; heap ${(growth / MB).toFixed(1)} MB after gc; ${(elapsed / 1000).toFixed(1)} s`,
	});
});

it('real events beyond the duplicate window keep both dedupe stores at the window size', async () => {
	const WINDOW = 200;
	const { h, token } = await activeHost(WINDOW);
	const url = h.url('trigger');
	const ids = Array.from({ length: 1200 }, () => randomUUID());
	const headers = { 'Content-Type': 'application/json', 'X-Webhook-Security-Token': token };
	const body = (id: string) =>
		JSON.stringify({
			id,
			type: 'COURSE_COMPLETED',
			data: { user: { id: 1, name: 'A', email: 'a@example.com' }, course: { id: 101, name: 'C' } },
		});
	let next = 0;
	await Promise.all(
		Array.from({ length: 8 }, async () => {
			while (next < ids.length)
				expect(await send(url, 'PUT', body(ids[next++]), headers)).toBe(200);
		}),
	);
	expect(h.executions()).toHaveLength(ids.length);
	const held = storedWindow(h.nodeStaticData).hashes.length;
	expect(held).toBeGreaterThan(0);
	expect(held).toBeLessThanOrEqual(WINDOW);
	expect(recentIds('harness-workflow|trigger-node|production').size).toBeLessThanOrEqual(WINDOW);
	// The most recent ids are still caught when resent.
	for (const id of ids.slice(-20)) expect(await send(url, 'PUT', body(id), headers)).toBe(200);
	expect(h.executions()).toHaveLength(ids.length);
	recordCounts({
		suite: 'trigger abuse',
		scenario: `1 200 real events, duplicate window ${WINDOW}, last 20 resent`,
		faults: 20,
		items: ids.length + 20,
		succeeded: ids.length,
		failed: 0,
		duplicates: h.executions().length - ids.length,
		lost: 0,
		note: `stores hold ${held} (static data) and ${recentIds('harness-workflow|trigger-node|production').size} (memory) ids`,
	});
});
