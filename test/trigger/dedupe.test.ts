import type { IDataObject } from 'n8n-workflow';
import { ObservableObject } from 'n8n-workflow';

import {
	carryAcceptedIds,
	DEFAULT_LIMITS,
	openDedupe,
	PENDING_MAX_MS,
	RecentIds,
	recentIds,
	type DedupeLimits,
} from '../../nodes/Knolyx/trigger/dedupe';
import { appendForeign, idHash, storedWindow } from './seen-window';

const DAY = 24 * 60 * 60 * 1000;
const t0 = Date.UTC(2030, 0, 1);
let scopeCount = 0;
/** Each test its own process-local window. */
const newScope = () => `test-scope-${++scopeCount}`;

/** One delivery as receive() does it: duplicate → repair, else accept. Returns whether it ran. */
function deliver(
	staticData: IDataObject,
	scope: string,
	id: string,
	nowMs: number,
	limits = DEFAULT_LIMITS,
	writable = true,
): boolean {
	const dedupe = openDedupe(staticData, { scope, kind: 'production', limits, nowMs, writable });
	if (dedupe.isDuplicate(id)) {
		dedupe.repair();
		return false;
	}
	dedupe.accept(id);
	return true;
}
const stored = (staticData: IDataObject) => storedWindow(staticData);
const hashes = (ids: string[]) => ids.map(idHash);
/** Static data as n8n saves and reloads it. */
const reload = (staticData: IDataObject) => JSON.parse(JSON.stringify(staticData)) as IDataObject;

