/* eslint-disable @n8n/community-nodes/no-restricted-globals, @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Benchmark 5, in its own process: deliveries pushed into the Knolyx Trigger's
 * webhook handler, side by side with a bare handler that only parses JSON.
 *
 * Both nodes are hosted like n8n hosts them (test/harness trigger host:
 * n8n-core WebhookContext over real express req/res on 127.0.0.1). The time
 * spent inside each node's webhook() is measured per delivery; deliveries go
 * to the two hosts in alternating chunks, so both see the same machine load.
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import type { IDataObject, INodeType, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { KnolyxApi } from '../credentials/KnolyxApi.credentials';
import { startTriggerHost, type TriggerHost } from '../test/harness';
import { prng } from '../sandbox/faults';
import { machineBusyMs } from './lib';
import { DEMO_CREDENTIALS } from './workflows';

// KnolyxTrigger.node.json sits next to the .ts file and Node's resolver tries .json first: name the file.
const { KnolyxTrigger } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../nodes/Knolyx/KnolyxTrigger.node.ts') as typeof import('../nodes/Knolyx/KnolyxTrigger.node');
const dedupe =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../nodes/Knolyx/trigger/dedupe.ts') as typeof import('../nodes/Knolyx/trigger/dedupe');

export interface TriggerJob {
	url: string;
	deliveries: number;
	resentShare: number;
	/** Extra unique deliveries afterwards, to fill the seen-id store to its bound. */
	fill: number;
	/** Deliveries pushed first into separate hosts of the same nodes, not measured (JIT warm-up). */
	warmUp: number;
}

export interface TriggerResult {
	deliveries: number;
	warmUp: number;
	uniqueIds: number;
	knolyx: {
		handlerUsTotal: number;
		handlerUsMedian: number;
		roundTripUsMedian: number;
		executions: number;
		statuses: Record<string, number>;
	};
	bare: {
		handlerUsTotal: number;
		handlerUsMedian: number;
		roundTripUsMedian: number;
		executions: number;
	};
	/** The bare handler that also writes the HTTP answer itself, as the Knolyx Trigger must (noWebhookResponse). */
	bareAnswering: {
		handlerUsTotal: number;
		handlerUsMedian: number;
		roundTripUsMedian: number;
		executions: number;
	};
	/** Ids in the stored window when the last 500 deliveries began. */
	windowAtLastChunk: number;
	/** The same for the answering bare handler (shows what the machine did meanwhile). */
	answeringByChunk: number[];
	/** Average number of cores other processes kept busy while the deliveries were pushed. */
	otherCores?: number;
	/** Median handler time of the Knolyx trigger per 500 deliveries, in order (shows growth with the store). */
	knolyxByChunk: number[];
	store: {
		bound: number;
		entriesAtEnd: number;
		staticDataJsonBytes: number;
		/** Retained heap of a SeenStore (static data) and a RecentIds window filled to the bound with ids like the platform's. */
		seenStoreHeapBytes: number;
		recentIdsHeapBytes: number;
	};
	executionsAfterFill: number;
	uniqueAfterFill: number;
	error?: string;
	maxRssMb: number;
}

/** The baseline: a webhook handler that only parses the JSON body and starts an execution with it. */
// eslint-disable-next-line @n8n/community-nodes/webhook-lifecycle-complete -- a benchmark baseline: no registration on purpose
class BareTrigger implements INodeType {
	description: INodeType['description'] = {
		displayName: 'Bare Trigger',
		name: 'bareTrigger',
		group: ['trigger'],
		version: 1,
		description: 'Parses the JSON body, nothing else',
		defaults: { name: 'Bare Trigger' },
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		webhooks: [{ name: 'default', httpMethod: 'PUT', responseMode: 'onReceived', path: 'webhook' }],
		properties: [],
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as { rawBody?: Buffer };
		const body = JSON.parse((req.rawBody ?? Buffer.from('{}')).toString('utf8')) as IDataObject;
		return { workflowData: [[{ json: body }]] };
	}
}

/**
 * The same, answering the HTTP request itself like the Knolyx Trigger does (n8n 2.41 saves
 * static data before the execution only when the node answers): the time inside webhook()
 * then includes writing the answer for both, as it does in n8n.
 */
