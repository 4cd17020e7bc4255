/* eslint-disable @n8n/community-nodes/no-restricted-globals -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Benchmark 9. The trigger in a real n8n 2.41.1: deliveries per second turned into finished
 * executions, the Knolyx Trigger beside n8n's own Webhook node, each followed by one HTTP
 * Request to the sandbox (production URL, default execution saving, 4 deliveries in flight).
 */
import { randomUUID } from 'node:crypto';
import type { INode } from 'n8n-workflow';

import { QUICK, log } from '../config';
import { machineBusyMs, processCpuMs, round, type SandboxProcess } from '../lib';
import { realN8nUnavailable, sharedRealN8n, triggerNode, webhookNode, type RealN8n } from '../n8n-real';
import { goal, ratio, sections, table } from '../report';
import { HTTP_AUTH_HEADERS, HTTP_NODE_VERSION, HTTP_TYPE } from '../workflows';

const IN_FLIGHT = 4;
const KNOLYX = 'Knolyx Trigger';
const WEBHOOK = 'Webhook node (n8n)';
const COURSE_ROUTE = 'GET /public/api/v1/course/{id}';
const COURSE_ID = 101;

interface Target {
	name: string;
	url: string;
	token?: string;
}

interface Round {
	target: string;
	round: number;
	deliveries: number;
	unique: number;
	/** From the first delivery sent to the last execution's HTTP Request answered. */
	ms: number;
	executions: number;
	statuses: Record<string, number>;
	n8nCpuMs?: number;
	otherCores?: number;
}

function envelope(id: string, i: number): string {
	return JSON.stringify({
		id,
		type: 'COURSE_PAYMENT_RECEIVED',
		data: { user: { id: 1000 + i, name: `Buyer ${i}`, email: `buyer${i}@example.com` }, course: { id: COURSE_ID, name: 'Intro to n8n' } },
	});
}

/** `unique` new ids, and after every 10th one a resend of an id of this round sent before. */
function sequence(unique: number, random: () => number): { bodies: string[]; ids: string[] } {
	const ids: string[] = [];
	const bodies: string[] = [];
	for (let i = 0; ids.length < unique; i++) {
		const id = randomUUID();
		ids.push(id);
		bodies.push(envelope(id, i));
		if (ids.length % 10 === 0) bodies.push(envelope(ids[Math.floor(random() * ids.length)], i));
	}
	return { bodies, ids };
}

async function courseReads(sandbox: SandboxProcess): Promise<number> {
	return (await sandbox.stats()).byRoute[COURSE_ROUTE] ?? 0;
}

/** Sends every body with IN_FLIGHT at a time, then waits until `expected` executions reached their HTTP Request. */
async function push(sandbox: SandboxProcess, real: RealN8n, target: Target, bodies: string[], expected: number): Promise<Omit<Round, 'target' | 'round' | 'unique'>> {
	await sandbox.call('resetStats');
	const statuses: Record<string, number> = {};
	const cpuBefore = processCpuMs(real.pid);
	const busyBefore = machineBusyMs();
	const started = Date.now();
	let next = 0;
	const headers: Record<string, string> = { 'content-type': 'application/json', ...(target.token ? { 'x-webhook-security-token': target.token } : {}) };
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (next < bodies.length) {
				const body = bodies[next++];
				const res = await fetch(target.url, { method: 'PUT', headers, body, signal: AbortSignal.timeout(60_000) });
				await res.arrayBuffer();
				statuses[res.status] = (statuses[res.status] ?? 0) + 1;
			}
		}),
	);
	// Finished = the execution's HTTP Request reached the sandbox; give up after 60 s without progress.
	let seen = await courseReads(sandbox);
	let progressAt = Date.now();
	while (seen < expected && Date.now() - progressAt < 60_000) {
		await new Promise((resolve) => setTimeout(resolve, 100));
		const now = await courseReads(sandbox);
		if (now > seen) progressAt = Date.now();
		seen = now;
	}
	const ms = Date.now() - started;
	const cpuAfter = processCpuMs(real.pid);
	const busyAfter = machineBusyMs();
	// Executions that should not exist (a duplicate) may still be on their way: look once more a moment later.
	await new Promise((resolve) => setTimeout(resolve, 1500));
	const executions = await courseReads(sandbox);
	const n8nCpuMs = cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
	const otherCores =
		busyBefore !== undefined && busyAfter !== undefined && n8nCpuMs !== undefined ? Math.max(0, (busyAfter - busyBefore - n8nCpuMs) / ms) : undefined;
	return { deliveries: bodies.length, ms, executions, statuses, n8nCpuMs, otherCores };
}

