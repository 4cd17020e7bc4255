/**
 * Remembers the message ids already accepted, so a message the platform sends
 * again (it resends what it thinks was not confirmed) starts no second execution.
 *
 * `openDedupe` is the one entry point of a delivery: is this id a duplicate,
 * accept it, or repair the stored window after a duplicate. Behind it, two layers:
 * - the stored window (`SeenStore`), kept in the node's static data under `seen`:
 *   n8n saves it with the workflow, so it survives restarts. Bounded by count and age.
 * - `RecentIds`, kept in this process's memory: catches a resend that arrives while
 *   the first execution still runs (its static data is not saved yet), and puts back
 *   into every save the ids a concurrent save dropped (see `missingFrom`).
 *
 * The stored window is compact: n8n loads static data from the database for every
 * delivery, wraps every object and array of it in its change-tracking proxy, and
 * saves it back whole after each new id. Stored as a few dozen strings (17
 * characters an id: ~90 KB of JSON at 5 000 ids, where one array element per id and
 * time took ~244 KB), that load, wrap and save stay small, and the node never walks
 * a proxied array element by element.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';
import { isRecord } from '../helpers/objects';

export interface DedupeLimits {
	/** How many ids are kept; the oldest are dropped first. 0 turns duplicate detection off. */
	maxEntries: number;
	/** How long an id is kept. */
	maxAgeMs: number;
}

export const DEFAULT_DEDUPE_WINDOW = 5000;
export const DEDUPE_MAX_AGE_DAYS = 7;
export const DEFAULT_LIMITS: DedupeLimits = {
	maxEntries: DEFAULT_DEDUPE_WINDOW,
	maxAgeMs: DEDUPE_MAX_AGE_DAYS * 24 * 60 * 60 * 1000,
};

/**
 * The stored window, oldest first, in chunks (parallel arrays of strings, a few dozen
 * elements at 5 000 ids; a new id changes only the last chunk, an evicted one the first):
 * - `ids`: per id, the first 66 bits of its SHA-256 as 11 base64url characters. A new id
 *   is taken for a duplicate only if its hash equals one of the (at most 5 000) stored
 *   ones: a chance of 5 000 ÷ 2^66 ≈ 7 × 10^-17 per delivery (one lost event in about
 *   10^16 deliveries).
 * - `at`: per id, seconds since the epoch as 6 base64url characters (most significant first).
 * - `writer`: who made the save (`<process window>:<sequence number>`): that save holds
 *   every id this window accepted up to that number (see `missingFrom`).
 *
 * Earlier versions stored the window as `{ ids: string[], at: number[] }` (the ids as sent,
 * one element each, `at` in seconds); such a window is read and written back in this
 * form at the next save.
 */
export interface SeenStore {
	ids: string[];
	at: string[];
	writer?: string;
}

const HASH_CHARS = 11;
const TIME_CHARS = 6;
/** Ids per chunk when a new chunk is started. */
const CHUNK = 256;
const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const DIGIT_VALUE = new Map([...DIGITS].map((digit, value) => [digit, value]));

/** The stored form of an id (see SeenStore). */
function hashOf(id: string): string {
	return createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, HASH_CHARS);
}

function encodeTime(seconds: number): string {
	let value = Math.max(0, Math.min(2 ** (6 * TIME_CHARS) - 1, Math.floor(seconds)));
	let text = '';
	for (let i = 0; i < TIME_CHARS; i++) {
		text = DIGITS[value % 64] + text;
		value = Math.floor(value / 64);
	}
	return text;
}

function decodeTime(text: string, from: number): number {
	let value = 0;
	for (let i = from; i < from + TIME_CHARS; i++) value = value * 64 + (DIGIT_VALUE.get(text[i]) ?? 0);
	return value;
}

const EMPTY: SeenStore = { ids: [], at: [] };
const isString = (value: unknown): value is string => typeof value === 'string';
const isTime = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/** The window stored in static data (either form); anything malformed counts as an empty window. */
function readSeenStore(value: unknown): SeenStore {
	if (!isRecord(value)) return EMPTY;
	const ids: unknown = value.ids;
	const at: unknown = value.at;
	if (!Array.isArray(ids) || !Array.isArray(at) || ids.length !== at.length || !ids.every(isString)) return EMPTY;
	if (at.every(isString)) {
		const fits = ids.every((chunk, i) => chunk.length > 0 && chunk.length % HASH_CHARS === 0 && at[i].length === (chunk.length / HASH_CHARS) * TIME_CHARS);
		if (!fits) return EMPTY;
		return { ids, at, writer: isString(value.writer) ? value.writer : undefined };
	}
	// Written by earlier versions: one id per element, times in seconds.
	if (!at.every(isTime)) return EMPTY;
	const store: SeenStore = { ids: [], at: [] };
	for (let i = 0; i < ids.length; i += CHUNK) {
		store.ids.push(ids.slice(i, i + CHUNK).map(hashOf).join(''));
		store.at.push(at.slice(i, i + CHUNK).map(encodeTime).join(''));
	}
	return store;
}

