/* eslint-disable @n8n/community-nodes/no-restricted-imports -- development tooling: runs in plain Node, never inside n8n, and is not published (the package ships dist/ only) */
/**
 * Knolyx Poll Trigger benchmark: what one poll costs (requests, time) for an event with 10 000
 * attendees at several latencies, for every event of a community and for the course list, and the
 * size of the static data n8n saves, up to the node's bound. The node runs as n8n runs a poll
 * trigger (test/harness/poll-host: n8n-core's PollTriggerExecutor and PollContext) against an
 * in-process sandbox on 127.0.0.1 with the sandbox's latency fault.
 *
 * Exported as benchPoll(), called by bench/run.ts (`npm run bench -- --only=poll`).
 */
import { performance } from 'node:perf_hooks';

import { KnolyxApi } from '../credentials/KnolyxApi.credentials';
import { MAX_REMEMBERED } from '../nodes/Knolyx/poll/state';
import { DEMO, startSandbox, type Sandbox } from '../sandbox';
import { startPollHost, type PollHost } from '../test/harness/poll-host';

// Plain require would resolve '…/KnolyxPollTrigger.node' to the codex file KnolyxPollTrigger.node.json.
const { KnolyxPollTrigger } =
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	require('../nodes/Knolyx/KnolyxPollTrigger.node.ts') as typeof import('../nodes/Knolyx/KnolyxPollTrigger.node');

const ATTENDEES = 10_000;
const LATENCIES_MS = [0, 20, 100];

interface PollFigures {
	requests: number;
	medianMs: number;
	emitted: number;
}

