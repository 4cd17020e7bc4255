/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Benchmark 9. The trigger in a real n8n 2.41.1: deliveries per second turned into finished
 * executions, the Knolyx Trigger beside n8n's own Webhook node, each followed by one HTTP
 * Request to the sandbox (production URL, default execution saving, 4 deliveries in flight).
 *
 * Two anchors: the Webhook node version 1, which passes the same gate in n8n as the Knolyx
 * Trigger (a new expression isolate per delivery: webhookPhaseNeedsIsolate in n8n's
 * dist/webhooks/live-webhooks.js lets only the Webhook node from version 2 on skip it), and
 * the Webhook node version 2, which skips it (the limit). And a second n8n started with
 * N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true (experimental in 2.41: an isolate only when an
 * expression needs one), measured in the same rounds.
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import type { INode } from 'n8n-workflow';

import { QUICK, log } from '../config';
import { machineBusyMs, median, processCpuMs, round, type SandboxProcess } from '../lib';
import {
	BASELINE,
	realN8nUnavailable,
	sharedRealN8n,
	triggerNode,
	webhookNode,
	type N8nFlavour,
	type RealN8n,
} from '../n8n-real';
import { goal, ratio, sections, table } from '../report';
import { HTTP_AUTH_HEADERS, HTTP_NODE_VERSION, HTTP_TYPE } from '../workflows';

