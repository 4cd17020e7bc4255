#!/usr/bin/env node
// Queue mode, for real: `npm run test:queue` (scripts/queue.mjs prepares the
// machine, runs this file in its own process group under a time limit and kills
// whatever is left afterwards). Run folder: KNOLYX_E2E_RUN_DIR (set by the runner).
//
//   services   Redis + PostgreSQL (Debian's), the Knolyx sandbox, a balancer in
//              front of the webhook processors (n8n's public webhook URL), a sink
//   cluster    n8n main + 2 workers + 1 webhook processor, package linked in each
//   publish    publish/unpublish from the main: 1 Knolyx webhook, then 0, then 1
//   flow-b     Flow B (webhook -> Split Out -> Knolyx enrol) for B batches x S buyers,
//              POSTed to the webhook processor; one worker SIGKILLed half way;
//              the client retries a POST that did not succeed
//   trigger    the Knolyx Trigger for E course-completed events + 10 % resends
//   db-pause   n8n's execution table locked 30 s (PostgreSQL) while 50 events arrive
//   restart    the webhook processor restarted; every event id resent
//   two        a second webhook processor behind the balancer; new events, each
//              resent at once (racing the first delivery) and again later
//
// Flags: --batches 50 --batch-size 10 --events 1000 --kill-after 20 --pause-events 50 --pause-ms 30000
//        --flow-b-response lastNode|onReceived --no-kill --no-two

import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { readExample } from '../e2e/lib/n8n.mjs';
import { RUN_DIR, sleep, startSandboxProcess, waitFor } from '../e2e/lib/processes.mjs';
import { DEMO, SandboxClient } from '../e2e/lib/sandbox.mjs';
import { Cluster } from './lib/cluster.mjs';
import { reportingToSink, startBalancer, startSink } from './lib/http.mjs';
import { killVerdict } from './lib/killed.mjs';
import { startPostgres, startRedis } from './lib/services.mjs';

// ------------------------------------------------------------------ options

const argv = process.argv.slice(2);
const flag = (name, fallback) => {
	const i = argv.indexOf(`--${name}`);
	return i >= 0 ? argv[i + 1] : fallback;
};
const OPT = {
	batches: Number(flag('batches', 50)),
	batchSize: Number(flag('batch-size', 10)),
	events: Number(flag('events', 1000)),
	killAfter: Number(flag('kill-after', 20)),
	kill: !argv.includes('--no-kill'),
	two: !argv.includes('--no-two'),
	flowBResponse: flag('flow-b-response', 'lastNode'),
	postConcurrency: 6,
	eventConcurrency: Number(flag('event-concurrency', 4)),
	pauseEvents: Number(flag('pause-events', 50)),
	pauseMs: Number(flag('pause-ms', 30_000)),
	isolatePool: flag('isolate-pool'),
	// Another build of the package (a folder with package.json and dist/), e.g. to compare versions.
	packageFrom: flag('package-dir'),
	stall: { lockDurationMs: 15_000, lockRenewMs: 5_000, stalledIntervalMs: 10_000 },
};

const T0 = Date.now();
const secs = (from = T0) => ((Date.now() - from) / 1000).toFixed(1);
const say = (msg) => console.error(`[queue ${secs()} s] ${msg}`);
const timings = {};
async function phase(name, fn) {
	const t = Date.now();
	say(`--- ${name}`);
	try {
		return await fn();
	} finally {
		timings[name] = Number(secs(t));
		say(`--- ${name} done in ${secs(t)} s`);
	}
}

const checks = [];
function check(name, ok, detail = '') {
	checks.push({ name, ok: !!ok, detail });
	console.error(`${ok ? '  ok  ' : '  FAIL'} ${name}${detail ? ` (${detail})` : ''}`);
	return !!ok;
}
const counts = {};
const notes = {};

/** Run `fn` over `items` with at most `limit` in flight. */
async function pool(items, limit, fn) {
	const results = new Array(items.length);
	let next = 0;
	await Promise.all(
		Array.from({ length: Math.min(limit, items.length) }, async () => {
			while (next < items.length) {
				const i = next++;
				results[i] = await fn(items[i], i);
			}
		}),
	);
	return results;
}

// ------------------------------------------------------------------ workflows

const IDS = { flowB: 'queueFlowBBatchs', trigger: 'queueKnolyxTrigg' };
const CREDENTIAL = { id: 'knolyxSandboxCred', name: 'Knolyx sandbox', type: 'knolyxApi' };
const FLOW_B_PATH = 'knolyx-queue-payments';
const COURSE_WORKGROUP = 201; // examples/flow-b-payment-enrolment.json