const median = (values: number[]) =>
	[...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

function pollHost(sandbox: Sandbox, parameters: Record<string, unknown>): PollHost {
	return startPollHost({
		nodeType: new KnolyxPollTrigger(),
		type: 'n8n-nodes-knolyx.knolyxPollTrigger',
		parameters: parameters as never,
		credentials: {
			knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		},
		credentialTypes: [new KnolyxApi()],
	});
}

function register(sandbox: Sandbox, eventId: number, count: number): void {
	const first = sandbox.state.users.size;
	const users = Array.from({ length: count }, (_, i) => ({
		firstName: 'Bench',
		lastName: String(first + i),
		email: `bench${first + i}@poll.example`,
	}));
	const ids = sandbox.seed({ users }).users;
	sandbox.seed({ attendance: ids.map((userId) => ({ eventId, userId })) });
}

/** `polls` timed polls; before each, `addBetween` new attendees are registered (0 = nothing new). */
async function timePolls(
	sandbox: Sandbox,
	host: PollHost,
	eventId: number,
	polls: number,
	addBetween: number,
): Promise<PollFigures> {
	const times: number[] = [];
	let requests = 0;
	let emitted = 0;
	for (let i = 0; i < polls; i++) {
		if (addBetween > 0) register(sandbox, eventId, addBetween);
		sandbox.resetStats();
		const started = performance.now();
		const tick = await host.tick();
		times.push(performance.now() - started);
		if (tick.error) throw tick.error;
		requests = sandbox.stats().requests;
		emitted += tick.emitted?.length ?? 0;
	}
	return { requests, medianMs: median(times), emitted };
}

const eventParams = (communityId: number, eventId: number) => ({
	event: 'newAttendee',
	attendeesOf: 'event',
	communityId: String(communityId),
	eventId: { __rl: true, mode: 'id', value: String(eventId) },
});

export async function benchPoll(
	options: { quick?: boolean; log?: (...args: unknown[]) => void } = {},
): Promise<string> {
	const log = options.log ?? (() => undefined);
	const polls = options.quick ? 2 : 3;
	const sandbox = await startSandbox({ port: 0, seed: 'demo' });
	try {
		const { communityId, eventId } = sandbox.demo!;
		register(sandbox, eventId, ATTENDEES);
		const rows: string[] = [];
		let sizeAt10k = 0;
		for (const latencyMs of LATENCIES_MS) {
			log(`poll: event with ${ATTENDEES} attendees, latency ${latencyMs} ms`);
			sandbox.resetFaults();
			const host = pollHost(sandbox, eventParams(communityId, eventId));
			const activation = await host.activate();
			if (activation.error) throw activation.error;
			sizeAt10k = JSON.stringify(host.saved).length;
			sandbox.setFaults({ latencyMs });
			const idle = await timePolls(sandbox, host, eventId, polls, 0);
			const busy = await timePolls(sandbox, host, eventId, polls, 10);
			if (busy.emitted !== 10 * polls)
				throw new Error(`emitted ${busy.emitted}, expected ${10 * polls}`);
			// The attendees added by `busy` stay: reset to 10 000 for the next latency.
			for (const id of [...sandbox.state.attendeesOf(eventId).keys()].slice(ATTENDEES))
				sandbox.state.attendeesOf(eventId).delete(id);
			rows.push(
				`| ${latencyMs} ms | ${idle.requests} | ${idle.medianMs.toFixed(0)} ms | ${busy.requests} | ${busy.medianMs.toFixed(0)} ms | ${(idle.medianMs / Math.max(1, idle.requests)).toFixed(1)} ms |`,
			);
		}
		sandbox.resetFaults();

		// Every event of a community: 20 events of 50 attendees each (plus the demo event).
		log('poll: every event of a community');
		const published = sandbox.seed({
			events: Array.from({ length: 20 }, (_, i) => ({
				communityId,
				title: `Bench event ${i + 1}`,
			})),
		}).events;
		for (const id of published) register(sandbox, id, 50);
		const community = pollHost(sandbox, {
			event: 'newAttendee',
			attendeesOf: 'community',
			communityId: String(communityId),
		});
		await community.activate();
		sandbox.setFaults({ latencyMs: 20 });
		const communityPoll = await timePolls(sandbox, community, eventId, polls, 0);
		sandbox.resetFaults();

		// Static data at the bound: an event with as many attendees as the node remembers.
		log(`poll: static data at the bound (${MAX_REMEMBERED} entries)`);
		const [big] = sandbox.seed({
			events: [{ communityId, title: 'Bench event at the bound' }],
		}).events;
		register(sandbox, big, MAX_REMEMBERED);
		const atBound = pollHost(sandbox, eventParams(communityId, big));
		const boundActivation = await atBound.activate();
		if (boundActivation.error) throw boundActivation.error;
		const sizeAtBound = JSON.stringify(atBound.saved).length;
		register(sandbox, big, 1);
		const beyond = await atBound.tick();

		return [
			`### Knolyx Poll Trigger: one poll of an event with ${ATTENDEES.toLocaleString('en-US')} attendees`,
			'',
			`Each poll reads the whole attendee list, 100 a page, one page after the other; the median of ${polls} polls. "Idle" = nothing new, "10 new" = 10 attendees registered before each poll (one execution of 10 items each time, checked).`,
			'',
			'| latency | requests, idle | time, idle | requests, 10 new | time, 10 new | time ÷ requests |',
			'| --- | --- | --- | --- | --- | --- |',
			...rows,
			'',
			`Every event of a community (21 events: 20 of 50 attendees and one of ${ATTENDEES.toLocaleString('en-US')}), latency 20 ms: ${communityPoll.requests} requests, ${communityPoll.medianMs.toFixed(0)} ms per poll (event pages run concurrently through the transport's limiter).`,
			'',
			`Static data saved by n8n: ${kib(sizeAt10k)} for ${ATTENDEES.toLocaleString('en-US')} attendees, ${kib(sizeAtBound)} at the bound of ${MAX_REMEMBERED.toLocaleString('en-US')} entries. One entry more: the poll fails with "${beyond.error?.message ?? 'no error (unexpected)'}", and nothing is emitted or recorded.`,
		].join('\n');
	} finally {
		await sandbox.close();
	}
}