describe('stored window (static data)', () => {
	it('remembers accepted ids, also after a reload in a new process', () => {
		const data: IDataObject = {};
		expect(deliver(data, newScope(), 'a', t0)).toBe(true);
		expect(deliver(data, newScope(), 'a', t0 + 1000)).toBe(false);
		expect(deliver(reload(data), newScope(), 'a', t0 + 1000)).toBe(false);
		expect(deliver(data, newScope(), 'b', t0 + 1000)).toBe(true);
	});

	it('is bounded: the oldest ids are evicted first, in the same object (no copy) with an index in step', () => {
		const limits: DedupeLimits = { maxEntries: 5000, maxAgeMs: 7 * DAY };
		const data: IDataObject = {};
		const scope = newScope();
		for (let i = 0; i < 6000; i++) deliver(data, scope, `id-${i}`, t0 + i, limits);
		expect(stored(data).hashes).toHaveLength(5000);
		expect(stored(data).times).toHaveLength(5000);
		expect(stored(data).hashes[0]).toBe(idHash('id-1000'));
		// A new process (no memory) with the same object: only the stored window answers.
		const other = newScope();
		expect(deliver(data, other, 'id-999', t0 + 6000, limits)).toBe(true);
		expect(deliver(data, other, 'id-1001', t0 + 6000, limits)).toBe(false);
		expect(deliver(data, other, 'id-5999', t0 + 6000, limits)).toBe(false);
		expect(deliver(reload(data), newScope(), 'id-1000', t0 + 6000, limits)).toBe(true); // evicted by id-999 above
	});

	it('forgets ids older than the age limit', () => {
		const data: IDataObject = {};
		deliver(data, newScope(), 'old', t0);
		deliver(data, newScope(), 'new', t0 + 6 * DAY);
		expect(deliver(data, newScope(), 'old', t0 + 7 * DAY + 2000)).toBe(true);
		expect(stored(data).hashes).toEqual(hashes(['new', 'old']));
	});

	it('keeps integer-like ids in insertion order (arrays, not object keys)', () => {
		const limits: DedupeLimits = { maxEntries: 2, maxAgeMs: DAY };
		const data: IDataObject = {};
		const scope = newScope();
		deliver(data, scope, 'zzz', t0, limits);
		deliver(data, scope, '10', t0 + 1, limits);
		deliver(data, scope, '2', t0 + 2, limits);
		expect(stored(data).hashes).toEqual(hashes(['10', '2']));
	});

	it('ignores malformed data (either form): the window counts as empty', () => {
		for (const malformed of [
			{ ids: ['a', 2], at: [t0 / 1000, t0 / 1000] },
			{ ids: ['a'], at: [] },
			{ ids: [idHash('a') + 'x'], at: ['AAAAAA'] },
			{ ids: [idHash('a')], at: ['AAA'] },
			{ ids: [idHash('a'), ''], at: ['AAAAAA', ''] },
			{ ids: [idHash('a')], at: ['AAAAAA', 'AAAAAA'] },
			'junk',
		]) {
			const data: IDataObject = { seen: { production: malformed } };
			expect(deliver(data, newScope(), 'a', t0)).toBe(true);
			expect(stored(data)).toEqual({ hashes: hashes(['a']), times: [t0 / 1000] });
		}
	});

	it('reads the window of earlier versions ({ ids, at } arrays) and writes it back in the compact form', () => {
		// What a workflow saved by version 0.1 holds: 5 000 ids, the newest a second ago.
		const now = t0 + 10 * DAY;
		const ids = Array.from({ length: 5000 }, (_, i) => `9f1e${i}-b2c4-4d5e-8f6a-7b8c9d0e1f2a`);
		const at = ids.map((_, i) => Math.floor(now / 1000) - 5000 + i);
		const saved = JSON.stringify({
			seen: { production: { ids, at }, test: { ids: ['t'], at: [at[0]] } },
		});

		// A new process (no memory) after the update: every id of the old window is still a duplicate.
		const scope = newScope();
		const data = JSON.parse(saved) as IDataObject;
		expect(deliver(data, scope, ids[0], now)).toBe(false);
		expect(deliver(data, scope, ids[4999], now)).toBe(false);
		expect(deliver(data, scope, 'new-1', now)).toBe(true);
		// Saved in the compact form: the same ids in the same order (the oldest evicted by the new one).
		const production = (data.seen as IDataObject).production as IDataObject;
		expect(Object.keys(production).sort()).toEqual(['at', 'ids', 'writer']);
		expect((production.at as unknown[]).every((chunk) => typeof chunk === 'string')).toBe(true);
		expect(stored(data).hashes).toEqual(hashes([...ids.slice(1), 'new-1']));
		expect(stored(data).times).toEqual([...at.slice(1), Math.floor(now / 1000)]);
		expect(JSON.stringify(production).length).toBeLessThan(90_000); // the arrays took ~250 KB
		// The other kind's window is left as it was until its own next save.
		expect((data.seen as IDataObject).test).toEqual({ ids: ['t'], at: [at[0]] });

		const reloaded = reload(data);
		const fresh = newScope();
		for (const id of [...ids.slice(1), 'new-1'])
			expect(deliver(reloaded, fresh, id, now + 1000)).toBe(false);
		expect(deliver(reloaded, fresh, ids[0], now + 1000)).toBe(true); // evicted above
	});

	it('a window of 0 turns detection off', () => {
		const off: DedupeLimits = { maxEntries: 0, maxAgeMs: DAY };
		const data: IDataObject = {};
		const scope = newScope();
		expect(deliver(data, scope, 'a', t0, off)).toBe(true);
		expect(deliver(data, scope, 'a', t0, off)).toBe(true);
		expect(data.seen).toBeUndefined();
	});

	it('static data that may not be written is left alone; its ids reach the next save', () => {
		const data: IDataObject = {};
		const scope = newScope();
		expect(deliver(data, scope, 'early', t0, DEFAULT_LIMITS, false)).toBe(true);
		expect(data.seen).toBeUndefined();
		expect(deliver(data, scope, 'early', t0 + 10, DEFAULT_LIMITS, false)).toBe(false);
		deliver(data, scope, 'later', t0 + 20);
		expect(stored(data).hashes).toEqual(hashes(['early', 'later']));
	});
});