/** Below this many lookups in one window, each searches the chunks; from it on, a count of each hash answers first. */
const SCANS_BEFORE_INDEX = 2;

/** The stored window of a delivery, changed in place; `toStore` gives what is saved. */
class StoredWindow {
	private readonly ids: string[];
	private readonly at: string[];
	private size = 0;
	private counts: Map<string, number> | undefined;
	private lookups = 0;

	constructor(store: SeenStore) {
		this.ids = [...store.ids];
		this.at = [...store.at];
		for (const chunk of this.ids) this.size += chunk.length / HASH_CHARS;
	}

	private countOf(chunk: number): number {
		return this.ids[chunk].length / HASH_CHARS;
	}

	private timeAt(chunk: number, index: number): number {
		return decodeTime(this.at[chunk], index * TIME_CHARS);
	}

	private hashAt(chunk: number, index: number): string {
		return this.ids[chunk].slice(index * HASH_CHARS, (index + 1) * HASH_CHARS);
	}

	/** The newest place of `hash` ([chunk, index]), or undefined. */
	private find(hash: string): [number, number] | undefined {
		for (let chunk = this.ids.length - 1; chunk >= 0; chunk--) {
			const text = this.ids[chunk];
			let from = text.length;
			while (from >= 0) {
				const found = text.lastIndexOf(hash, from);
				if (found === -1) break;
				if (found % HASH_CHARS === 0) return [chunk, found / HASH_CHARS];
				from = found - 1;
			}
		}
		return undefined;
	}

	private count(hash: string, change: number): void {
		if (!this.counts) return;
		const count = (this.counts.get(hash) ?? 0) + change;
		if (count > 0) this.counts.set(hash, count);
		else this.counts.delete(hash);
	}

	/** Whether `hash` is stored with a time at or after `cutoffSec`. */
	holdsSince(hash: string, cutoffSec: number): boolean {
		if (!this.counts && ++this.lookups > SCANS_BEFORE_INDEX) {
			this.counts = new Map();
			for (let chunk = 0; chunk < this.ids.length; chunk++) {
				for (let index = 0; index < this.countOf(chunk); index++) this.count(this.hashAt(chunk, index), 1);
			}
		}
		if (this.counts && !this.counts.has(hash)) return false;
		const place = this.find(hash);
		return place !== undefined && this.timeAt(...place) >= cutoffSec;
	}

	/** Every stored hash with its newest time: for many lookups at once. */
	newestTimes(): Map<string, number> {
		const times = new Map<string, number>();
		for (let chunk = 0; chunk < this.ids.length; chunk++) {
			for (let index = 0; index < this.countOf(chunk); index++) times.set(this.hashAt(chunk, index), this.timeAt(chunk, index));
		}
		return times;
	}

	/** Adds entries (oldest first) in time order; they belong near the end, so the search starts there. */
	insert(entries: ReadonlyArray<readonly [string, number]>): void {
		for (const [hash, atSec] of entries) {
			// The place after the newest entry not newer than atSec: [chunk, index].
			let chunk = this.ids.length - 1;
			let index = chunk < 0 ? 0 : this.countOf(chunk);
			while (chunk >= 0) {
				if (index > 0 && this.timeAt(chunk, index - 1) > atSec) index--;
				else if (index === 0 && chunk > 0 && this.timeAt(chunk - 1, this.countOf(chunk - 1) - 1) > atSec) index = this.countOf(--chunk) - 1;
				else break;
			}
			const time = encodeTime(atSec);
			if (chunk < 0 || (chunk === this.ids.length - 1 && index === this.countOf(chunk) && index >= CHUNK)) {
				this.ids.push(hash);
				this.at.push(time);
			} else {
				const ids = this.ids[chunk];
				const at = this.at[chunk];
				this.ids[chunk] = ids.slice(0, index * HASH_CHARS) + hash + ids.slice(index * HASH_CHARS);
				this.at[chunk] = at.slice(0, index * TIME_CHARS) + time + at.slice(index * TIME_CHARS);
			}
			this.size++;
			this.count(hash, 1);
		}
	}