export async function benchTriggerInN8n(sandbox: SandboxProcess): Promise<void> {
	const unique = QUICK ? 200 : 2600;
	log(`9. trigger in a real n8n 2.41.1: ${unique} unique events + 10 % resent, twice, ${IN_FLIGHT} in flight`);
	const reason = realN8nUnavailable();
	if (reason) {
		log(`  not measured: ${reason}`);
		sections.push(`### 9. Trigger in a real n8n: not measured\n\n${reason}.`);
		goal('9 trigger in n8n', 'time per delivery: Knolyx Trigger ÷ Webhook node', 'not measured', '≤ 1.1×', undefined);
		return;
	}
	await sandbox.call('reset');
	const real = await sharedRealN8n(sandbox.url, log);
	const httpStep = (): INode => ({
		id: randomUUID(),
		name: 'Read course',
		type: HTTP_TYPE,
		typeVersion: HTTP_NODE_VERSION,
		position: [250, 0],
		parameters: { url: `${sandbox.url}/public/api/v1/course/${COURSE_ID}`, ...HTTP_AUTH_HEADERS, options: {} },
	});
	// Version 2 is what a node added in the editor gets; version 1 is what workflows saved
	// before it keep (n8n evaluates one more expression per delivery for it).
	const knolyxTargets: Target[] = [];
	for (const typeVersion of [2, 1]) {
		const node = triggerNode('Knolyx Trigger', 'n8n-nodes-knolyx.knolyxTrigger', { events: ['COURSE_PAYMENT_RECEIVED'], options: {} }, {
			typeVersion,
			credentials: { knolyxApi: { id: real.credential.id, name: real.credential.name } },
		});
		await real.addWorkflow(`bench trigger: Knolyx Trigger v${typeVersion}`, [node, httpStep()]);
		const registered = (await sandbox.call<Array<{ url: string; securityToken: string }>>('webhooks')).find((w) => w.url.includes(node.webhookId as string));
		if (!registered) throw new Error('publishing the Knolyx Trigger workflow registered no webhook on the sandbox');
		knolyxTargets.push({ name: typeVersion === 2 ? KNOLYX : `${KNOLYX} v1`, url: `${real.url}/webhook/${node.webhookId}/webhook`, token: registered.securityToken });
	}
	const webhookPath = `bench-trigger-${randomUUID().slice(0, 8)}`;
	await real.addWorkflow('bench trigger: Webhook node', [webhookNode({ httpMethod: 'PUT', path: webhookPath, responseMode: 'onReceived', options: {} }), httpStep()]);
	const targets: Target[] = [...knolyxTargets, { name: WEBHOOK, url: `${real.url}/webhook/${webhookPath}` }];
	let seed = 11;
	const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
	// Warm-up: both workflows with a few deliveries (n8n loads and compiles on first use; a fresh
	// webhook may answer 404 for a moment after publishing).
	for (const target of targets) {
		const warm = sequence(20, random);
		for (let attempt = 0; attempt < 40; attempt++) {
			const probe = await fetch(target.url, { method: 'PUT', headers: { 'content-type': 'application/json', ...(target.token ? { 'x-webhook-security-token': target.token } : {}) }, body: envelope(randomUUID(), 0) });
			await probe.arrayBuffer();
			if (probe.status !== 404) break;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		await push(sandbox, real, target, warm.bodies, target.token ? warm.ids.length : warm.bodies.length);
	}
	const rounds: Round[] = [];
	for (let round = 1; round <= 2; round++) {
		const { bodies, ids } = sequence(unique, random);
		for (const target of round === 1 ? targets : [...targets].reverse()) {
			const expected = target.token ? ids.length : bodies.length; // the Webhook node runs every delivery
			const r = await push(sandbox, real, target, bodies, expected);
			rounds.push({ ...r, target: target.name, round, unique: ids.length });
			log(`  ${target.name.padEnd(20)} round ${round}: ${bodies.length} deliveries in ${r.ms} ms (${round1(bodies.length / (r.ms / 1000))}/s), executions ${r.executions} (expected ${expected}), n8n cpu ${r.n8nCpuMs} ms, other load ${round1(r.otherCores)} cores`);
		}
	}
	const of = (name: string, round: number) => rounds.find((r) => r.target === name && r.round === round) as Round;
	const rows = rounds.map((r) => [
		r.target,
		r.round,
		r.deliveries,
		r.unique,
		`${round(r.ms / 1000, 1)} s`,
		round1(r.deliveries / (r.ms / 1000)),
		`${round(perDelivery(r), 1)} ms`,
		r.target === WEBHOOK ? '1×' : ratio(perDelivery(r) / perDelivery(of(WEBHOOK, r.round))),
		r.executions,
		Object.entries(r.statuses).map(([s, c]) => `${c}× ${s}`).join(', '),
		r.n8nCpuMs === undefined ? '?' : `${round(r.n8nCpuMs / r.deliveries, 1)} ms`,
		r.otherCores === undefined ? '?' : round1(r.otherCores),
	]);
	sections.push(
		[
			`### 9. Trigger in a real n8n 2.41.1: ${unique} unique events + 10 % resent, twice, ${IN_FLIGHT} in flight`,
			'',
			`Workflows: Knolyx Trigger (Course Payment Received) → HTTP Request (GET the course from the sandbox), and n8n's Webhook node (PUT, respond immediately) → the same HTTP Request; published, production URL, n8n's default execution saving. The deliveries are PUT straight to n8n with ${IN_FLIGHT} in flight (the Knolyx Trigger's with the registration's token); the time runs from the first delivery to the last execution's HTTP Request reaching the sandbox (executions = those requests). Each round sends ${unique} new ids, each 10th followed by a resend of an earlier id of the round; round 2 brings the seen-id window to its bound (5 000). The Webhook node starts an execution for every delivery, resends included.`,
			'',
			table(
				['trigger', 'round', 'deliveries', 'unique ids', 'time', 'deliveries/s', 'time per delivery', '÷ Webhook node', 'executions', 'answers', 'n8n CPU per delivery', 'other processes (cores busy)'],
				rows,
			),
		].join('\n'),
	);
	const k2 = of(KNOLYX, 2);
	const w2 = of(WEBHOOK, 2);
	const k1 = of(KNOLYX, 1);
	goal('9 trigger in n8n', 'time per delivery: Knolyx Trigger ÷ Webhook node (round 2, full window)', `${ratio(perDelivery(k2) / perDelivery(w2))} (${round1(k2.deliveries / (k2.ms / 1000))} vs ${round1(w2.deliveries / (w2.ms / 1000))} deliveries/s; round 1: ${ratio(perDelivery(k1) / perDelivery(of(WEBHOOK, 1)))})`, '≤ 1.1×', perDelivery(k2) / perDelivery(w2) <= 1.1, () =>
		whyTrigger(k2, w2, of(`${KNOLYX} v1`, 2), of(`${KNOLYX} v1`, 1), of(WEBHOOK, 1)),
	);
	const knolyxRounds = rounds.filter((r) => r.target !== WEBHOOK);
	goal(
		'9 trigger in n8n',
		'executions started by the Knolyx Trigger (versions 2 and 1, rounds 1 and 2)',
		`${knolyxRounds.map((r) => r.executions).join(' + ')} for ${knolyxRounds.map((r) => r.unique).join(' + ')} unique ids`,
		'exactly the unique ids',
		knolyxRounds.every((r) => r.executions === r.unique),
	);
}

const round1 = (value: number | undefined) => (value === undefined ? '?' : round(value, 1));

const perDelivery = (r: Round) => r.ms / r.deliveries;
const cpuPer = (r: Round) => round((r.n8nCpuMs ?? NaN) / r.deliveries, 1);

/** Why row 9 misses its goal: this run's figures, with what the profiles and n8n's code showed. */
function whyTrigger(k2: Round, w2: Round, v1r2: Round, v1r1: Round, w1: Round): string {
	return [
		`n8n's CPU per delivery in round 2: ${cpuPer(k2)} ms for the Knolyx Trigger (version 2), ${cpuPer(v1r2)} ms for version 1, ${cpuPer(w2)} ms for the Webhook node; version 1 in this run: ${ratio(perDelivery(v1r1) / perDelivery(w1))} / ${ratio(perDelivery(v1r2) / perDelivery(w2))} (rounds 1 / 2).`,
		`Where the difference goes (CPU profiles of n8n with BENCH_N8N_NODE_OPTIONS=--cpu-prof, separate runs, 2026-11-24; profiled times are about 2× the unprofiled ones):`,
		`(1) n8n 2.41 takes an expression isolate for the webhook phase of every start node that is not its own Webhook node (dist/webhooks/live-webhooks.js, webhookPhaseNeedsIsolate: the first test is the node type), on top of the one each execution takes; its isolate pool (@n8n/expression-runtime IsolatePool) disposes an isolate when it is released and builds a new one, so that is a new V8 isolate per delivery whatever N8N_EXPRESSION_ENGINE_POOL_SIZE is: about 6 ms more on n8n's main thread and about 25 ms more CPU outside it in the profiles. A community node cannot pass that test.`,
		`(2) For version 1 n8n also evaluates {{$parameter["options"]["binaryData"]}} in that isolate for every delivery (webhook-helpers.js parseRequestBody), about 6 ms; version 2 skips it (the difference between the two versions above).`,
		`(3) The node's own webhook() about 1.8 ms, most of it writing the HTTP answer; the dedupe at a full window of 5 000 ids 0.05 ms (the window is stored compactly, ~85 KB; before that, n8n's change-tracking proxy made the dedupe ~180 ms of ~245 ms per delivery at 2 600 ids); n8n's credential permission check and static-data load and save for a trigger with a credential and static data, ~2-3 ms.`,
		`With N8N_EXPRESSION_ENGINE=legacy (no isolates; BENCH_N8N_ENV, row 9 alone, quiet machine, 2026-11-24) the same row gave version 2 1.14× / 0.97× and version 1 0.94× / 1.06×: the gap that remains on n8n's default engine is n8n's isolate per delivery.`,
	].join(' ');
}