const IN_FLIGHT = 4;
/** Pairs of today's Knolyx Trigger v2 and the baseline's, back to back (issue 57's goal). */
const PAIRS = QUICK ? 2 : 6;
const COURSE_ROUTE = 'GET /public/api/v1/course/{id}';
const COURSE_ID = 101;
const LAZY: N8nFlavour = {
	name: 'lazy-acquire',
	env: { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' },
};

type Engine = 'default' | 'lazy';
/** `baseline`: the Knolyx Trigger of the package as at BASELINE.commit, in the same n8n. */
type Kind = 'knolyx' | 'baseline' | 'webhook';

/** What is measured in which n8n, in this order (round 2 in reverse): every Knolyx Trigger beside both Webhook nodes of the same n8n. */
const PLAN: Array<{ engine: Engine; kind: Kind; version: number }> = [
	{ engine: 'default', kind: 'knolyx', version: 2 },
	{ engine: 'default', kind: 'baseline', version: 2 },
	{ engine: 'default', kind: 'webhook', version: 1 },
	{ engine: 'default', kind: 'webhook', version: 2 },
	{ engine: 'lazy', kind: 'knolyx', version: 2 },
	{ engine: 'lazy', kind: 'webhook', version: 1 },
	{ engine: 'lazy', kind: 'webhook', version: 2 },
	{ engine: 'default', kind: 'knolyx', version: 1 },
];

const label = (t: { engine: Engine; kind: Kind; version: number }) =>
	`${t.kind === 'webhook' ? 'Webhook node' : 'Knolyx Trigger'} v${t.version}${t.kind === 'baseline' ? ` as at ${BASELINE.commit}` : ''}${t.engine === 'lazy' ? ', lazy acquire' : ''}`;

interface Target {
	name: string;
	engine: Engine;
	kind: Kind;
	version: number;
	real: RealN8n;
	url: string;
	token?: string;
}

interface Round {
	target: string;
	engine: Engine;
	kind: Kind;
	version: number;
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
		data: {
			user: { id: 1000 + i, name: `Buyer ${i}`, email: `buyer${i}@example.com` },
			course: { id: COURSE_ID, name: 'Intro to n8n' },
		},
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
async function push(
	sandbox: SandboxProcess,
	target: Target,
	bodies: string[],
	expected: number,
): Promise<Omit<Round, 'target' | 'engine' | 'kind' | 'version' | 'round' | 'unique'>> {
	const { real } = target;
	await sandbox.call('resetStats');
	const statuses: Record<string, number> = {};
	const cpuBefore = processCpuMs(real.pid);
	const busyBefore = machineBusyMs();
	const started = Date.now();
	let next = 0;
	const headers: Record<string, string> = {
		'content-type': 'application/json',
		...(target.token ? { 'x-webhook-security-token': target.token } : {}),
	};
	await Promise.all(
		Array.from({ length: IN_FLIGHT }, async () => {
			while (next < bodies.length) {
				const body = bodies[next++];
				const res = await fetch(target.url, {
					method: 'PUT',
					headers,
					body,
					signal: AbortSignal.timeout(60_000),
				});
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
	const n8nCpuMs =
		cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
	const otherCores =
		busyBefore !== undefined && busyAfter !== undefined && n8nCpuMs !== undefined
			? Math.max(0, (busyAfter - busyBefore - n8nCpuMs) / ms)
			: undefined;
	return { deliveries: bodies.length, ms, executions, statuses, n8nCpuMs, otherCores };
}

/** One measured run of `target` (push), as a Round. */
async function measureRound(
	sandbox: SandboxProcess,
	target: Target,
	bodies: string[],
	expected: number,
	round: number,
	unique: number,
): Promise<Round> {
	const r = await push(sandbox, target, bodies, expected);
	const { name, engine, kind, version } = target;
	return { ...r, target: name, engine, kind, version, round, unique };
}

export async function benchTriggerInN8n(sandbox: SandboxProcess): Promise<void> {
	const unique = QUICK ? 100 : 1000;
	const title = `${unique} unique events + 10 % resent, twice, ${IN_FLIGHT} in flight`;
	log(
		`9. trigger in a real n8n 2.41.1: ${title}; Webhook node v1 and v2 beside it, and a second n8n with ${Object.keys(LAZY.env).join(', ')}`,
	);
	const reason = realN8nUnavailable();
	if (reason) {
		log(`  not measured: ${reason}`);
		sections.push(`### 9. Trigger in a real n8n: not measured\n\n${reason}.`);
		goal(
			'9 trigger in n8n',
			'time per delivery: Knolyx Trigger ÷ Webhook node',
			'not measured',
			'≤ 1.1×',
			undefined,
		);
		return;
	}
	await sandbox.call('reset');
	const instances: Record<Engine, RealN8n> = {
		default: await sharedRealN8n(sandbox.url, log),
		lazy: await sharedRealN8n(sandbox.url, log, LAZY),
	};
	const httpStep = (): INode => ({
		id: randomUUID(),
		name: 'Read course',
		type: HTTP_TYPE,
		typeVersion: HTTP_NODE_VERSION,
		position: [250, 0],
		parameters: {
			url: `${sandbox.url}/public/api/v1/course/${COURSE_ID}`,
			...HTTP_AUTH_HEADERS,
			options: {},
		},
	});
	const targets: Target[] = [];
	const baselineMissing =
		'problem' in instances.default.baseline ? instances.default.baseline.problem : undefined;
	if (baselineMissing)
		log(`  the Knolyx Trigger as at ${BASELINE.commit} is not measured: ${baselineMissing}`);
	for (const planned of PLAN) {
		const real = instances[planned.engine];
		const name = label(planned);
		if (planned.kind === 'baseline' && 'problem' in real.baseline) continue;
		if (planned.kind !== 'webhook') {
			// Version 2 is what a node added in the editor gets; version 1 is what workflows saved
			// before it keep (n8n evaluates one more expression per delivery for it).
			const [pkg, credentialType, credential] =
				planned.kind === 'baseline' && 'credential' in real.baseline
					? [BASELINE.name, BASELINE.credentialType, real.baseline.credential]
					: ['n8n-nodes-knolyx', 'knolyxApi', real.credential];
			const node = triggerNode(
				'Knolyx Trigger',
				`${pkg}.knolyxTrigger`,
				{ events: ['COURSE_PAYMENT_RECEIVED'], options: {} },
				{
					typeVersion: planned.version,
					credentials: { [credentialType]: { id: credential.id, name: credential.name } },
				},
			);
			await real.addWorkflow(`bench trigger: ${name}`, [node, httpStep()]);
			const registered = (
				await sandbox.call<Array<{ url: string; securityToken: string }>>('webhooks')
			).find((w) => w.url.includes(node.webhookId as string));
			if (!registered)
				throw new Error(`publishing the ${name} workflow registered no webhook on the sandbox`);
			targets.push({
				...planned,
				name,
				real,
				url: `${real.url}/webhook/${node.webhookId}/webhook`,
				token: registered.securityToken,
			});
		} else {
			const path = `bench-trigger-v${planned.version}-${randomUUID().slice(0, 8)}`;
			await real.addWorkflow(`bench trigger: ${name}`, [
				webhookNode(
					{ httpMethod: 'PUT', path, responseMode: 'onReceived', options: {} },
					planned.version,
				),
				httpStep(),
			]);
			targets.push({ ...planned, name, real, url: `${real.url}/webhook/${path}` });
		}
	}
	let seed = 11;
	const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
	// Warm-up: every workflow with a few deliveries (n8n loads and compiles on first use; a fresh
	// webhook may answer 404 for a moment after publishing).
	for (const target of targets) {
		const warm = sequence(20, random);
		for (let attempt = 0; attempt < 40; attempt++) {
			const probe = await fetch(target.url, {
				method: 'PUT',
				headers: {
					'content-type': 'application/json',
					...(target.token ? { 'x-webhook-security-token': target.token } : {}),
				},
				body: envelope(randomUUID(), 0),
			});
			await probe.arrayBuffer();
			if (probe.status !== 404) break;
			await new Promise((resolve) => setTimeout(resolve, 250));
		}
		await push(sandbox, target, warm.bodies, target.token ? warm.ids.length : warm.bodies.length);
	}
	const rounds: Round[] = [];
	for (let turn = 1; turn <= 2; turn++) {
		const { bodies, ids } = sequence(unique, random);
		for (const target of turn === 1 ? targets : [...targets].reverse()) {
			const expected = target.kind === 'webhook' ? bodies.length : ids.length; // the Webhook node runs every delivery
			const r = await measureRound(sandbox, target, bodies, expected, turn, ids.length);
			rounds.push(r);
			log(
				`  ${target.name.padEnd(32)} round ${turn}: ${bodies.length} deliveries in ${r.ms} ms (${round1(bodies.length / (r.ms / 1000))}/s), executions ${r.executions} (expected ${expected}), n8n cpu ${r.n8nCpuMs} ms, other load ${round1(r.otherCores)} cores, load ${round(loadavg()[0], 1)}`,
			);
		}
	}
	// Issue 57's goal is a ratio of two versions of one trigger: measured again in short pairs,
	// today's and the baseline back to back on the same ids, in alternating order, so that a
	// change of load between the rounds above (minutes apart) does not decide it.
	const pairs: Array<{ order: string; today: Round; baseline: Round }> = [];
	const today = targets.find(
		(t) => t.engine === 'default' && t.kind === 'knolyx' && t.version === 2,
	);
	const then = targets.find((t) => t.kind === 'baseline');
	for (let pair = 1; today && then && pair <= PAIRS; pair++) {
		const { bodies, ids } = sequence(Math.round(unique / 5), random);
		const measured: Partial<Record<'today' | 'baseline', Round>> = {};
		const order = pair % 2 === 1 ? [today, then] : [then, today];
		for (const target of order) {
			measured[target === today ? 'today' : 'baseline'] = await measureRound(
				sandbox,
				target,
				bodies,
				ids.length,
				2 + pair,
				ids.length,
			);
		}
		const done = measured as Record<'today' | 'baseline', Round>;
		const names = order.map((t) => (t === today ? 'today' : 'baseline')).join(' then ');
		pairs.push({ order: names, today: done.today, baseline: done.baseline });
		log(
			`  pair ${pair} (${names}): ${bodies.length} deliveries each, today ${done.today.ms} ms, baseline ${done.baseline.ms} ms, executions ${done.today.executions} / ${done.baseline.executions} (expected ${ids.length}), load ${round(loadavg()[0], 1)}`,
		);
	}
	const of = (engine: Engine, kind: Kind, version: number, round: number) =>
		rounds.find(
			(r) => r.engine === engine && r.kind === kind && r.version === version && r.round === round,
		) as Round;
	/** This round's time per delivery ÷ that of the Webhook node `version` in the same n8n and round. */
	const per = (r: Round, version: number) =>
		perDelivery(r) / perDelivery(of(r.engine, 'webhook', version, r.round));
	const rows = rounds.map((r) => [
		r.target,
		r.round,
		r.deliveries,
		r.unique,
		`${round(r.ms / 1000, 1)} s`,
		round1(r.deliveries / (r.ms / 1000)),
		`${round(perDelivery(r), 1)} ms`,
		r.kind === 'webhook' && r.version === 1 ? '1×' : ratio(per(r, 1)),
		r.kind === 'webhook' && r.version === 2 ? '1×' : ratio(per(r, 2)),
		r.executions,
		Object.entries(r.statuses)
			.map(([s, c]) => `${c}× ${s}`)
			.join(', '),
		r.n8nCpuMs === undefined ? '?' : `${round(r.n8nCpuMs / r.deliveries, 1)} ms`,
		r.otherCores === undefined ? '?' : round1(r.otherCores),
	]);
	const both = (f: (round: number) => number) => `${ratio(f(1))} / ${ratio(f(2))}`;
	const lazyK2 = (n: number) => of('lazy', 'knolyx', 2, n);
	sections.push(
		[
			`### 9. Trigger in a real n8n 2.41.1: ${title}`,
			'',
			`Workflows: Knolyx Trigger (Course Payment Received) → HTTP Request (GET the course from the sandbox), and n8n's Webhook node (PUT, respond immediately) → the same HTTP Request; published, production URL, n8n's default execution saving. Two anchors: the Webhook node version 1, which passes the same gate in n8n 2.41 as the Knolyx Trigger (a new expression isolate for every delivery), and the Webhook node version 2, which n8n lets skip it (the limit). The Knolyx Trigger v2 as at ${BASELINE.commit} (the code issue 57 measured; it answered Knolyx before n8n held the execution) runs in the first n8n under another package name, in the same rounds. The same workflows also run in a second n8n 2.41.1 started with \`N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true\` (experimental in 2.41: an isolate only when an expression needs one), in the same rounds. The deliveries are PUT straight to n8n with ${IN_FLIGHT} in flight (the Knolyx Trigger's with the registration's token); the time runs from the first delivery to the last execution's HTTP Request reaching the sandbox (executions = those requests). Each round sends ${unique} new ids, each 10th followed by a resend of an earlier id of the round (round 2: the seen-id window holds ${unique} ids before it and ${2 * unique} after; item 5 measures the dedupe at its bound of 5 000). The Webhook node starts an execution for every delivery, resends included. The ratios divide by the Webhook node of the same n8n in the same round.`,
			'',
			table(
				[
					'trigger',
					'round',
					'deliveries',
					'unique ids',
					'time',
					'deliveries/s',
					'time per delivery',
					'÷ Webhook v1 (same gate)',
					'÷ Webhook v2 (limit)',
					'executions',
					'answers',
					'n8n CPU per delivery',
					'other processes (cores busy)',
				],
				rows,
			),
			'',
			`With lazy acquire, rounds 1 / 2: the Knolyx Trigger v2 took ${both((n) => perDelivery(lazyK2(n)) / perDelivery(of('default', 'knolyx', 2, n)))} of its time per delivery on n8n's default settings, and ${both((n) => perDelivery(lazyK2(n)) / perDelivery(of('default', 'webhook', 2, n)))} that of the Webhook node v2 on the default settings; the Webhook node v2 with lazy acquire ${both((n) => perDelivery(of('lazy', 'webhook', 2, n)) / perDelivery(of('default', 'webhook', 2, n)))} of its own on the default settings.`,
			...(pairs.length
				? [
						'',
						`Today's Knolyx Trigger v2 and the same as at ${BASELINE.commit}, in ${pairs.length} pairs back to back after the rounds (each pair: ${pairs[0].today.deliveries} deliveries of ${pairs[0].today.unique} new ids, the same for both; the order alternates):`,
						'',
						table(
							[
								'pair',
								'order',
								'today: time per delivery',
								`as at ${BASELINE.commit}`,
								'ratio',
								'n8n CPU per delivery (today / then)',
								'executions (today / then)',
								'other processes (cores busy)',
							],
							pairs.map((p, i) => [
								i + 1,
								p.order,
								`${round(perDelivery(p.today), 1)} ms`,
								`${round(perDelivery(p.baseline), 1)} ms`,
								ratio(perDelivery(p.today) / perDelivery(p.baseline)),
								`${cpuPer(p.today)} / ${cpuPer(p.baseline)} ms`,
								`${p.today.executions} / ${p.baseline.executions}`,
								`${round1(p.today.otherCores)} / ${round1(p.baseline.otherCores)}`,
							]),
						),
					]
				: []),
		].join('\n'),
	);
	const k2 = of('default', 'knolyx', 2, 2);
	const rate = (r: Round) => round1(r.deliveries / (r.ms / 1000));
	const headline = (r: Round, version: number) =>
		`${ratio(per(r, version))} (${rate(r)} vs ${rate(of(r.engine, 'webhook', version, 2))} deliveries/s; round 1: ${ratio(per(of(r.engine, r.kind, r.version, 1), version))})`;
	goal(
		'9 trigger in n8n',
		'time per delivery: Knolyx Trigger v2 ÷ Webhook node v1, the same gate (round 2)',
		headline(k2, 1),
		'≤ 1.1×',
		per(k2, 1) <= 1.1,
		() => whyTrigger(rounds, of),
	);
	goal(
		'9 trigger in n8n',
		'time per delivery: Knolyx Trigger v2 ÷ Webhook node v2, the limit (round 2)',
		headline(k2, 2),
		'≤ 1.1×',
		per(k2, 2) <= 1.1,
		() => whyTrigger(rounds, of),
	);
	const lk2 = lazyK2(2);
	goal(
		'9 trigger in n8n',
		'with N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true: Knolyx Trigger v2 ÷ Webhook node v2 of that n8n (round 2)',
		`${headline(lk2, 2)}; ÷ Webhook node v2 on the default settings: ${ratio(perDelivery(lk2) / perDelivery(of('default', 'webhook', 2, 2)))}`,
		'≤ 1.1×',
		per(lk2, 2) <= 1.1,
		() =>
			`n8n's CPU per delivery in round 2 with lazy acquire: ${cpuPer(lk2)} ms for the Knolyx Trigger v2, ${cpuPer(of('lazy', 'webhook', 1, 2))} ms for the Webhook node v1, ${cpuPer(of('lazy', 'webhook', 2, 2))} ms for the Webhook node v2; the Knolyx Trigger v2 ÷ Webhook node v1 of that n8n: ${ratio(per(lk2, 1))}.`,
	);
	const baselineOf = (n: number) => rounds.find((r) => r.kind === 'baseline' && r.round === n);
	const b1 = baselineOf(1);
	const b2 = baselineOf(2);
	const against = `time per delivery: Knolyx Trigger v2 ÷ the Knolyx Trigger v2 as at ${BASELINE.commit} (issue 57: within 10 % of that code's ratio to the Webhook node v1), the same ids`;
	if (!b1 || !b2 || pairs.length === 0)
		goal('9 trigger in n8n', against, `not measured (${baselineMissing})`, '≤ 1.1×', undefined);
	else {
		const vs = (b: Round) => perDelivery(of('default', 'knolyx', 2, b.round)) / perDelivery(b);
		const paired = pairs.map((p) => perDelivery(p.today) / perDelivery(p.baseline));
		goal(
			'9 trigger in n8n',
			against,
			`${ratio(median(paired))}, the median of ${pairs.length} pairs back to back (${paired.map(ratio).join(', ')}); rounds 1 / 2: ${ratio(vs(b1))} / ${ratio(vs(b2))} (÷ Webhook node v1: ${ratio(per(of('default', 'knolyx', 2, 1), 1))} vs ${ratio(per(b1, 1))} in round 1, ${ratio(per(k2, 1))} vs ${ratio(per(b2, 1))} in round 2)`,
			'≤ 1.1× (median of the pairs)',
			median(paired) <= 1.1,
			() =>
				`n8n's CPU per delivery, rounds 1 / 2: ${cpuPer(of('default', 'knolyx', 2, 1))} / ${cpuPer(k2)} ms for today's Knolyx Trigger v2, ${cpuPer(b1)} / ${cpuPer(b2)} ms for it as at ${BASELINE.commit}. Today's answers Knolyx once n8n holds the execution (the trigger's execute() sends it); the baseline answered in webhook(), before n8n created the execution, and lost the event when n8n then could not (issue 57).`,
		);
	}
	const knolyxRounds = [
		...rounds.filter((r) => r.kind !== 'webhook'),
		...pairs.flatMap((p) => [p.today, p.baseline]),
	];
	goal(
		'9 trigger in n8n',
		'executions started by the Knolyx Trigger (every n8n and version, rounds 1 and 2, the pairs)',
		`${knolyxRounds.map((r) => r.executions).join(' + ')} for ${knolyxRounds.map((r) => r.unique).join(' + ')} unique ids`,
		'exactly the unique ids',
		knolyxRounds.every((r) => r.executions === r.unique),
	);
}

const round1 = (value: number | undefined) => (value === undefined ? '?' : round(value, 1));

const perDelivery = (r: Round) => r.ms / r.deliveries;
const cpuPer = (r: Round) => round((r.n8nCpuMs ?? NaN) / r.deliveries, 1);

/** Why row 9 misses a goal on n8n's default settings: this run's figures, with what the profiles and n8n's code showed. */
function whyTrigger(
	rounds: Round[],
	of: (engine: Engine, kind: Kind, version: number, round: number) => Round,
): string {
	const k2 = of('default', 'knolyx', 2, 2);
	const k1 = of('default', 'knolyx', 1, 2);
	const w1 = of('default', 'webhook', 1, 2);
	const w2 = of('default', 'webhook', 2, 2);
	const r = (a: Round, b: Round) => ratio(perDelivery(a) / perDelivery(b));
	return [
		`n8n's CPU per delivery in round 2: ${cpuPer(k2)} ms for the Knolyx Trigger v2, ${cpuPer(k1)} ms for v1, ${cpuPer(w1)} ms for the Webhook node v1, ${cpuPer(w2)} ms for the Webhook node v2. Time per delivery in round 2: Knolyx v2 ÷ Webhook v1 ${r(k2, w1)}, Knolyx v1 ÷ Webhook v1 ${r(k1, w1)}, Webhook v1 ÷ Webhook v2 ${r(w1, w2)} (${rounds.length} runs in this row).`,
		`The Webhook node v1 pays what the Knolyx Trigger pays in n8n: (1) n8n 2.41 takes an expression isolate for the webhook phase of every start node that is not its own Webhook node from version 2 on (dist/webhooks/live-webhooks.js, webhookPhaseNeedsIsolate: the node type, then typeVersion 1), on top of the one each execution takes; its isolate pool (@n8n/expression-runtime IsolatePool) disposes an isolate when it is released and builds a new one, so that is a new V8 isolate per delivery whatever N8N_EXPRESSION_ENGINE_POOL_SIZE is (CPU profiles, separate runs, 2026-11-24: about 6 ms more on n8n's main thread and about 25 ms more CPU outside it). A community node cannot pass that test.`,
		`(2) For version 1 n8n also evaluates {{$parameter["options"]["binaryData"]}} in that isolate for every delivery (webhook-helpers.js parseRequestBody); version 2 skips it.`,
		`(3) The node's own webhook() about 1.8 ms in the profiles, most of it writing the HTTP answer; the dedupe 0.05 ms at a full window (item 5); n8n's credential permission check and static-data load and save for a trigger with a credential and static data, ~2-3 ms.`,
		`See the lazy-acquire rows for what the experimental N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE=true does to the gate.`,
	].join(' ');
}