	/** Drops expired ids and, beyond the size limit, the oldest ones. */
	prune(nowMs: number, limits: DedupeLimits): void {
		const cutoff = Math.floor((nowMs - limits.maxAgeMs) / 1000);
		const max = Math.max(0, limits.maxEntries);
		while (this.ids.length > 0) {
			const total = this.countOf(0);
			let drop = 0;
			while (drop < total && (this.size - drop > max || this.timeAt(0, drop) < cutoff)) drop++;
			if (drop === 0) return;
			for (let index = 0; index < drop; index++) this.count(this.hashAt(0, index), -1);
			this.size -= drop;
			if (drop === total) {
				this.ids.shift();
				this.at.shift();
			} else {
				this.ids[0] = this.ids[0].slice(drop * HASH_CHARS);
				this.at[0] = this.at[0].slice(drop * TIME_CHARS);
				return;
			}
		}
	}

	toStore(writer: string): SeenStore {
		return { ids: [...this.ids], at: [...this.at], writer };
	}
}

/**
 * The window behind a stored object this process saved and still holds (as when static
 * data stays in memory between deliveries): reused, with its index, instead of read again.
 * n8n loads static data afresh for each delivery, so there each delivery reads its own.
 */
const windows = new WeakMap<object, StoredWindow>();

/** This process, for the writer of a save: random, so processes on other hosts never share it. */
const PROCESS = randomBytes(6).toString('base64url');
let windowsMade = 0;

/** Process-local window of accepted ids (or hashes) for one scope (workflow, node and test/production). */
export class RecentIds {
	/** This window, as the writer of the saves it makes. */
	readonly writer = `${PROCESS}.${++windowsMade}`;
	/** id → when it was accepted (ms) and its place in the order of acceptance. */
	private readonly seen = new Map<string, { at: number; seq: number }>();
	/** Accepted ids in order; `log[i]` has sequence number `logStart + i` (entries of evicted ids are skipped). */
	private log: string[] = [];
	private logStart = 0;

	has(id: string, nowMs: number, limits: DedupeLimits): boolean {
		if (limits.maxEntries <= 0) return false;
		const entry = this.seen.get(id);
		return entry !== undefined && entry.at >= nowMs - limits.maxAgeMs;
	}

	add(id: string, nowMs: number, limits: DedupeLimits): void {
		if (limits.maxEntries <= 0) return;
		this.seen.delete(id);
		this.seen.set(id, { at: nowMs, seq: this.logStart + this.log.length });
		this.log.push(id);
		for (const [key, { at }] of this.seen) {
			if (this.seen.size <= limits.maxEntries && at >= nowMs - limits.maxAgeMs) break;
			this.seen.delete(key);
		}
		// Forget the log before the oldest id still held (amortised: only once it is twice the window).
		if (this.log.length > 2 * this.seen.size + 64) {
			const oldest = this.seen.values().next().value?.seq ?? this.logStart + this.log.length;
			this.log = this.log.slice(oldest - this.logStart);
			this.logStart = oldest;
		}
	}

	get size(): number {
		return this.seen.size;
	}

	/** The sequence number of the newest id accepted (-1 before the first). */
	get lastSeq(): number {
		return this.logStart + this.log.length - 1;
	}

	/** The ids accepted after sequence number `seq` and still held, oldest first, with when (ms). */
	*after(seq: number): Generator<[string, number]> {
		for (let i = Math.max(0, seq + 1 - this.logStart); i < this.log.length; i++) {
			const id = this.log[i];
			const entry = this.seen.get(id);
			if (entry?.seq === this.logStart + i) yield [id, entry.at];
		}
	}
}

/** Below this many ids to look up, the stored window is searched for each; from it on, indexed once. */
const LOOKUPS_BEFORE_INDEX = 8;

/**
 * The ids (hashes) of this process's window that the stored window lacks, oldest first.
 *
 * Why: n8n saves a workflow's static data as one value, last writer wins, and a
 * webhook processor (or a main) loads it afresh for every delivery. Deliveries
 * handled at the same time each load the stored window, add their own id and
 * save; all but the last save lose the ids of the others. Every save here
 * carries every id this process accepted up to then, and says so in `writer`.
 *
 * So a stored window whose last save this process's window made (`writer`) lacks
 * only ids accepted after the sequence number written there: only those are looked
 * at, whatever the window holds. A window another process saved (queue mode, several
 * webhook processors), or one from before a restart, may lack any of them: every
 * id of this process's window is looked up.
 */