/** examples/flow-b-payment-enrolment.json for a batch of buyers: Webhook -> Split Out -> Knolyx enrol. */
function flowBWorkflow(responseMode) {
	const ex = readExample('flow-b-payment-enrolment.json');
	const [hook, enrolNode] = ex.nodes;
	const split = {
		parameters: { fieldToSplitOut: 'body.buyers', options: {} },
		id: 'b2e4d2b0-0001-4b8f-8d72-0000000000aa',
		name: 'One item per buyer',
		type: 'n8n-nodes-base.splitOut',
		typeVersion: 1,
		position: [120, 0],
	};
	return {
		...ex,
		id: IDS.flowB,
		name: `queue: Flow B, a batch of buyers (respond ${responseMode})`,
		nodes: [
			{
				...hook,
				webhookId: crypto.randomUUID(),
				parameters: { httpMethod: 'POST', path: FLOW_B_PATH, responseMode, options: {} },
			},
			split,
			{
				...enrolNode,
				parameters: {
					...enrolNode.parameters,
					email: '={{ $json.email }}',
					firstName: '={{ $json.firstName }}',
					lastName: '={{ $json.lastName }}',
				},
			},
		],
		connections: {
			[hook.name]: { main: [[{ node: split.name, type: 'main', index: 0 }]] },
			[split.name]: { main: [[{ node: enrolNode.name, type: 'main', index: 0 }]] },
		},
	};
}

/** examples/course-completed-notification.json + one POST per execution to the sink: { eventId, executionId }. */
function triggerWorkflow(sinkUrl) {
	return reportingToSink(readExample('course-completed-notification.json'), {
		triggerType: 'n8n-nodes-knolyx.knolyxTrigger',
		sinkUrl,
		reportId: 'd4b6f4d0-0001-4da1-8f94-0000000000aa',
		fields: [{ name: 'to', value: '={{ $json.to }}' }],
		top: { id: IDS.trigger, name: 'queue: Knolyx Trigger, course completed' },
	});
}

const buyer = (i) => ({
	email: `queue-buyer-${String(i).padStart(4, '0')}@example.com`,
	firstName: 'Queue',
	lastName: `Buyer ${i}`,
});

// ------------------------------------------------------------------ n8n reads

const DONE = new Set(['success', 'error', 'crashed', 'canceled']);

/** Every execution of a workflow from the main's REST API (pages of 100, newest first). */
async function allExecutions(rest, workflowId) {
	// n8n 2.41 pages with an opaque cursor (firstId/lastId answer 400 "Use cursor").
	const byId = new Map();
	let cursor;
	for (let pages = 0; pages < 1000; pages++) {
		const q = new URLSearchParams({ filter: JSON.stringify({ workflowId }), limit: '100' });
		if (cursor) q.set('cursor', cursor);
		const page = await rest.request('GET', `/rest/executions?${q}`, undefined, {
			timeoutMs: 60_000,
		});
		const results = page.results ?? [];
		for (const e of results) byId.set(String(e.id), e);
		if (!page.nextCursor || results.length === 0) break;
		cursor = page.nextCursor;
	}
	return [...byId.values()];
}

/** p50 / p95 / max of the balancer's latencies for one method since index `from`. */
function latency(balancer, method, from = 0) {
	const ms = balancer.state.latencies
		.slice(from)
		.filter(([m]) => m === method)
		.map(([, t]) => t)
		.sort((a, b) => a - b);
	if (!ms.length) return undefined;
	const q = (p) => ms[Math.min(ms.length - 1, Math.floor(p * ms.length))];
	return { n: ms.length, p50: q(0.5), p95: q(0.95), max: ms.at(-1) };
}

const STATUSES = ['success', 'error', 'crashed', 'canceled', 'running', 'new', 'waiting'];

/** Execution counts per status of a workflow, from the main's REST API (the `count` of a filtered list). */
async function executionCounts(rest, workflowId) {
	const out = {};
	for (const status of STATUSES) {
		const q = new URLSearchParams({
			filter: JSON.stringify({ workflowId, status: [status] }),
			limit: '1',
		});
		const page = await rest.request('GET', `/rest/executions?${q}`, undefined, {
			timeoutMs: 60_000,
		});
		if (page.count) out[status] = page.count;
	}
	return out;
}

/** The same from PostgreSQL, as a cross-check. */
function executionCountsInDb(postgres, workflowId) {
	const rows = postgres.query(
		`select status, count(*) from execution_entity where "workflowId" = '${workflowId}' group by status`,
	);
	return Object.fromEntries(
		rows
			.trim()
			.split('\n')
			.filter(Boolean)
			.map((l) => {
				const [k, v] = l.split('|');
				return [k, Number(v)];
			}),
	);
}

function byStatus(list) {
	const out = {};
	for (const e of list) out[e.status] = (out[e.status] ?? 0) + 1;
	return out;
}

/**
 * The Knolyx Trigger's dedupe store as saved in PostgreSQL: which ids of production
 * deliveries it holds. The window keeps 11 base64url characters of each id's SHA-256
 * (in chunks of strings; nodes/Knolyx/trigger/dedupe.ts, SeenStore).
 */
