/**
 * "Acknowledged means run" (docs/triggers.md, "Duplicates"): Knolyx gets a 2xx only once n8n
 * holds the execution; when n8n cannot create it, Knolyx gets an error answer and the id counts
 * as seen nowhere (neither in the saved static data nor in process memory), so its resend runs.
 *
 * The node is hosted as n8n 2.x hosts a production delivery (test/harness trigger host with
 * `createExecution`): static data loaded afresh for the delivery, the execution created after
 * webhook() returned (here it can fail, as with n8n's database locked, or wait), then the
 * static data saved and the answer sent; on failure a 500 and nothing saved.
 */
import axios from 'axios';
import type { IDataObject, INodeExecutionData } from 'n8n-workflow';

import { KnolyxApi } from '../../credentials/KnolyxApi.credentials';
import { DEMO, startSandbox, type Sandbox } from '../../sandbox';
import { triggerHosts, type TriggerHost } from '../harness';
import { STUDENT_EVENTS, triggerOfNewProcess } from './helpers';
import { idHash, storedWindow } from './seen-window';

const TYPE = 'n8n-nodes-knolyx.knolyxTrigger';
const NODE_KEY = 'node:Knolyx Trigger';

/** n8n's execution store as the tests play it: creation fails while `locked`; an id in `held` waits. */
class ExecutionStore {
	locked = false;
	private readonly held = new Map<string, { release: () => void; reached: Promise<void> }>();
	private readonly reachedBy = new Map<string, () => void>();

	/** The next creation for `eventId` waits until `release()`; `reached` resolves when it starts. */
	hold(eventId: string): { release: () => void; reached: Promise<void> } {
		let release!: () => void;
		const released = new Promise<void>((resolve) => (release = resolve));
		const reached = new Promise<void>((resolve) => this.reachedBy.set(eventId, resolve));
		const entry = { release, reached, released };
		this.held.set(eventId, entry);
		return entry;
	}

	create = async (items: INodeExecutionData[]): Promise<void> => {
		const id = String(items[0]?.json.eventId);
		const entry = this.held.get(id) as { released: Promise<void> } | undefined;
		if (entry) {
			this.held.delete(id);
			this.reachedBy.get(id)?.();
			await entry.released;
		}
		if (this.locked) throw new Error('SQLITE_BUSY: database is locked');
	};
}

let sandbox: Sandbox;
const hosts = triggerHosts();

beforeEach(async () => {
	sandbox = await startSandbox({
		port: 0,
		seed: 'demo',
		deliveryBackoffMs: 50,
		deliveryRetries: 5,
	});
});

afterEach(async () => {
	await hosts.endAll();
	await sandbox.close();
});

/** A process (its own memory) over the saved node static data, creating executions through `store`. */
async function startProcess(store: ExecutionStore, saved?: IDataObject): Promise<TriggerHost> {
	const h = await hosts.start({
		nodeType: await triggerOfNewProcess(),
		type: TYPE,
		parameters: { events: STUDENT_EVENTS, options: {} },
		credentials: {
			knolyxApi: { baseUrl: sandbox.url, projectId: DEMO.projectId, apiKey: DEMO.apiKey },
		},
		credentialTypes: [new KnolyxApi()],
		createExecution: store.create,
	});
	if (saved) h.staticData[NODE_KEY] = JSON.parse(JSON.stringify(saved)) as IDataObject;
	await h.activate('trigger');
	return h;
}

const studentRuns = (h: TriggerHost) => h.executions().map((run) => String(run[0].json.eventId));
const storedIds = (h: TriggerHost) => storedWindow(h.nodeStaticData).hashes;

/** A delivery of `id` as the platform sends it, straight to the node; resolves with the status. */
async function put(h: TriggerHost, id: string): Promise<number> {
	const token = [...sandbox.state.webhooks.values()].find(
		(w) => w.url === h.url('trigger'),
	)!.securityToken;
	const answer = await axios.put(
		h.url('trigger'),
		{ id, type: 'COURSE_STARTED', data: {} },
		{ headers: { 'X-Webhook-Security-Token': token }, validateStatus: () => true },
	);
	return answer.status;
}