describe('pending ids (taken for an execution n8n has not confirmed)', () => {
	const open = (data: IDataObject, scope: string, nowMs: number, writable = true) =>
		openDedupe(data, { scope, kind: 'production', limits: DEFAULT_LIMITS, nowMs, writable });

	it('is pending until settled: then seen when it ran, new again when it did not', () => {
		const scope = newScope();
		const ran = open({}, scope, t0).begin('ran');
		const failed = open({}, scope, t0).begin('failed');
		expect(open({}, scope, t0 + 1).status('ran')).toBe('pending');
		expect(open({}, scope, t0 + 1).isDuplicate('failed')).toBe(true);
		ran.settle(true);
		failed.settle(false);
		failed.settle(true); // only the first outcome counts
		expect(open({}, scope, t0 + 2).status('ran')).toBe('seen');
		expect(open({}, scope, t0 + 2).status('failed')).toBe('new');
	});

	it('is written into its own delivery’s static data only, never into the save of another delivery', () => {
		const scope = newScope();
		const own: IDataObject = {};
		const pending = open(own, scope, t0).begin('a');
		expect(stored(own).hashes).toEqual(hashes(['a'])); // saved by n8n only with its execution
		const other: IDataObject = {};
		open(other, scope, t0 + 1)
			.begin('b')
			.settle(true);
		expect(stored(other).hashes).toEqual(hashes(['b']));
		pending.settle(false);
		const later = reload(other);
		open(later, scope, t0 + 2)
			.begin('c')
			.settle(true);
		expect(stored(later).hashes).toEqual(hashes(['b', 'c']));
	});

	it('an answer that never comes stops holding the id after PENDING_MAX_MS', () => {
		const scope = newScope();
		open({}, scope, t0).begin('stuck');
		expect(open({}, scope, t0 + PENDING_MAX_MS - 1).status('stuck')).toBe('pending');
		expect(open({}, scope, t0 + PENDING_MAX_MS).status('stuck')).toBe('new');
	});
});

describe('recent ids (process memory)', () => {
	it('is bounded and expires', () => {
		const limits: DedupeLimits = { maxEntries: 3, maxAgeMs: 1000 };
		const window = new RecentIds();
		for (const id of ['a', 'b', 'c', 'd']) window.add(id, t0, limits);
		expect(window.size).toBe(3);
		expect(window.has('a', t0, limits)).toBe(false);
		expect(window.has('d', t0, limits)).toBe(true);
		expect(window.has('d', t0 + 2000, limits)).toBe(false);
		expect([...window.after(-1)].map(([id]) => id)).toEqual(['b', 'c', 'd']);
	});

	it('keeps its order log bounded however many ids pass', () => {
		const limits: DedupeLimits = { maxEntries: 10, maxAgeMs: DAY };
		const window = new RecentIds();
		for (let i = 0; i < 10_000; i++) window.add(`id-${i}`, t0 + i, limits);
		expect(window.size).toBe(10);
		expect((window as unknown as { log: string[] }).log.length).toBeLessThanOrEqual(
			2 * 10 + 64 + 1,
		);
		expect([...window.after(window.lastSeq - 2)].map(([id]) => id)).toEqual(['id-9998', 'id-9999']);
	});

	it('keeps one window per scope', () => {
		const a = recentIds('wf|node|production');
		a.add('m', t0, DEFAULT_LIMITS);
		expect(recentIds('wf|node|production').has('m', t0, DEFAULT_LIMITS)).toBe(true);
		expect(recentIds('wf|node|test').has('m', t0, DEFAULT_LIMITS)).toBe(false);
	});
});