function storedSeenIds(postgres, triggerNodeName) {
	const raw = postgres
		.query(`select "staticData" from workflow_entity where id = '${IDS.trigger}'`)
		.trim();
	const data = raw ? JSON.parse(raw) : {};
	const node = data[`node:${triggerNodeName}`] ?? {};
	const hashes = new Set(
		(node.seen?.production?.ids ?? []).flatMap((chunk) => chunk.match(/.{11}/g) ?? []),
	);
	const hashOf = (id) =>
		crypto.createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 11);
	return { size: hashes.size, has: (id) => hashes.has(hashOf(id)) };
}

/** Started/finished execution ids in a worker's log ("Worker started execution 12 (job 7)"). */
function workerLogExecutions(logFile) {
	const text = fs.existsSync(logFile) ? fs.readFileSync(logFile, 'utf8') : '';
	const started = new Set([...text.matchAll(/Worker started execution (\d+)/g)].map((m) => m[1]));
	const finished = new Set([...text.matchAll(/Worker finished execution (\d+)/g)].map((m) => m[1]));
	return { started, finished, running: [...started].filter((id) => !finished.has(id)) };
}

// ------------------------------------------------------------------ the run

const stopList = [];
let exitCode = 0;

async function main() {
	fs.mkdirSync(RUN_DIR, { recursive: true });

	// ------------------------------------------------------------ services
	const { redis, postgres, sandbox, balancer, sink } = await phase('services', async () => {
		const [redis, postgres, sandbox] = await Promise.all([
			startRedis({ dir: path.join(RUN_DIR, 'redis') }),
			startPostgres({ dir: path.join(RUN_DIR, 'postgres') }),
			startSandboxProcess({ seed: 'demo' }),
		]);
		stopList.push(
			() => sandbox.stop(),
			() => redis.stop(),
			() => postgres.stop(),
		);
		const balancer = await startBalancer();
		const sink = await startSink();
		stopList.push(
			() => balancer.close(),
			() => sink.close(),
		);
		say(
			`redis :${redis.port}, postgres :${postgres.port}, sandbox ${sandbox.url}, balancer ${balancer.url}, sink ${sink.url}`,
		);
		return { redis, postgres, sandbox, balancer, sink };
	});
	const platform = new SandboxClient(sandbox.url);
	// Quiet sandbox log (one line per request otherwise) is not needed: it goes to a file.

	// ------------------------------------------------------------ cluster
	const flowB = flowBWorkflow(OPT.flowBResponse);
	const triggerWf = triggerWorkflow(sink.url);
	const TRIGGER_NODE = triggerWf.nodes[0].name;
	const cluster = new Cluster({
		runDir: RUN_DIR,
		redisPort: redis.port,
		postgres,
		publicUrl: balancer.url,
		stall: OPT.stall,
	});
	if (OPT.isolatePool) cluster.env.N8N_EXPRESSION_ENGINE_POOL_SIZE = OPT.isolatePool;
	stopList.unshift(() => cluster.stopAll());
	await phase('cluster', async () => {
		await cluster.prepare({
			credentials: [
				{
					...CREDENTIAL,
					data: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
				},
			],
			workflows: [flowB, triggerWf],
			packageFrom: OPT.packageFrom && path.resolve(OPT.packageFrom),
		});
		say('credential and workflows imported into PostgreSQL; starting main');
		await cluster.startMain();
		await cluster.rest.ensureOwner({
			email: 'queue-owner@example.com',
			password: 'Knolyx-Queue-1',
			firstName: 'Queue',
			lastName: 'Owner',
		});
		// Workers and the webhook processor one after the other: each boot is CPU-heavy on 2 cores.
		await cluster.startWorker('worker-1');
		await cluster.startWorker('worker-2');
		const webhook = await cluster.startWebhook('webhook-1');
		balancer.setUpstreams([webhook.url]);
		for (const [name, p] of cluster.processes)
			say(`${name}: pid ${p.pid}, ${p.url}, ready after ${(p.startupMs / 1000).toFixed(1)} s`);
	});
	const rest = cluster.rest;

	// ------------------------------------------------------------ publish / unpublish
	await phase('publish', async () => {
		await rest.activateWorkflow(IDS.flowB);
		await rest.activateWorkflow(IDS.trigger);
		const hookUrl = (await platform.webhooks()).map((w) => w.url);
		check('publish from main: 1 Knolyx webhook', hookUrl.length === 1, hookUrl.join(', '));
		check(
			'the Knolyx webhook points at the public (balancer) URL',
			hookUrl[0]?.startsWith(`${balancer.url}/webhook/`),
			hookUrl[0],
		);
		const cycles = [];
		for (let i = 0; i < 2; i++) {
			await rest.deactivateWorkflow(IDS.trigger);
			const afterUnpublish = (await platform.webhooks()).length;
			await rest.activateWorkflow(IDS.trigger);
			const afterPublish = (await platform.webhooks()).length;
			cycles.push(`${afterUnpublish}/${afterPublish}`);
		}
		check(
			'unpublish -> 0 webhooks, publish -> 1 (two cycles, from the main)',
			cycles.every((c) => c === '0/1'),
			cycles.join(' '),
		);
		const stats = await platform.stats();
		const creates = Object.entries(stats.writes).filter(([k]) => k.startsWith('webhook-create:'));
		check(
			'no duplicate webhook-create on the platform',
			stats.duplicateWrites === 0,
			JSON.stringify(creates),
		);
		// The main serves no production webhook (N8N_DISABLE_PRODUCTION_MAIN_PROCESS=true).
		const onMain = await fetch(`${cluster.get('main').url}/webhook/${FLOW_B_PATH}`, {
			method: 'POST',
			body: '{}',
			headers: { 'content-type': 'application/json' },
		});
		notes.mainProductionWebhook = `POST main /webhook/${FLOW_B_PATH} -> ${onMain.status}`;
		const pings = await platform.deliveries({ type: 'PING' });
		notes.creationPings = pings.map((d) => `${d.status ?? d.error}`).join(' ');
		say(`creation PINGs (status per attempt): ${notes.creationPings}`);
	});

	// ------------------------------------------------------------ Flow B
	await phase('flow-b', async () => {
		const url = `${balancer.url}/webhook/${FLOW_B_PATH}`;
		const batches = Array.from({ length: OPT.batches }, (_, b) => ({
			batch: b,
			buyers: Array.from({ length: OPT.batchSize }, (_, j) => buyer(b * OPT.batchSize + j)),
		}));
		let answeredOk = 0;
		let killed = null;
		const attemptsLog = [];
		const killWorker = async () => {
			const worker = cluster.get('worker-1');
			await cluster.kill('worker-1');
			// Its log once it is dead: an execution that finished while the kill was under way is
			// not counted as running (read before the kill, one that finished in between was, and
			// the check below then found it `success`).
			const before = workerLogExecutions(worker.logFile);
			killed = {
				at: Date.now(),
				runningOnWorker: before.running,
				startedOnWorker: before.started.size,
			};
			say(
				`SIGKILLed worker-1 (pid group ${worker.pid}) with ${before.running.length} execution(s) running on it: ${before.running.join(', ')}`,
			);
		};
		const post = async ({ batch, buyers }) => {
			const attempts = [];
			for (let attempt = 1; attempt <= 6; attempt++) {
				const t = Date.now();
				let status;
				let body = '';
				try {
					const res = await fetch(url, {
						method: 'POST',
						headers: { 'content-type': 'application/json' },
						body: JSON.stringify({ batch, buyers }),
						signal: AbortSignal.timeout(180_000),
					});
					status = res.status;
					body = (await res.text()).slice(0, 200);
				} catch (e) {
					status = `error: ${e.message}`;
				}
				attempts.push({ attempt, status, ms: Date.now() - t, body });
				if (status === 200) break;
				await sleep(1_000 * attempt);
			}
			attemptsLog.push({ batch, attempts });
			if (attempts.at(-1).status === 200) answeredOk++;
			if (OPT.kill && !killed && answeredOk >= OPT.killAfter) {
				killed = 'pending';
				// Kill only while an execution runs on it (its log says started, not finished).
				const logFile = cluster.get('worker-1').logFile;
				await waitFor(() => workerLogExecutions(logFile).running.length > 0, {
					timeoutMs: 30_000,
					intervalMs: 20,
					what: 'an execution running on worker-1',
				}).catch(() => {});
				await killWorker();
			}
			return attempts;
		};
		const t = Date.now();
		await pool(batches, OPT.postConcurrency, post);
		const postSeconds = (Date.now() - t) / 1000;
		const retried = attemptsLog.filter((a) => a.attempts.length > 1);
		const failedForGood = attemptsLog.filter((a) => a.attempts.at(-1).status !== 200);
		notes.flowBRetries = retried.map(
			(a) => `batch ${a.batch}: ${a.attempts.map((x) => `${x.status}/${x.ms}ms`).join(' -> ')}`,
		);
		for (const line of notes.flowBRetries) say(`  retried ${line}`);
		check(
			`every Flow B POST answered 200 in the end (${OPT.batches} POSTs, client retries allowed)`,
			failedForGood.length === 0,
			`${retried.length} retried, ${failedForGood.length} failed for good`,
		);

		// n8n's view: every execution finished; one success per batch.
		const execs = await waitFor(
			async () => {
				const list = await allExecutions(rest, IDS.flowB);
				return list.every((e) => DONE.has(e.status)) ? list : undefined;
			},
			{ timeoutMs: 120_000, intervalMs: 1000, what: 'every Flow B execution to finish' },
		);
		const statuses = byStatus(execs);
		counts.flowBExecutions = execs.length;
		counts.flowBExecutionStatuses = statuses;
		check(
			'Flow B: every execution finished (main REST)',
			execs.every((e) => DONE.has(e.status)),
			JSON.stringify(statuses),
		);
		check(
			`Flow B: ${OPT.batches} successful executions (one per batch)`,
			(statuses.success ?? 0) === OPT.batches,
			JSON.stringify(statuses),
		);
		const failedExecs = execs.filter((e) => e.status !== 'success');
		check(
			'Flow B: one failed execution per retried POST',
			failedExecs.length === retried.length,
			`${failedExecs.length} not success, ${retried.length} POSTs retried`,
		);
		if (OPT.kill)
			check(
				'worker-1 was killed with executions running on it',
				killed?.runningOnWorker?.length > 0,
				`running: [${killed?.runningOnWorker?.join(', ')}]`,
			);
		if (killed && killed !== 'pending') {
			notes.killedWorker = {
				runningOnWorker: killed.runningOnWorker,
				failedExecutions: failedExecs.map((e) => `${e.id}:${e.status}`),
			};
			const { cutShort, endedBefore, ok } = killVerdict(killed.runningOnWorker, execs, killed.at);
			notes.killedWorker.cutShort = cutShort;
			notes.killedWorker.endedBeforeTheKill = endedBefore;
			check(
				'the executions running on the killed worker ended crashed/error, none success (but one that n8n stored as stopped before the kill), at least one cut short',
				ok,
				`running on worker-1 by its log: [${killed.runningOnWorker.join(', ')}]; cut short: [${cutShort.join(', ')}]; success, stopped before the kill: [${endedBefore.join(', ')}]; not success: [${failedExecs.map((e) => `${e.id} ${e.status}`).join(', ')}]`,
			);
		}

		// The platform: exactly the buyers, each a member of the course workgroup once.
		const state = await platform.state();
		const expected = new Set(
			Array.from({ length: OPT.batches * OPT.batchSize }, (_, i) => buyer(i).email),
		);
		const users = state.users.filter((u) => u.email.startsWith('queue-buyer-'));
		const userEmails = new Set(users.map((u) => u.email));
		const wg = state.workgroups.find((w) => w.id === COURSE_WORKGROUP);
		const memberEmails = (
			wg?.members ??
			state.members?.filter?.((m) => m.workgroupId === COURSE_WORKGROUP) ??
			[]
		).map((m) => (typeof m === 'string' ? m : m.email));
		const members = memberEmails.filter((e) => e.startsWith('queue-buyer-'));
		const lost = [...expected].filter((e) => !userEmails.has(e) || !members.includes(e));
		counts.flowBItems = expected.size;
		counts.flowBUsers = users.length;
		counts.flowBMemberships = members.length;
		counts.flowBLost = lost.length;
		check(
			`platform: ${expected.size} users, no more`,
			users.length === expected.size && userEmails.size === expected.size,
			`${users.length} users`,
		);
		check(
			`platform: ${expected.size} memberships of workgroup ${COURSE_WORKGROUP}, each once`,
			members.length === expected.size && new Set(members).size === expected.size,
			`${members.length} members`,
		);
		check('Flow B: lost = 0', lost.length === 0, lost.slice(0, 5).join(', '));

		// Repeated writes: only buyers of batches that ran more than once, and only idempotent repeats.
		const stats = await platform.stats();
		const repeated = Object.entries(stats.writes).filter(
			([k, n]) => n > 1 && /^(provision|member):/.test(k),
		);
		const retriedEmails = new Set(
			retried.flatMap((a) => batches[a.batch].buyers.map((b) => b.email.toLowerCase())),
		);
		const unexplained = repeated.filter(
			([k]) => !retriedEmails.has(k.split(':').at(-1).toLowerCase()),
		);
		counts.flowBRepeatedWrites = stats.duplicateWrites;
		counts.flowBPostSeconds = postSeconds;
		check(
			'platform duplicateWrites: only idempotent repeats of retried batches',
			unexplained.length === 0 && stats.duplicateWrites <= 2 * retriedEmails.size,
			`duplicateWrites ${stats.duplicateWrites}, keys written twice ${repeated.length}, buyers in retried batches ${retriedEmails.size}, unexplained ${unexplained.length}`,
		);
		await platform.request('POST', '/sandbox/stats/reset');
	});

	// ------------------------------------------------------------ Knolyx Trigger
	const emitted = []; // { messageId, email, courseId }
	const accepted = () => {
		const perEvent = new Map();
		for (const r of sink.received) perEvent.set(r.eventId, (perEvent.get(r.eventId) ?? 0) + 1);
		return perEvent;
	};
	// Closed loop, like a platform with a few delivery threads: each caller emits one
	// event and waits for its first delivery attempt before the next, so at most
	// `eventConcurrency` deliveries are in flight. (Open loop, 10 at a time, this
	// 2-core machine shared with other test runs answered slower than the platform's
	// 5 s timeout, the platform's retries piled up and the webhook processor ran out
	// of database connections: a capacity limit, not a dedupe question.)
	const firstAttempt = (messageId) =>
		platform.deliveries({ messageId, waitFor: 1, timeoutMs: 20_000 });
	const emit = async (email, courseId) => {
		const res = await platform.activity('course-completed', { email, courseId });
		const messages = res.messages ?? [];
		for (const m of messages) emitted.push({ messageId: m.messageId, email, courseId });
		for (const m of messages) await firstAttempt(m.messageId);
		return messages;
	};
	const resend = async (messageId) => {
		const before = (await platform.deliveries({ messageId })).length;
		await platform.resend(messageId); // answers with the first attempt of the resend
		return before;
	};
	const waitForSink = (n, what) =>
		waitFor(() => sink.received.length >= n, { timeoutMs: 240_000, intervalMs: 500, what });
	const settle = async () => {
		// Deliveries still retried by the platform, executions still queued: wait until nothing moves.
		let last = -1;
		for (let i = 0; i < 30; i++) {
			const n = sink.received.length;
			if (n === last) break;
			last = n;
			await sleep(2_000);
		}
	};

	await phase('trigger', async () => {
		const n = OPT.events;
		const users = OPT.batches * OPT.batchSize;
		const plan = Array.from({ length: n }, (_, i) => ({
			email: buyer(i % users).email,
			courseId: [101, 102, 103][Math.floor(i / users)],
		}));
		const resentEarly = [];
		const t = Date.now();
		const latencyFrom = balancer.state.latencies.length;
		await pool(plan, OPT.eventConcurrency, async ({ email, courseId }, i) => {
			const [message] = await emit(email, courseId);
			// 5 % resent at once: races the first delivery inside the one webhook processor.
			if (message && i % 20 === 0) {
				await resend(message.messageId);
				resentEarly.push(message.messageId);
			}
		});
		await waitForSink(n, `${n} trigger executions to report`);
		// 5 % more resent once everything was handled.
		const resentLate = emitted.filter((_, i) => i % 20 === 10).map((e) => e.messageId);
		await pool(resentLate, OPT.eventConcurrency, (id) => resend(id));
		await settle();
		counts.triggerSeconds = (Date.now() - t) / 1000;
		counts.triggerDeliveryLatencyMs = latency(balancer, 'PUT', latencyFrom);
		say(
			`delivery latency through the webhook processor (ms): ${JSON.stringify(counts.triggerDeliveryLatencyMs)}`,
		);
		const perEvent = accepted();
		const dup = [...perEvent.values()].filter((c) => c > 1).length;
		counts.triggerEvents = emitted.length;
		counts.triggerResends = resentEarly.length + resentLate.length;
		counts.triggerReports = sink.received.length;
		counts.triggerDuplicates = dup;
		counts.triggerLost = emitted.filter((e) => !perEvent.has(e.messageId)).length;
		check(
			`trigger: ${n} events emitted, ${counts.triggerResends} resent (10 %)`,
			emitted.length === n && counts.triggerResends === n / 10,
		);
		check(
			'trigger: each unique event started exactly one execution (duplicates = 0, lost = 0)',
			dup === 0 && counts.triggerLost === 0 && sink.received.length === n,
			`reports ${sink.received.length}, duplicates ${dup}, lost ${counts.triggerLost}`,
		);
		let perStatus;
		await waitFor(
			async () => {
				perStatus = await executionCounts(rest, IDS.trigger);
				return !perStatus.running && !perStatus.new && !perStatus.waiting;
			},
			{ timeoutMs: 120_000, intervalMs: 2000, what: 'every trigger execution to finish' },
		).catch(() => {});
		const total = Object.values(perStatus).reduce((a, b) => a + b, 0);
		counts.triggerExecutions = total;
		counts.triggerExecutionStatuses = perStatus;
		check(
			`trigger: ${n} executions, all success (main REST)`,
			total === n && perStatus.success === n,
			`REST ${JSON.stringify(perStatus)}, PostgreSQL ${JSON.stringify(executionCountsInDb(postgres, IDS.trigger))}`,
		);
		const deliveries = await platform.deliveries({ type: 'COURSE_COMPLETED' });
		const notOk = deliveries.filter((d) => !d.ok);
		// The answer comes once the execution runs on a worker: on a busy machine later than the
		// platform's timeout (5 s here), and a resend that arrives while the first delivery's
		// execution is still being created is answered 503 (send again). Either is sent again
		// and then answered "duplicate"; nothing else may fail.
		const stillStarting = notOk.filter(
			(d) => d.status === 503 || /^ECONNABORTED: timeout/.test(d.error ?? ''),
		);
		const unconfirmed = emitted.filter(
			(e) => !deliveries.some((d) => d.messageId === e.messageId && d.ok),
		);
		counts.triggerDeliveryAttempts = deliveries.length;
		counts.triggerResendsWhileStarting = stillStarting.length;
		notes.triggerDeliveriesNotOk = notOk
			.slice(0, 10)
			.map((d) => `${d.messageId} attempt ${d.attempt}: ${d.status ?? d.error}`);
		check(
			'trigger: every message answered 2xx at last; no attempt failed but those that waited for the execution (timeout, or 503 while it was being created)',
			unconfirmed.length === 0 && notOk.length === stillStarting.length,
			`${deliveries.length} attempts, ${notOk.length} not ok (${stillStarting.length} of them timed out or 503), ${unconfirmed.length} messages never answered 2xx`,
		);
		const stored = storedSeenIds(postgres, TRIGGER_NODE);
		const missing = emitted.filter((e) => !stored.has(e.messageId));
		counts.storedSeenAfterTrigger = stored.size;
		counts.missingFromStoreAfterTrigger = missing.length;
		say(
			`dedupe store in PostgreSQL after the trigger phase: ${stored.size} ids; ${missing.length} of ${emitted.length} accepted ids missing`,
		);
	});

	// ------------------------------------------------------------ n8n's database pauses
	// Another session holds a lock on n8n's execution table for 30 s (as a PostgreSQL
	// failover or a long migration would) while the platform delivers new events, 4 in
	// flight, resending what it does not see answered 2xx (up to 5 times, from 2 s doubling):
	// every event runs once, none is lost, every message is answered 2xx at last.
	await phase('db-pause', async () => {
		const n = OPT.pauseEvents;
		const before = sink.received.length;
		const firstIndex = emitted.length;
		await platform.request('POST', '/sandbox/config', {
			deliveryRetries: 5,
			deliveryBackoffMs: 2000,
			deliveryTimeoutMs: 30_000,
		});
		// A course of its own: the platform sends "completed" once per student and course.
		const {
			courses: [courseId],
		} = await platform.request('POST', '/sandbox/seed', {
			courses: [{ title: 'Queue mode: database pause' }],
		});
		const lock = await postgres.hold(
			'BEGIN; LOCK TABLE execution_entity IN ACCESS EXCLUSIVE MODE;',
		);
		const lockedAt = Date.now();
		const released = sleep(OPT.pauseMs)
			.then(() => lock.end())
			.then(() => Date.now() - lockedAt);
		let heldMs;
		try {
			await pool(
				Array.from({ length: n }, (_, i) => buyer(i)),
				OPT.eventConcurrency,
				async ({ email }) => {
					const res = await platform.activity('course-completed', { email, courseId });
					for (const m of res.messages ?? []) {
						emitted.push({ messageId: m.messageId, email, courseId });
						await firstAttempt(m.messageId).catch(() => undefined);
					}
				},
			);
		} finally {
			heldMs = await released;
		}
		const ids = emitted.slice(firstIndex).map((e) => e.messageId);
		await waitFor(
			async () => {
				const ok = new Set(
					(await platform.deliveries({ ok: true }))
						.map((d) => d.messageId)
						.filter((id) => ids.includes(id)),
				);
				return ok.size === ids.length;
			},
			{ timeoutMs: 240_000, intervalMs: 1000, what: `all ${ids.length} messages answered 2xx` },
		).catch(() => {});
		await waitForSink(before + n, `${n} executions after the pause`).catch(() => {});
		await settle();
		const perEvent = accepted();
		const attempts = (await platform.deliveries()).filter((d) => ids.includes(d.messageId));
		const firstAnswers = {};
		for (const d of attempts.filter((a) => a.attempt === 1))
			firstAnswers[d.status ?? d.error] = (firstAnswers[d.status ?? d.error] ?? 0) + 1;
		const lost = ids.filter((id) => !perEvent.has(id)).length;
		const twice = ids.filter((id) => (perEvent.get(id) ?? 0) > 1).length;
		const unconfirmed = ids.filter((id) => !attempts.some((d) => d.messageId === id && d.ok));
		counts.dbPause = {
			events: ids.length,
			heldMs,
			lost,
			twice,
			unconfirmed: unconfirmed.length,
			attempts: attempts.length,
			firstAnswers,
		};
		say(`database pause: ${JSON.stringify(counts.dbPause)}`);
		check(
			`database pause (execution table locked ${Math.round(heldMs / 1000)} s): each of ${ids.length} events ran exactly once and was answered 2xx at last`,
			ids.length === n && lost === 0 && twice === 0 && unconfirmed.length === 0,
			`lost ${lost}, twice ${twice}, never answered 2xx ${unconfirmed.length}`,
		);
		await platform.request('POST', '/sandbox/config', {
			deliveryRetries: 3,
			deliveryBackoffMs: 200,
			deliveryTimeoutMs: 5000,
		});
	});

	// ------------------------------------------------------------ restart the webhook processor, resend everything
	await phase('restart', async () => {
		const before = sink.received.length;
		await cluster.stop('webhook-1');
		const wh = await cluster.startWebhook('webhook-1b');
		balancer.setUpstreams([wh.url]);
		const ids = emitted.map((e) => e.messageId);
		const stored = storedSeenIds(postgres, TRIGGER_NODE);
		const notStored = ids.filter((id) => !stored.has(id));
		await pool(ids, OPT.eventConcurrency, (id) => resend(id));
		await settle();
		const after = sink.received.length - before;
		counts.resendAfterRestart = ids.length;
		counts.duplicatesAfterRestart = after;
		check(
			`after a webhook-processor restart, ${ids.length} resent ids start no execution`,
			after === 0,
			`${after} new executions; ${notStored.length} ids were missing from the stored dedupe window before the resends`,
		);
	});

	// ------------------------------------------------------------ two webhook processors
	if (OPT.two) {
		await phase('two-webhook-processors', async () => {
			const wh2 = await cluster.startWebhook('webhook-2');
			balancer.setUpstreams([cluster.get('webhook-1b').url, wh2.url]);
			const before = sink.received.length;
			const firstIndex = emitted.length;
			const n = 200;
			const users = OPT.batches * OPT.batchSize;
			const plan = Array.from({ length: n }, (_, i) => ({
				email: buyer(i % users).email,
				courseId: 103,
			}));
			// Each event resent at once: the resend races the first delivery, often on the other processor.
			await pool(plan, OPT.eventConcurrency, async ({ email, courseId }) => {
				const res = await platform.activity('course-completed', { email, courseId });
				for (const m of res.messages ?? []) {
					emitted.push({ messageId: m.messageId, email, courseId });
					await platform.resend(m.messageId); // while the first delivery may still be in flight
					await firstAttempt(m.messageId);
				}
			});
			await waitForSink(before + n, `${n} more executions`);
			await settle();
			const racing = sink.received.length - before - n;
			// Then every one resent again, now that the first executions are done.
			const mid = sink.received.length;
			const ids = emitted.slice(firstIndex).map((e) => e.messageId);
			await pool(ids, OPT.eventConcurrency, (id) => resend(id));
			await settle();
			const later = sink.received.length - mid;
			const perUpstream = balancer.state.byUpstream;
			counts.twoProcessors = {
				events: n,
				racingResendDuplicates: racing,
				laterResendDuplicates: later,
			};
			notes.balancer = perUpstream;
			const stored = storedSeenIds(postgres, TRIGGER_NODE);
			counts.twoProcessors.missingFromStore = ids.filter((id) => !stored.has(id)).length;
			// Not a guarantee: the two processors share the seen ids only through the workflow's
			// static data, which each saves whole (last writer wins), so a save of one can drop ids
			// the other accepted a moment before. Measured here: 0 of 200 on a quiet machine, 1 to 4 on a
			// loaded one. The check keeps the
			// share small (a store that lost every other process's ids would start ~half again).
			check(
				`two webhook processors: resends after the first execution started almost no execution (at most 5 %)`,
				later <= Math.ceil(ids.length * 0.05),
				`${later} duplicates from ${ids.length} later resends`,
			);
			say(
				`two webhook processors: resends after the first executions started ${later} extra execution(s) of ${ids.length}`,
			);
			say(
				`two webhook processors: resends racing the first delivery started ${racing} extra execution(s) of ${n} (not guaranteed, see docs/scaling.md "Queue mode")`,
			);
		});
	}
}