it('events whose execution n8n cannot create are answered with an error and each runs once when the platform sends it again', async () => {
	const store = new ExecutionStore();
	const h = await startProcess(store);
	// Resends spread over ~15 s (0.5 s doubling), so that none runs out while n8n is locked.
	sandbox.config.deliveryBackoffMs = 500;
	store.locked = true;
	const sent = Array.from(
		{ length: 12 },
		() =>
			sandbox.activity('course-started', { email: 'ada@example.com', courseId: 101 }).messages[0]
				.messageId,
	);
	const refused = await sandbox.waitForDeliveries(
		(d) => d.type === 'COURSE_STARTED' && d.attempt === 1 && !d.ok,
		60_000,
		sent.length,
	);
	expect(new Set(refused.map((d) => d.status))).toEqual(new Set([500]));
	expect(studentRuns(h)).toEqual([]);
	// Nothing of them counts as seen: not in the saved static data.
	for (const id of sent) expect(storedIds(h)).not.toContain(idHash(id));

	store.locked = false;
	await sandbox.waitForDeliveries((d) => d.type === 'COURSE_STARTED' && d.ok, 60_000, sent.length);
	await h.idle();
	expect([...studentRuns(h)].sort()).toEqual([...sent].sort());
	expect([...storedIds(h)].sort()).toEqual(
		expect.arrayContaining(sent.map((id) => idHash(id)).sort()),
	);
}, 150_000);

/** A process whose first delivery of `id` waits while n8n creates its execution (held there). */
async function heldCreation(id: string) {
	const store = new ExecutionStore();
	const h = await startProcess(store);
	const held = store.hold(id);
	const first = put(h, id);
	await held.reached;
	return { store, h, held, first };
}

it('a resend while the first delivery is being created is answered 503 and does not run; once created, resends are duplicates', async () => {
	const { h, held, first } = await heldCreation('m-1');
	// Two resends while n8n is still creating the execution: neither runs, neither is "duplicate".
	expect(await Promise.all([put(h, 'm-1'), put(h, 'm-1')])).toEqual([503, 503]);
	held.release();
	expect(await first).toBe(200);
	expect(await put(h, 'm-1')).toBe(200);
	await h.idle();
	expect(studentRuns(h)).toEqual(['m-1']);
});

it('when the creation fails after a resend was answered 503, the next resend runs (once)', async () => {
	const { store, h, held, first } = await heldCreation('m-2');
	expect(await put(h, 'm-2')).toBe(503);
	store.locked = true;
	held.release();
	expect(await first).toBe(500);
	store.locked = false;
	expect(await put(h, 'm-2')).toBe(200);
	expect(await put(h, 'm-2')).toBe(200);
	await h.idle();
	expect(studentRuns(h)).toEqual(['m-2']);
});

it('an id whose creation failed is not carried into the save of another delivery that ran meanwhile', async () => {
	const { store, h, held, first } = await heldCreation('lost-1');
	expect(await put(h, 'other-1')).toBe(200); // created and saved while lost-1 waits
	store.locked = true;
	held.release();
	expect(await first).toBe(500);
	store.locked = false;
	expect(storedIds(h)).toContain(idHash('other-1'));
	expect(storedIds(h)).not.toContain(idHash('lost-1'));
	// Not even after another delivery (this process's repair of dropped ids).
	expect(await put(h, 'other-2')).toBe(200);
	expect(storedIds(h)).not.toContain(idHash('lost-1'));

	// The platform's resend runs, also in a new process (a restart) over what was saved.
	const restarted = await startProcess(store, h.nodeStaticData);
	expect(await put(restarted, 'lost-1')).toBe(200);
	expect(await put(restarted, 'other-1')).toBe(200);
	await restarted.idle();
	expect(studentRuns(restarted)).toEqual(['lost-1']);
});

it('an id is saved with the execution n8n created: a restart still drops its resend', async () => {
	const store = new ExecutionStore();
	const h = await startProcess(store);
	expect(await put(h, 'kept-1')).toBe(200);
	const restarted = await startProcess(store, h.nodeStaticData);
	expect(await put(restarted, 'kept-1')).toBe(200);
	await restarted.idle();
	expect(studentRuns(restarted)).toEqual([]);
});
