import {
	DEFAULT_LIMITS,
	hasSeen,
	lacksRecent,
	mergeRecent,
	pruneSeen,
	readSeenStore,
	RecentIds,
	recentIds,
	recordSeen,
	type DedupeLimits,
} from '../../nodes/Knolyx/trigger/dedupe';

const DAY = 24 * 60 * 60 * 1000;
const t0 = Date.UTC(2030, 0, 1);

describe('seen store (static data)', () => {
	it('remembers accepted ids', () => {
		const store = readSeenStore(undefined);
		recordSeen(store, 'a', t0, DEFAULT_LIMITS);
		expect(hasSeen(store, 'a', t0 + 1000, DEFAULT_LIMITS)).toBe(true);
		expect(hasSeen(store, 'b', t0 + 1000, DEFAULT_LIMITS)).toBe(false);
	});

	it('is bounded: the oldest ids are evicted first', () => {
		const limits: DedupeLimits = { maxEntries: 5000, maxAgeMs: 7 * DAY };
		const store = readSeenStore(undefined);
		for (let i = 0; i < 6000; i++) recordSeen(store, `id-${i}`, t0 + i, limits);
		expect(store.ids).toHaveLength(5000);
		expect(store.at).toHaveLength(5000);
		expect(hasSeen(store, 'id-999', t0 + 6000, limits)).toBe(false);
		expect(hasSeen(store, 'id-1000', t0 + 6000, limits)).toBe(true);
		expect(hasSeen(store, 'id-5999', t0 + 6000, limits)).toBe(true);
	});

	it('forgets ids older than the age limit', () => {
		const store = readSeenStore(undefined);
		recordSeen(store, 'old', t0, DEFAULT_LIMITS);
		recordSeen(store, 'new', t0 + 6 * DAY, DEFAULT_LIMITS);
		expect(hasSeen(store, 'old', t0 + 7 * DAY + 2000, DEFAULT_LIMITS)).toBe(false);
		expect(pruneSeen(store, t0 + 7 * DAY + 2000, DEFAULT_LIMITS)).toBe(true);
		expect(store.ids).toEqual(['new']);
	});

	it('keeps integer-like ids in insertion order (arrays, not object keys)', () => {
		const limits: DedupeLimits = { maxEntries: 2, maxAgeMs: DAY };
		const store = readSeenStore(undefined);
		recordSeen(store, 'zzz', t0, limits);
		recordSeen(store, '10', t0 + 1, limits);
		recordSeen(store, '2', t0 + 2, limits);
		expect(store.ids).toEqual(['10', '2']);
	});

	it('survives a JSON round trip (as n8n saves static data) and ignores malformed data', () => {
		const store = readSeenStore(undefined);
		recordSeen(store, 'a', t0, DEFAULT_LIMITS);
		const reloaded = readSeenStore(JSON.parse(JSON.stringify(store)));
		expect(hasSeen(reloaded, 'a', t0, DEFAULT_LIMITS)).toBe(true);
		expect(readSeenStore({ ids: ['a'], at: [] })).toEqual({ ids: [], at: [] });
		expect(readSeenStore('junk')).toEqual({ ids: [], at: [] });
	});

	it('a window of 0 turns detection off', () => {
		const off: DedupeLimits = { maxEntries: 0, maxAgeMs: DAY };
		const store = readSeenStore(undefined);
		recordSeen(store, 'a', t0, off);
		expect(store.ids).toEqual([]);
		expect(hasSeen(store, 'a', t0, off)).toBe(false);
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
	});

	it('keeps one window per scope', () => {
		const a = recentIds('wf|node|production');
		a.add('m', t0, DEFAULT_LIMITS);
		expect(recentIds('wf|node|production').has('m', t0, DEFAULT_LIMITS)).toBe(true);
		expect(recentIds('wf|node|test').has('m', t0, DEFAULT_LIMITS)).toBe(false);
	});
});

describe('saves that overwrite each other (n8n saves static data whole, last writer wins)', () => {
	it('mergeRecent adds the ids of this process the stored window lacks, oldest first, within the limits', () => {
		const limits: DedupeLimits = { maxEntries: 4, maxAgeMs: DAY };
		const recent = new RecentIds();
		const store = readSeenStore(undefined);
		recordSeen(store, 'x', t0, limits);
		recent.add('a', t0 - 5000, limits);
		recent.add('x', t0, limits);
		recent.add('b', t0 + 5000, limits);
		expect(lacksRecent(store, recent, t0 + 6000, limits)).toBe(true);
		expect(mergeRecent(store, recent, t0 + 6000, limits)).toBe(true);
		expect(store.ids).toEqual(['a', 'x', 'b']);
		expect(store.at).toEqual([t0 / 1000 - 5, t0 / 1000, t0 / 1000 + 5]);
		expect(lacksRecent(store, recent, t0 + 6000, limits)).toBe(false);
		expect(mergeRecent(store, recent, t0 + 6000, limits)).toBe(false);
		// Expired ids are not written back; the size limit still holds.
		expect(mergeRecent(readSeenStore(undefined), recent, t0 + 2 * DAY, limits)).toBe(false);
		for (const id of ['c', 'd', 'e']) recent.add(id, t0 + 7000, limits);
		mergeRecent(store, recent, t0 + 8000, limits);
		expect(store.ids).toHaveLength(4);
		expect(store.ids.at(-1)).toBe('e');
	});

	it('concurrent deliveries that each load the saved window and save it back lose no id', () => {
		// One process: every delivery reads the saved JSON, records its id, saves.
		// Deliveries 1..n all load before any save (the worst interleaving).
		const limits = DEFAULT_LIMITS;
		const recent = new RecentIds();
		let saved = JSON.stringify(readSeenStore(undefined));
		const loaded = Array.from({ length: 20 }, () => readSeenStore(JSON.parse(saved)));
		loaded.forEach((store, i) => {
			recent.add(`id-${i}`, t0 + i, limits);
			recordSeen(store, `id-${i}`, t0 + i, limits);
			mergeRecent(store, recent, t0 + i, limits);
		});
		// Saves land in any order; the last one wins. Without mergeRecent it would hold one id.
		for (const i of [19, 3, 0, 7]) {
			saved = JSON.stringify(loaded[i]);
			const store = readSeenStore(JSON.parse(saved));
			// A save built after delivery i holds every id accepted up to i.
			for (let j = 0; j <= i; j++) expect(hasSeen(store, `id-${j}`, t0 + 20, limits)).toBe(true);
		}
		// A later delivery (a resend, say) heals what an earlier-built save dropped.
		const next = readSeenStore(JSON.parse(saved));
		expect(lacksRecent(next, recent, t0 + 30, limits)).toBe(true);
		mergeRecent(next, recent, t0 + 30, limits);
		for (let j = 0; j < 20; j++) expect(hasSeen(next, `id-${j}`, t0 + 30, limits)).toBe(true);
	});
});