describe('saves that overwrite each other (n8n saves static data whole, last writer wins)', () => {
	it('concurrent deliveries that each load the saved window and save it back lose no id', () => {
		// One process: every delivery loads the saved JSON, accepts its id, saves.
		// Deliveries 1..n all load before any save (the worst interleaving).
		const scope = newScope();
		let saved = JSON.stringify({});
		const loaded = Array.from({ length: 20 }, () => JSON.parse(saved) as IDataObject);
		loaded.forEach((data, i) => deliver(data, scope, `id-${i}`, t0 + i));
		// Saves land in any order; the last one wins. A save built after delivery i holds every id accepted up to i.
		for (const i of [19, 3, 0, 7]) {
			saved = JSON.stringify(loaded[i]);
			const ids = storedWindow(JSON.parse(saved) as IDataObject).hashes;
			for (let j = 0; j <= i; j++) expect(ids).toContain(idHash(`id-${j}`));
		}
		// A later delivery (a resend, say) heals what an earlier-built save dropped, without duplicating.
		const next = JSON.parse(saved) as IDataObject;
		expect(deliver(next, scope, 'id-2', t0 + 30)).toBe(false);
		expect([...stored(next).hashes].sort()).toEqual(
			hashes(Array.from({ length: 20 }, (_, j) => `id-${j}`)).sort(),
		);
		expect(deliver(next, scope, 'id-20', t0 + 31)).toBe(true);
		expect(stored(next).hashes).toHaveLength(21);
	});

	it('ids of another process at the end of the stored window do not hide this process’s lost ids', () => {
		const scope = newScope();
		const data: IDataObject = {};
		deliver(data, scope, 'a', t0);
		const early = reload(data);
		deliver(data, scope, 'b', t0 + 1000);
		deliver(data, scope, 'c', t0 + 2000);
		appendForeign(early, [
			['x', t0 / 1000 + 1],
			['y', t0 / 1000 + 3],
		]);
		expect(deliver(early, scope, 'd', t0 + 4000)).toBe(true);
		expect(stored(early).hashes).toEqual(hashes(['a', 'x', 'b', 'c', 'y', 'd']));
		expect(stored(early).times).toEqual([0, 1, 1, 2, 3, 4].map((s) => t0 / 1000 + s));
	});

	it('an id both processes accepted (a racing resend) does not hide this process’s ids another save dropped', () => {
		const p1 = newScope();
		const p2 = newScope();
		const empty = JSON.stringify({});
		deliver(JSON.parse(empty) as IDataObject, p1, 'a', t0); // P1's save of 'a' is about to be overwritten
		const p2Save = JSON.parse(empty) as IDataObject; // P2 loaded before P1's save landed
		deliver(p2Save, p2, 'x', t0 + 100);
		deliver(JSON.parse(empty) as IDataObject, p1, 'x', t0 + 200); // the resend raced onto P1 too, same second
		// P2's save won. P1's next delivery must put 'a' back, so a resend of 'a' to P2 is recognised.
		const loaded = reload(p2Save);
		deliver(loaded, p1, 'd', t0 + 300);
		expect([...stored(loaded).hashes].sort()).toEqual(hashes(['a', 'd', 'x']).sort());
		expect(deliver(reload(loaded), p2, 'a', t0 + 400)).toBe(false);
	});

	it('matches a plain model over a random mix of new ids, resends, stale loads and foreign saves', () => {
		// The model: every id accepted within the window (by anyone) must be found by a process that
		// accepted it, and by any process once a save holding it has been loaded.
		const limits: DedupeLimits = { maxEntries: 300, maxAgeMs: DAY };
		let seed = 42;
		const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
		const scope = newScope();
		let live: IDataObject = {}; // the object this process keeps between deliveries (the harness case)
		const snapshots: IDataObject[] = [];
		const accepted: string[] = [];
		let executions = 0;
		for (let step = 0; step < 3000; step++) {
			const now = t0 + step * 10;
			const roll = random();
			if (roll < 0.05 && snapshots.length > 0) {
				live = reload(snapshots[Math.floor(random() * snapshots.length)]); // a save built earlier landed last
			} else if (roll < 0.08) {
				// Another process's save: its id added, within its bound.
				live = reload(live);
				deliver(live, `${scope}-other`, `f-${step}`, now, limits);
			} else if (roll < 0.2 && accepted.length > 0) {
				const id =
					accepted[accepted.length - 1 - Math.floor(random() * Math.min(accepted.length, 200))];
				expect(deliver(live, scope, id, now, limits)).toBe(false);
			} else {
				const id = `n-${step}`;
				expect(deliver(live, scope, id, now, limits)).toBe(true);
				accepted.push(id);
				executions++;
			}
			if (step % 50 === 0) snapshots.push(reload(live));
			const store = stored(live);
			expect(store.hashes.length).toBeLessThanOrEqual(limits.maxEntries);
			expect(new Set(store.hashes).size).toBe(store.hashes.length);
		}
		// Whatever was loaded last, a fresh process (no memory) that loads the last save after one more
		// delivery of this process knows the window's newest ids.
		deliver(live, scope, 'final', t0 + 40_000, limits);
		const fresh = reload(live);
		const freshScope = newScope();
		for (const id of accepted.slice(-250))
			expect(deliver(fresh, freshScope, id, t0 + 40_001, limits)).toBe(false);
		expect(executions).toBe(accepted.length);
	});
});

