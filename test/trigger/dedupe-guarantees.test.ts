/**
 * The duplicate guarantees of docs/triggers.md ("Duplicates") and docs/scaling.md ("Queue mode"),
 * checked through the node as n8n hosts it (test/harness trigger host, real HTTP).
 *
 * n8n saves a workflow's static data whole, last writer wins, and a process loads it
 * afresh for every delivery. A save that lands last but was built earlier (a concurrent
 * delivery, or another process) is played here by putting an older snapshot of the
 * static data back, as n8n would load it from the database.
 */
import axios from 'axios';
import type { IDataObject } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import { triggerHosts, type TriggerHost } from '../harness';
import { triggerOfNewProcess } from './helpers';
import { appendForeign, idHash, storedWindow } from './seen-window';

const TYPE = 'n8n-nodes-knolyx.knolyxTrigger';
const NODE_KEY = 'node:Knolyx Trigger';
// Deliveries go to the host's own address; the public base is unreachable on purpose
// so the platform's creation PING never lands and every execution is one of ours.
const PUBLIC_BASE = 'http://127.0.0.1:9';

let sandbox: Sandbox;
const hosts = triggerHosts();

beforeEach(async () => {
	sandbox = await startSandbox({ port: 0, seed: 'demo' });
});

afterEach(async () => {
	await hosts.endAll();
	await sandbox.close();
});

/** A process: the node module loaded afresh (its own process memory), hosted like n8n hosts it. */
async function startProcess(
	dedupeWindow?: number,
	savedNodeStaticData?: IDataObject,
): Promise<TriggerHost> {
	const h = await hosts.start({
		nodeType: await triggerOfNewProcess(),
		type: TYPE,
		parameters: { events: ['*'], options: dedupeWindow === undefined ? {} : { dedupeWindow } },
		credentials: {
			knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		},
		credentialTypes: [new KnolyxApi()],
		webhookBaseUrl: PUBLIC_BASE,
	});
	if (savedNodeStaticData) h.staticData[NODE_KEY] = snapshot(savedNodeStaticData);
	await h.activate('trigger');
	return h;
}

/** The node's static data as n8n saved it (plain JSON). */
const snapshot = (data: IDataObject | undefined) =>
	JSON.parse(JSON.stringify(data ?? {})) as IDataObject;
/** n8n loads a save that was built earlier (it landed last). */
const load = (h: TriggerHost, saved: IDataObject) => {
	h.staticData[NODE_KEY] = snapshot(saved);
};
/** The stored window's entries, as the hashes of the ids (see seen-window.ts). */
const storedIds = (h: TriggerHost) => storedWindow(h.nodeStaticData).hashes;
const hashes = (ids: string[]) => ids.map(idHash);

async function deliver(h: TriggerHost, id: string): Promise<void> {
	const token = [...sandbox.state.webhooks.values()].find(
		(w) => w.url === h.url('trigger'),
	)!.securityToken;
	const path = new URL(h.url('trigger')).pathname;
	const answer = await axios.put(
		`${h.baseUrl}${path}`,
		{ id, type: 'COURSE_STARTED', data: {} },
		{ headers: { 'X-Webhook-Security-Token': token }, validateStatus: () => true },
	);
	expect(answer.status).toBe(200);
}

/** A process that delivered 'a' and then `later`, and the save as it was after 'a'. */
async function savedAfterA(later: string[]): Promise<{ h: TriggerHost; early: IDataObject }> {
	const h = await startProcess();
	await deliver(h, 'a');
	const early = snapshot(h.nodeStaticData);
	for (const id of later) await deliver(h, id);
	return { h, early };
}

const executedIds = (h: TriggerHost) => h.executions().map((run) => run[0].json.eventId);

it('a save built before other deliveries of this process, landing last, loses none of their ids (also after a restart)', async () => {
	const { h, early } = await savedAfterA(['b', 'c']);
	load(h, early); // holds only 'a'
	await deliver(h, 'd');
	expect([...storedIds(h)].sort()).toEqual(hashes(['a', 'b', 'c', 'd']).sort());

	const restarted = await startProcess(undefined, h.nodeStaticData);
	for (const id of ['a', 'b', 'c', 'd']) await deliver(restarted, id);
	expect(restarted.executions()).toHaveLength(0);
});

