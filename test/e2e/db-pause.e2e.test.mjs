// End-to-end: n8n's database pauses while Knolyx delivers (issue 57, "an event we acknowledged
// always runs"). Another process holds SQLite's lock (`BEGIN EXCLUSIVE`, n8n's own sqlite3 module
// in n8n's own Node) while the sandbox delivers 50 events, 4 in flight, to the Knolyx Trigger
// and, as the anchor, to n8n's own Webhook node (Respond: Immediately), each event to both. The
// lock is then released; the sandbox resends every message not answered 2xx (up to 5 times, a
// doubling backoff from 2 s). Asserted: every message of both ends answered 2xx, and each ran
// exactly once: no event lost, none twice. The trigger's resend after the pause is "duplicate".
//
// n8n 1.x runs it twice: with its default SQLite driver, then (n8n restarted on the same
// database) with DB_SQLITE_POOL_SIZE=2, the pooled (WAL) driver. Figures are printed
// ([e2e db-pause] …) for docs/triggers.md.

import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import path from 'node:path';

import { CACHE_DIR, n8nNodeBin } from '../../scripts/n8n-runtime.mjs';
import {
	execution,
	executionsOf,
	KNOLYX_CREDENTIALS,
	N8N_MAJOR,
	N8N_VERSION,
	N8nRest,
	nodeOutput,
	OWNER,
	startServer,
	startTestFile,
	TYPES,
	USER_FOLDER,
	DONE,
} from './lib/n8n.mjs';
import { endTestFile, killGroup, RUN_DIR, sleep, trackPid, waitFor } from './lib/processes.mjs';

const EVENTS = Number(process.env.KNOLYX_E2E_PAUSE_EVENTS ?? 50);
const IN_FLIGHT = 4;
/** How long the lock is held (the deliveries go on after it, as they come). */
const PAUSE_MS = Number(process.env.KNOLYX_E2E_PAUSE_MS ?? 30_000);

const IDS = { trigger: 'e2ePauseTrigger1', anchor: 'e2ePauseWebhook1' };
const TRIGGER_NODE = 'Knolyx Trigger';
const ANCHOR_NODE = 'Webhook';
const ANCHOR_PATH = 'e2e-db-pause-anchor';