function missingFrom(window: StoredWindow, writer: string | undefined, recent: RecentIds, nowMs: number, limits: DedupeLimits): Array<[string, number]> {
	const [by, seq] = (writer ?? '').split(':');
	const newest = by === recent.writer && /^\d+$/.test(seq) ? Number(seq) : -1;
	const cutoffMs = nowMs - limits.maxAgeMs;
	const candidates = [...recent.after(newest)].filter(([, atMs]) => atMs >= cutoffMs);
	const index = candidates.length >= LOOKUPS_BEFORE_INDEX ? window.newestTimes() : undefined;
	const missing: Array<[string, number]> = [];
	for (const [hash, atMs] of candidates) {
		const atSec = Math.floor(atMs / 1000);
		const held = index ? (index.get(hash) ?? -1) >= atSec : window.holdsSince(hash, atSec);
		if (!held) missing.push([hash, atSec]);
	}
	return missing;
}

const MAX_SCOPES = 1000;
const scopes = new Map<string, RecentIds>();

/** The process-local window of a scope; the least recently used scopes are forgotten beyond 1000. */
export function recentIds(scope: string): RecentIds {
	let window = scopes.get(scope);
	if (window) {
		scopes.delete(scope);
	} else {
		window = new RecentIds();
	}
	scopes.set(scope, window);
	while (scopes.size > MAX_SCOPES) {
		const oldest = scopes.keys().next().value as string;
		scopes.delete(oldest);
	}
	return window;
}

/** The duplicate check of one delivery. */
interface Dedupe {
	/** Whether `id` was accepted before, within the window (this process's memory first, then the stored window). */
	isDuplicate(id: string): boolean;
	/** Remembers `id` as accepted: in memory, and in the stored window when it may be written. */
	accept(id: string): void;
	/** After a duplicate: puts back into the stored window the ids of this process a concurrent save dropped. */
	repair(): void;
}

interface DedupeOptions {
	/** Workflow, node and test/production: whose ids these are. */
	scope: string;
	/** Which stored window of the node (test and production keep their own). */
	kind: string;
	limits: DedupeLimits;
	nowMs: number;
	/**
	 * Whether the static data in hand may be written. Static data that does not know
	 * the registration yet (its creation PING raced n8n's save) must not be: it would
	 * overwrite the newer copy. Accepted ids then live in memory until the next save.
	 */
	writable: boolean;
}

/** The dedupe of one delivery over the node's static data (`getWorkflowStaticData('node')`). */
export function openDedupe(nodeStaticData: IDataObject, options: DedupeOptions): Dedupe {
	const { kind, limits, nowMs, writable } = options;
	const off = limits.maxEntries <= 0;
	const memory = recentIds(options.scope);
	const record: unknown = isRecord(nodeStaticData.seen) ? nodeStaticData.seen[kind] : undefined;
	const held = isRecord(record) ? windows.get(record) : undefined;
	const writer = isRecord(record) && isString(record.writer) ? record.writer : undefined;
	const stored = held ?? new StoredWindow(readSeenStore(record));
	let hashed: [string, string] | undefined;
	const hash = (id: string) => (hashed?.[0] === id ? hashed[1] : (hashed = [id, hashOf(id)])[1]);

	/** Adds what the stored window lacks, prunes, and writes it back (assigned again, so n8n sees the change). */
	const save = (missing: Array<[string, number]>) => {
		stored.insert(missing);
		stored.prune(nowMs, limits);
		const saved = stored.toStore(`${memory.writer}:${memory.lastSeq}`);
		if (isRecord(record)) windows.delete(record);
		windows.set(saved, stored);
		const seen = isRecord(nodeStaticData.seen) ? nodeStaticData.seen : {};
		seen[kind] = saved as unknown as IDataObject;
		nodeStaticData.seen = seen as IDataObject;
	};

	return {
		isDuplicate(id) {
			if (off) return false;
			const key = hash(id);
			return memory.has(key, nowMs, limits) || stored.holdsSince(key, Math.floor((nowMs - limits.maxAgeMs) / 1000));
		},
		accept(id) {
			if (off) return;
			memory.add(hash(id), nowMs, limits);
			if (writable) save(missingFrom(stored, writer, memory, nowMs, limits));
		},
		repair() {
			if (off || !writable) return;
			const missing = missingFrom(stored, writer, memory, nowMs, limits);
			if (missing.length > 0) save(missing);
		},
	};
}