describe('an execution’s copy saved last (n8n saves static data whole at an execution’s end)', () => {
	const NODE = 'node:Knolyx Trigger';
	/** An execution's static data, read as n8n reads it (its changed flag off). */
	const executionCopy = (saved: string) =>
		ObservableObject.create({ [NODE]: JSON.parse(saved) as IDataObject, global: {} }, undefined, {
			ignoreEmptyOnFirstChild: true,
		}) as IDataObject & { __dataChanged: boolean };

	it('carries every id this process accepted after the copy was read, untouched and unmarked until written out', () => {
		const scope = newScope();
		const now = Date.now();
		const data: IDataObject = {};
		deliver(data, scope, 'a', now);
		const saved = JSON.stringify(data);
		const copy = executionCopy(saved);
		const nodeData = copy[NODE] as IDataObject;
		carryAcceptedIds(nodeData, { scope, kind: 'production', limits: DEFAULT_LIMITS });
		expect(copy.__dataChanged).toBe(false);
		// Deliveries accepted while the execution runs, each into a copy of its own; one still pending.
		deliver(JSON.parse(saved) as IDataObject, scope, 'b', now + 1);
		deliver(JSON.parse(saved) as IDataObject, scope, 'c', now + 2);
		openDedupe(JSON.parse(saved) as IDataObject, {
			scope,
			kind: 'production',
			limits: DEFAULT_LIMITS,
			nowMs: now + 3,
			writable: true,
		}).begin('pending');
		// A Code node of the execution keeps data of its own: n8n will save this copy.
		(copy.global as IDataObject).count = 1;
		expect(copy.__dataChanged).toBe(true);
		const written = JSON.parse(JSON.stringify(copy)) as IDataObject;
		expect((written.global as IDataObject).count).toBe(1);
		expect([...stored(written[NODE] as IDataObject).hashes].sort()).toEqual(
			hashes(['a', 'b', 'c']).sort(),
		);
		// The copy itself is as it was read.
		expect(stored(nodeData).hashes).toEqual(hashes(['a']));
		// After a restart (a new process, no memory), resends of b and c run nothing.
		const restarted = newScope();
		expect(deliver(written[NODE] as IDataObject, restarted, 'b', now + 10)).toBe(false);
		expect(deliver(written[NODE] as IDataObject, restarted, 'c', now + 10)).toBe(false);
		expect(deliver(written[NODE] as IDataObject, restarted, 'pending', now + 10)).toBe(true);
	});

	it('with the window off (Dedupe Window 0) the copy is written out as it is', () => {
		const scope = newScope();
		const copy = executionCopy(JSON.stringify({ kept: 1 }));
		carryAcceptedIds(copy[NODE] as IDataObject, {
			scope,
			kind: 'production',
			limits: { ...DEFAULT_LIMITS, maxEntries: 0 },
		});
		deliver({}, scope, 'a', Date.now());
		expect(JSON.parse(JSON.stringify(copy))).toEqual({ [NODE]: { kept: 1 }, global: {} });
	});
});