const triggerWf = {
	id: IDS.trigger,
	name: 'e2e: Knolyx Trigger under a database pause',
	nodes: [
		{
			id: 'pause-trigger',
			name: TRIGGER_NODE,
			type: TYPES.trigger,
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b4a3e7c2-57e2-4d57-9a57-0000000057a1',
			parameters: { events: ['COURSE_STARTED'], options: {} },
			credentials: KNOLYX_CREDENTIALS,
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
	active: false,
	pinData: {},
};

const anchorWf = {
	id: IDS.anchor,
	name: 'e2e: n8n Webhook node (Respond: Immediately) under a database pause',
	nodes: [
		{
			id: 'pause-anchor',
			name: ANCHOR_NODE,
			type: 'n8n-nodes-base.webhook',
			typeVersion: 2,
			position: [0, 0],
			webhookId: 'b4a3e7c2-57e2-4d57-9a57-0000000057a2',
			parameters: { httpMethod: 'PUT', path: ANCHOR_PATH, responseMode: 'onReceived', options: {} },
		},
	],
	connections: {},
	settings: { executionOrder: 'v1' },
	active: false,
	pinData: {},
};

let sandbox;
let sb;
let n8n;
let rest;

beforeAll(async () => {
	({ sandbox, sb, n8n, rest } = await startTestFile({ workflows: [triggerWf, anchorWf] }));
	await rest.activateWorkflow(IDS.trigger);
	await rest.activateWorkflow(IDS.anchor);
	// The anchor is registered on the platform like any webhook: each event goes to both.
	await sb.request('POST', '/public/api/v1/webhook', {
		name: 'n8n Webhook node (anchor)',
		url: `${n8n.url}/webhook/${ANCHOR_PATH}`,
		securityToken: 'anchor-token-not-checked',
	});
	await waitFor(async () => (await sb.webhooks()).length === 2, { what: 'two webhooks' });
	// Both creation PINGs answered (the trigger ignores PING in production; the anchor runs it).
	await waitFor(async () => (await sb.deliveries({ type: 'PING', ok: true })).length >= 2, {
		what: 'the creation PINGs answered',
	});
	console.log(`[e2e db-pause] n8n ${N8N_VERSION} at ${n8n.url}; run folder ${RUN_DIR}`);
}, 300_000);

afterAll(async () => {
	await endTestFile('db-pause', { n8n, sandbox });
});

/**
 * Holds SQLite's lock on n8n's database from another process: n8n's own sqlite3 module in the
 * Node n8n runs on. Resolves once `BEGIN EXCLUSIVE` holds; `release()` commits and ends it.
 */
async function lockDatabase() {
	const database = path.join(USER_FOLDER, '.n8n', 'database.sqlite');
	const sqlite3 = createRequire(
		path.join(CACHE_DIR, 'node_modules', 'n8n', 'package.json'),
	).resolve('sqlite3');
	const script = `
		const sqlite3 = require(${JSON.stringify(sqlite3)});
		const db = new sqlite3.Database(${JSON.stringify(database)});
		db.configure('busyTimeout', 20000);
		db.exec('BEGIN EXCLUSIVE', (error) => {
			if (error) { console.log('FAILED ' + error.message); process.exit(2); }
			console.log('LOCKED');
		});
		process.stdin.on('data', () => db.exec('COMMIT', (error) => {
			console.log(error ? 'FAILED ' + error.message : 'RELEASED');
			db.close(() => process.exit(error ? 2 : 0));
		}));`;
	const child = spawn(n8nNodeBin(), ['-e', script], {
		cwd: RUN_DIR,
		stdio: ['pipe', 'pipe', 'inherit'],
		detached: true,
	});
	trackPid(child.pid, 'sqlite-lock');
	let out = '';
	child.stdout.on('data', (chunk) => (out += chunk));
	const exited = new Promise((resolve) => child.on('exit', resolve));
	await waitFor(
		() => {
			if (/FAILED/.test(out)) throw new Error(`could not lock ${database}: ${out}`);
			return /LOCKED/.test(out);
		},
		{ timeoutMs: 30_000, intervalMs: 50, what: 'the lock on n8n’s database' },
	);
	return {
		async release() {
			child.stdin.write('commit\n');
			await Promise.race([exited, sleep(20_000)]);
			if (!/RELEASED/.test(out)) {
				killGroup(child.pid, 'SIGKILL');
				throw new Error(`the lock was not released cleanly: ${out}`);
			}
		},
	};
}

/** The message ids each started execution of a workflow holds (its first node's items). */
async function ranIds(workflowId, nodeName, read) {
	const list = await executionsOf(rest, workflowId);
	const ids = [];
	for (const ex of list) {
		const items = nodeOutput(await execution(rest, ex.id), nodeName) ?? [];
		for (const item of items) ids.push(read(item));
	}
	return ids;
}

/**
 * One pause: the lock taken for PAUSE_MS, EVENTS events delivered IN_FLIGHT at a time from its
 * start (an event counts as delivered once both its messages had a first answer); waits until every message was answered 2xx (the sandbox's resends) and every
 * execution is done. Returns what each end ran and answered.
 */
async function pause(label) {
	await sb.request('POST', '/sandbox/config', {
		deliveryRetries: 5,
		deliveryBackoffMs: 2000,
		deliveryTimeoutMs: 30_000,
	});
	const webhooks = await sb.webhooks();
	const anchorHook = webhooks.find((w) => w.url.includes(ANCHOR_PATH));
	const isAnchor = (d) => d.webhookId === anchorHook.id;
	const before = {
		trigger: (await executionsOf(rest, IDS.trigger)).length,
		anchor: (await executionsOf(rest, IDS.anchor)).length,
	};

	const lock = await lockDatabase();
	const lockedAt = Date.now();
	// The pause lasts PAUSE_MS, whatever the deliveries do meanwhile.
	const released = sleep(PAUSE_MS)
		.then(() => lock.release())
		.then(() => Date.now() - lockedAt);
	const messages = [];
	let next = 0;
	let deliveredMs;
	let heldMs;
	try {
		await Promise.all(
			Array.from({ length: IN_FLIGHT }, async () => {
				while (next < EVENTS) {
					next++;
					const { messages: sent } = await sb.activity('course-started', {
						email: 'ada@example.com',
						courseId: 101,
					});
					messages.push(...sent);
					for (const { messageId } of sent) {
						const q = new URLSearchParams({ messageId, waitFor: '1', timeoutMs: '60000' });
						await sb.request('GET', `/sandbox/deliveries?${q}`);
					}
				}
			}),
		);
		deliveredMs = Date.now() - lockedAt;
	} finally {
		heldMs = await released;
	}
	const firstAnswers = (await sb.deliveries()).filter(
		(d) => d.attempt === 1 && messages.some((m) => m.messageId === d.messageId),
	);

	// Every message answered 2xx at last (the sandbox resends what was not).
	const all = new Set(messages.map((m) => m.messageId));
	const confirmed = await waitFor(
		async () => {
			const ok = new Set(
				(await sb.deliveries({ ok: true })).map((d) => d.messageId).filter((id) => all.has(id)),
			);
			return ok.size === all.size ? ok : undefined;
		},
		{ timeoutMs: 150_000, intervalMs: 500, what: `all ${all.size} messages answered 2xx` },
	).catch((error) => ({ error }));
	// Every execution done.
	for (const [id, count] of [
		[IDS.trigger, before.trigger],
		[IDS.anchor, before.anchor],
	]) {
		await waitFor(
			async () => {
				const list = await executionsOf(rest, id);
				return list.length >= count && list.every((e) => DONE.has(e.status));
			},
			{ timeoutMs: 60_000, what: `the executions of ${id} done` },
		);
	}
	const attempts = (await sb.deliveries()).filter((d) => all.has(d.messageId));
	const ends = {};
	for (const [end, workflowId, nodeName, read, mine] of [
		['trigger', IDS.trigger, TRIGGER_NODE, (item) => item.eventId, (d) => !isAnchor(d)],
		['anchor', IDS.anchor, ANCHOR_NODE, (item) => item.body?.id, isAnchor],
	]) {
		const sentIds = messages
			.filter((m) => mine({ webhookId: m.webhookId }))
			.map((m) => m.messageId);
		const ran = (await ranIds(workflowId, nodeName, read)).filter((id) => sentIds.includes(id));
		const runs = new Map();
		for (const id of ran) runs.set(id, (runs.get(id) ?? 0) + 1);
		const statuses = {};
		for (const d of firstAnswers.filter(mine))
			statuses[d.status ?? d.error] = (statuses[d.status ?? d.error] ?? 0) + 1;
		ends[end] = {
			sent: sentIds.length,
			ran: runs.size,
			lost: sentIds.filter((id) => !runs.has(id)).length,
			twice: [...runs.values()].filter((n) => n > 1).length,
			notConfirmed: sentIds.filter((id) => !attempts.some((d) => d.messageId === id && d.ok))
				.length,
			firstAnswers: statuses,
			attempts: attempts.filter(mine).length,
		};
	}
	console.log(
		`[e2e db-pause] n8n ${N8N_VERSION} ${label}: lock held ${heldMs} ms (the 50 events had a first answer after ${deliveredMs} ms); ${JSON.stringify(ends)}`,
	);
	return { ends, confirmed, messages, lost: (end) => ends[end].lost };
}

/**
 * The Knolyx Trigger: every event ran once and every message was answered 2xx at last; the pause
 * was real (some first answers were not 2xx). n8n's Webhook node ran none twice; it lost none
 * where n8n answers only once the execution exists (`anchorLoses` false), else its loss is
 * printed: the trigger is no worse.
 */
function expectNoneLostNoneTwice(result, { anchorLoses = false } = {}) {
	const { trigger, anchor } = result.ends;
	expect(trigger).toEqual(
		expect.objectContaining({ sent: EVENTS, ran: EVENTS, lost: 0, twice: 0, notConfirmed: 0 }),
	);
	const refused = Object.entries(trigger.firstAnswers)
		.filter(([status]) => !/^2\d\d$/.test(status))
		.reduce((sum, [, n]) => sum + n, 0);
	expect(refused).toBeGreaterThan(0);
	expect(anchor).toEqual(expect.objectContaining({ sent: EVENTS, twice: 0 }));
	if (!anchorLoses) expect(anchor).toEqual(expect.objectContaining({ ran: EVENTS, lost: 0 }));
	expect(trigger.lost).toBeLessThanOrEqual(anchor.lost);
}

/** The trigger's messages sent once more after the pause: each answered "duplicate", nothing runs. */
async function resendAfterPause(result) {
	const anchorHook = (await sb.webhooks()).find((w) => w.url.includes(ANCHOR_PATH));
	const triggerMessages = result.messages.filter((m) => m.webhookId !== anchorHook.id).slice(0, 5);
	const before = (await executionsOf(rest, IDS.trigger)).length;
	for (const { messageId } of triggerMessages) {
		const attempt = await sb.resend(messageId);
		expect(attempt.status).toBe(200);
	}
	await sleep(1000);
	expect((await executionsOf(rest, IDS.trigger)).length).toBe(before);
}

const driver = N8N_MAJOR < 2 ? 'default SQLite driver' : 'SQLite (pooled driver)';

test(`${driver}: a 30 s lock on n8n's database loses no event and runs none twice; n8n's Webhook node alike`, async () => {
	const result = await pause(driver);
	expectNoneLostNoneTwice(result);
	await resendAfterPause(result);
}, 400_000);

(N8N_MAJOR < 2 ? test : test.skip)(
	'n8n 1.x with DB_SQLITE_POOL_SIZE=2: the same pause loses no event and runs none twice',
	async () => {
		const port = n8n.port;
		await n8n.stop();
		// Same port: the registered URLs stay n8n's production URLs.
		n8n = await startServer({ port, env: { DB_SQLITE_POOL_SIZE: '2' } });
		rest = new N8nRest(n8n.url);
		await rest.login(OWNER);
		// Ready once the trigger's route answers (401 for a bad token; 404 while not registered).
		await waitFor(
			async () =>
				(
					await fetch(`${n8n.url}/webhook/${triggerWf.nodes[0].webhookId}/webhook`, {
						method: 'PUT',
						headers: { 'x-webhook-security-token': 'not-the-secret' },
					})
				).status === 401,
			{ timeoutMs: 60_000, what: 'the Knolyx Trigger webhook after the restart' },
		);
		const result = await pause('DB_SQLITE_POOL_SIZE=2');
		// n8n 1.x answers its Webhook node (Respond: Immediately) before it creates the
		// execution; with this driver a creation can fail after that answer (10 of 50 lost here).
		expectNoneLostNoneTwice(result, { anchorLoses: true });
		await resendAfterPause(result);
	},
	400_000,
);