class AnsweringBareTrigger extends BareTrigger {
	constructor() {
		super();
		this.description = {
			...this.description,
			displayName: 'Answering Bare Trigger',
			name: 'answeringBareTrigger',
		};
	}

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject() as { rawBody?: Buffer };
		const body = JSON.parse((req.rawBody ?? Buffer.from('{}')).toString('utf8')) as IDataObject;
		this.getResponseObject().status(200).json({ received: true });
		return { noWebhookResponse: true, workflowData: [[{ json: body }]] };
	}
}

/** Wraps a node type's webhook() to record the time spent in it. */
function timed<T extends INodeType>(node: T, samples: number[]): T {
	const original = node.webhook as NonNullable<INodeType['webhook']>;
	node.webhook = async function (this: IWebhookFunctions) {
		const start = performance.now();
		try {
			return await original.call(this);
		} finally {
			samples.push((performance.now() - start) * 1000);
		}
	};
	return node;
}

const uuid = (random: () => number) =>
	'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, (c) => {
		const r = Math.floor(random() * 16);
		return (c === 'x' ? r : (r & 0x3) | 0x8).toString(16);
	});

function message(id: string, i: number): string {
	return JSON.stringify({
		id,
		type: 'COURSE_PAYMENT_RECEIVED',
		data: {
			user: { id: 1000 + i, name: `Buyer ${i}`, email: `buyer${i}@example.com` },
			course: { id: 101, name: 'Intro to n8n' },
		},
	});
}

const median = (values: number[]) => {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};

async function put(agent: http.Agent, url: string, body: string, token?: string): Promise<number> {
	return await new Promise((resolve, reject) => {
		const req = http.request(
			url,
			{
				method: 'PUT',
				agent,
				headers: {
					'Content-Type': 'application/json',
					'Content-Length': Buffer.byteLength(body),
					...(token ? { 'X-Webhook-Security-Token': token } : {}),
				},
			},
			(res) => {
				res.resume();
				res.on('end', () => resolve(res.statusCode ?? 0));
			},
		);
		req.on('error', reject);
		req.end(body);
	});
}

function retainedBytes(build: () => unknown): number {
	const gc = (global as { gc?: () => void }).gc;
	if (!gc) return -1;
	gc();
	gc();
	const before = process.memoryUsage().heapUsed;
	const kept = build();
	gc();
	gc();
	const after = process.memoryUsage().heapUsed;
	if (!kept) throw new Error('unreachable');
	return after - before;
}