async function shutdown() {
	const t = Date.now();
	for (const stop of stopList) {
		try {
			await stop();
		} catch (e) {
			say(`cleanup: ${e.message}`);
		}
	}
	timings.shutdown = Number(secs(t));
}

// Stopped by the runner (time limit, Ctrl-C): stop what we started, then go.
for (const signal of ['SIGINT', 'SIGTERM']) {
	process.once(signal, () => {
		say(`${signal}: stopping every process of the run`);
		shutdown().finally(() => process.exit(1));
	});
}

try {
	await main();
} catch (e) {
	exitCode = 1;
	check('run completed', false, e.stack ?? String(e));
} finally {
	await shutdown();
}

const failed = checks.filter((c) => !c.ok);
const summary = { seconds: Number(secs()), timings, counts, notes, options: OPT };
fs.writeFileSync(
	path.join(RUN_DIR, 'summary.json'),
	JSON.stringify({ ...summary, checks }, null, 2),
);
console.log('\nqueue mode summary');
console.log(JSON.stringify(summary, null, 2));
console.log(
	`\ncounts: executions ${(counts.flowBExecutions ?? 0) + (counts.triggerExecutions ?? 0)}, items ${(counts.flowBItems ?? 0) + (counts.triggerEvents ?? 0)}, duplicates ${(counts.triggerDuplicates ?? 0) + (counts.duplicatesAfterRestart ?? 0)}, lost ${(counts.flowBLost ?? 0) + (counts.triggerLost ?? 0)}`,
);
console.log(`queue: ${checks.length - failed.length} passed, ${failed.length} failed`);
process.exit(failed.length || exitCode ? 1 : 0);