it('a save of another process that lands last (its own ids at the end) loses none of this process’s ids', async () => {
	const { h, early } = await savedAfterA(['b', 'c']);
	// Another process loaded the early save, accepted 'x' and 'y', and its save won.
	const other = snapshot(early);
	const now = Math.floor(Date.now() / 1000);
	appendForeign(other, [
		['x', now],
		['y', now],
	]);
	load(h, other);
	await deliver(h, 'd');
	expect([...storedIds(h)].sort()).toEqual(hashes(['a', 'b', 'c', 'd', 'x', 'y']).sort());
	// The other process's ids are recognised here too.
	await deliver(h, 'x');
	expect(executedIds(h)).toEqual(['a', 'b', 'c', 'd']);
});

it('a resend writes back the ids a concurrent save dropped, so a restart still knows them', async () => {
	const { h, early } = await savedAfterA(['b']);
	load(h, early);
	await deliver(h, 'a'); // a duplicate: no execution, but the stored window is repaired
	expect(executedIds(h)).toEqual(['a', 'b']);
	expect(storedIds(h)).toEqual(hashes(['a', 'b']));

	const restarted = await startProcess(undefined, h.nodeStaticData);
	await deliver(restarted, 'b');
	expect(restarted.executions()).toHaveLength(0);
});

it('concurrent deliveries of new and resent ids: each id runs once and the store ends with all of them', async () => {
	const h = await startProcess();
	const ids = Array.from({ length: 40 }, (_, i) => `m-${i}`);
	const sends = [...ids, ...ids.filter((_, i) => i % 4 === 0)];
	let next = 0;
	await Promise.all(
		Array.from({ length: 8 }, async () => {
			while (next < sends.length) await deliver(h, sends[next++]);
		}),
	);
	expect([...executedIds(h)].sort()).toEqual([...ids].sort());
	expect([...storedIds(h)].sort()).toEqual(hashes(ids).sort());
});

it('the window is bounded: the last N ids are kept in order and recognised after a restart, older ones are not', async () => {
	const WINDOW = 50;
	const h = await startProcess(WINDOW);
	const ids = Array.from({ length: 80 }, (_, i) => `w-${i}`);
	for (const id of ids) await deliver(h, id);
	expect(storedIds(h)).toEqual(hashes(ids.slice(-WINDOW)));

	const restarted = await startProcess(WINDOW, h.nodeStaticData);
	for (const id of ids.slice(-WINDOW)) await deliver(restarted, id);
	expect(restarted.executions()).toHaveLength(0);
	await deliver(restarted, ids[0]); // beyond the window: accepted again
	expect(executedIds(restarted)).toEqual([ids[0]]);
	expect(storedIds(restarted)).toHaveLength(WINDOW);
});

it('ids older than 7 days are forgotten; a malformed stored window counts as empty', async () => {
	const h = await startProcess();
	const old = Math.floor(Date.now() / 1000) - 8 * 24 * 60 * 60;
	const recent = Math.floor(Date.now() / 1000) - 60;
	const saved = snapshot(h.nodeStaticData);
	saved.seen = { production: { ids: ['old', 'recent'], at: [old, recent] } };
	const restarted = await startProcess(undefined, saved);
	await deliver(restarted, 'old');
	await deliver(restarted, 'recent');
	expect(executedIds(restarted)).toEqual(['old']);
	expect(storedIds(restarted)).toEqual(hashes(['recent', 'old']));

	const broken = snapshot(restarted.nodeStaticData);
	broken.seen = { production: { ids: ['recent', 7], at: [recent] } };
	const third = await startProcess(undefined, broken);
	await deliver(third, 'recent');
	expect(executedIds(third)).toEqual(['recent']);
	expect(storedIds(third)).toEqual(hashes(['recent']));
});

it('a window of 0 turns detection off and stores nothing', async () => {
	const h = await startProcess(0);
	await deliver(h, 'same');
	await deliver(h, 'same');
	expect(executedIds(h)).toEqual(['same', 'same']);
	expect(storedIds(h)).toEqual([]);
});