async function main(): Promise<void> {
	const job = JSON.parse(process.argv[2]) as TriggerJob;
	const knolyxSamples: number[] = [];
	const bareSamples: number[] = [];
	const credentials = { knolyxApi: { baseUrl: job.url, ...DEMO_CREDENTIALS } };
	const hosts: TriggerHost[] = [];
	try {
		const knolyxHost = async (samples: number[], webhookId: string) => {
			const h = await startTriggerHost({
				nodeType: timed(new KnolyxTrigger(), samples),
				type: 'n8n-nodes-knolyx.knolyxTrigger',
				parameters: { events: ['COURSE_PAYMENT_RECEIVED', 'BUNDLE_PAYMENT_RECEIVED'], options: {} },
				credentials,
				credentialTypes: [new KnolyxApi()],
				webhookId,
			});
			hosts.push(h);
			await h.activate('trigger'); // registers the webhook on the sandbox, stores the secret
			const registrations = (h.nodeStaticData?.registrations ?? {}) as Record<
				string,
				{ secret?: string }
			>;
			const secret = registrations[h.url('trigger')]?.secret;
			if (!secret) throw new Error('the trigger stored no secret on activation');
			return { h, token: secret };
		};
		const bareHost = async (node: INodeType, samples: number[], webhookId: string) => {
			const h = await startTriggerHost({
				nodeType: timed(node, samples),
				type: `bench.${node.description.name}`,
				parameters: {},
				credentials: {},
				credentialTypes: [],
				webhookId,
			});
			hosts.push(h);
			await h.activate('trigger');
			return h;
		};
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

		// Warm-up: the same code on other hosts (their own webhook, static data and seen ids).
		{
			const scratch: number[] = [];
			const warmKnolyx = await knolyxHost(scratch, 'bench-warm-up');
			const warmBare = await bareHost(new BareTrigger(), scratch, 'bench-warm-up-bare');
			const warmAnswering = await bareHost(
				new AnsweringBareTrigger(),
				scratch,
				'bench-warm-up-answering',
			);
			const random = prng(99);
			const warmIds: string[] = [];
			for (let i = 0; i < job.warmUp; i++) {
				const resend = warmIds.length > 0 && random() < job.resentShare;
				const id = resend ? warmIds[Math.floor(random() * warmIds.length)] : uuid(random);
				if (!resend) warmIds.push(id);
				const body = message(id, i);
				await put(agent, warmKnolyx.h.url('trigger'), body, warmKnolyx.token);
				await put(agent, warmBare.url('trigger'), body);
				await put(agent, warmAnswering.url('trigger'), body);
			}
		}

		const answeringSamples: number[] = [];
		const { h: knolyx, token } = await knolyxHost(knolyxSamples, 'bench-knolyx');
		const bare = await bareHost(new BareTrigger(), bareSamples, 'bench-bare');
		const answering = await bareHost(
			new AnsweringBareTrigger(),
			answeringSamples,
			'bench-answering',
		);
		// The platform's creation PING (not a selected event) may still be on its way: let it land first.
		await new Promise((resolve) => setTimeout(resolve, 300));
		const knolyxUrl = knolyx.url('trigger');
		// The measured hosts warm up too, with an event type the trigger does not select (answered
		// 200, no execution, no id kept): the first requests of a new host are slower for every handler.
		for (let i = 0; i < Math.min(500, job.warmUp); i++) {
			const ping = JSON.stringify({ id: `ping-${i}`, type: 'PING', data: { message: 'PING' } });
			await put(agent, knolyxUrl, ping, token);
			await put(agent, bare.url('trigger'), ping);
			await put(agent, answering.url('trigger'), ping);
		}
		for (const samples of [knolyxSamples, bareSamples, answeringSamples]) samples.length = 0;
		const executionsBefore = knolyx.executions().length;
		const bareExecutionsBefore = bare.executions().length;
		const answeringExecutionsBefore = answering.executions().length;

		// The deliveries, 10 % of them resending an id delivered before, within the window (older resends
		// are new executions by design: docs/triggers.md, "Duplicates").
		const random = prng(7);
		const ids: string[] = [];
		const sequence: Array<{ id: string; i: number }> = [];
		for (let i = 0; i < job.deliveries; i++) {
			if (ids.length > 0 && random() < job.resentShare) {
				sequence.push({
					id: ids[
						ids.length -
							1 -
							Math.floor(random() * Math.min(ids.length, dedupe.DEFAULT_DEDUPE_WINDOW))
					],
					i,
				});
			} else {
				const id = uuid(random);
				ids.push(id);
				sequence.push({ id, i });
			}
		}
		const bodies = sequence.map(({ id, i }) => message(id, i));
		const statuses: Record<string, number> = {};
		const knolyxTrips: number[] = [];
		const bareTrips: number[] = [];
		const answeringTrips: number[] = [];
		// Ids in the stored window: 11 characters each in its chunks (dedupe.ts, SeenStore).
		const storedIds = () =>
			(
				(knolyx.nodeStaticData?.seen as { production?: { ids: string[] } } | undefined)?.production
					?.ids ?? []
			).reduce((n, chunk) => n + chunk.length / 11, 0);
		let windowAtLastChunk = 0;
		const CHUNK = 250;
		const pushStart = { t: Date.now(), cpu: process.cpuUsage(), busy: machineBusyMs() };
		for (let start = 0; start < bodies.length; start += CHUNK) {
			for (let i = start; i < Math.min(bodies.length, start + CHUNK); i++) {
				if (i === bodies.length - 500) windowAtLastChunk = storedIds();
				const t = performance.now();
				const status = await put(agent, knolyxUrl, bodies[i], token);
				knolyxTrips.push((performance.now() - t) * 1000);
				statuses[status] = (statuses[status] ?? 0) + 1;
			}
			for (let i = start; i < Math.min(bodies.length, start + CHUNK); i++) {
				const t = performance.now();
				await put(agent, bare.url('trigger'), bodies[i]);
				bareTrips.push((performance.now() - t) * 1000);
			}
			for (let i = start; i < Math.min(bodies.length, start + CHUNK); i++) {
				const t = performance.now();
				await put(agent, answering.url('trigger'), bodies[i]);
				answeringTrips.push((performance.now() - t) * 1000);
			}
		}
		const pushMs = Date.now() - pushStart.t;
		const pushCpu = process.cpuUsage(pushStart.cpu);
		const busyNow = machineBusyMs();
		const otherCores =
			busyNow !== undefined && pushStart.busy !== undefined
				? Math.max(0, (busyNow - pushStart.busy - (pushCpu.user + pushCpu.system) / 1000) / pushMs)
				: undefined;
		const knolyxExecutions = knolyx.executions().length - executionsBefore;
		const byChunk: number[] = [];
		const answeringByChunk: number[] = [];
		for (let start = 0; start < answeringSamples.length; start += 500)
			answeringByChunk.push(Math.round(median(answeringSamples.slice(start, start + 500))));
		for (let start = 0; start < knolyxSamples.length; start += 500)
			byChunk.push(Math.round(median(knolyxSamples.slice(start, start + 500))));

		// Fill the seen-id store past its bound with more unique deliveries.
		for (let i = 0; i < job.fill; i++) {
			const id = uuid(random);
			ids.push(id);
			await put(agent, knolyxUrl, message(id, job.deliveries + i), token);
		}
		agent.destroy();
		const entriesAtEnd = storedIds();

		// Retained heap of the two structures at the bound, built in isolation with ids of the same shape.
		const bound = dedupe.DEFAULT_DEDUPE_WINDOW;
		const limits = dedupe.DEFAULT_LIMITS;
		const sampleIds = Array.from({ length: bound }, () => uuid(random));
		const now = Date.now();
		// The stored window as n8n holds it after loading it (parsed JSON), filled through the node's own dedupe.
		const filled: IDataObject = {};
		for (const id of sampleIds)
			dedupe
				.openDedupe(filled, {
					scope: 'bench-heap',
					kind: 'production',
					limits,
					nowMs: now,
					writable: true,
				})
				.accept(id);
		const filledJson = JSON.stringify(filled);
		const seenStoreHeapBytes = retainedBytes(() => JSON.parse(filledJson) as unknown);
		// The process-local window, filled the same way (it keeps the ids' hashes).
		const recentIdsHeapBytes = retainedBytes(() => {
			for (const id of sampleIds)
				dedupe
					.openDedupe(
						{},
						{ scope: 'bench-heap-memory', kind: 'production', limits, nowMs: now, writable: false },
					)
					.accept(id);
			return dedupe.recentIds('bench-heap-memory');
		});

		const result: TriggerResult = {
			deliveries: job.deliveries,
			warmUp: job.warmUp,
			uniqueIds: new Set(sequence.map((s) => s.id)).size,
			knolyx: {
				handlerUsTotal: Math.round(
					knolyxSamples.slice(0, job.deliveries).reduce((a, b) => a + b, 0),
				),
				handlerUsMedian: Math.round(median(knolyxSamples.slice(0, job.deliveries))),
				roundTripUsMedian: Math.round(median(knolyxTrips)),
				executions: knolyxExecutions,
				statuses,
			},
			bare: {
				handlerUsTotal: Math.round(bareSamples.reduce((a, b) => a + b, 0)),
				handlerUsMedian: Math.round(median(bareSamples)),
				roundTripUsMedian: Math.round(median(bareTrips)),
				executions: bare.executions().length - bareExecutionsBefore,
			},
			bareAnswering: {
				handlerUsTotal: Math.round(answeringSamples.reduce((a, b) => a + b, 0)),
				handlerUsMedian: Math.round(median(answeringSamples)),
				roundTripUsMedian: Math.round(median(answeringTrips)),
				executions: answering.executions().length - answeringExecutionsBefore,
			},
			windowAtLastChunk,
			answeringByChunk,
			knolyxByChunk: byChunk,
			otherCores,
			store: {
				bound,
				entriesAtEnd,
				staticDataJsonBytes: Buffer.byteLength(JSON.stringify(knolyx.nodeStaticData ?? {})),
				seenStoreHeapBytes,
				recentIdsHeapBytes,
			},
			executionsAfterFill: knolyx.executions().length - executionsBefore,
			uniqueAfterFill: new Set(ids).size,
			maxRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
		};
		for (const h of hosts) await h.deactivate('trigger').catch(() => undefined);
		for (const h of hosts) await h.close();
		process.send?.(result, () => process.exit(0));
	} catch (error) {
		process.send?.({ error: (error as Error).stack ?? String(error) }, () => process.exit(0));
	}
}

void main();
