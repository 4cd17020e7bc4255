/**
 * Part of the duplicate check (../dedupe.ts, its only user): the stored window of accepted
 * message ids, kept in the node's static data under `seen`:
 * n8n saves it with the workflow, so it survives restarts. Bounded by count and age.
 *
 * It is compact: n8n loads static data from the database for every delivery, wraps every
 * object and array of it in its change-tracking proxy, and saves it back whole after each new
 * id. Stored as a few dozen strings (17 characters an id: ~90 KB of JSON at 5 000 ids, where
 * one array element per id and time took ~244 KB), that load, wrap and save stay small, and
 * the node never walks a proxied array element by element.
 */
import { createHash } from 'node:crypto';

import { isRecord } from '../../helpers/objects';

/** How many accepted ids a window keeps, and for how long. */
export interface DedupeLimits {
	/** How many ids are kept; the oldest are dropped first. 0 turns duplicate detection off. */
	maxEntries: number;
	/** How long an id is kept. */
	maxAgeMs: number;
}

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
export function hashOf(id: string): string {
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
	for (let i = from; i < from + TIME_CHARS; i++)
		value = value * 64 + (DIGIT_VALUE.get(text[i]) ?? 0);
	return value;
}

const EMPTY: SeenStore = { ids: [], at: [] };
export const isString = (value: unknown): value is string => typeof value === 'string';
const isTime = (value: unknown): value is number =>
	typeof value === 'number' && Number.isFinite(value);

/** The window stored in static data (either form); anything malformed counts as an empty window. */
export function readSeenStore(value: unknown): SeenStore {
	if (!isRecord(value)) return EMPTY;
	const ids: unknown = value.ids;
	const at: unknown = value.at;
	if (!Array.isArray(ids) || !Array.isArray(at) || ids.length !== at.length || !ids.every(isString))
		return EMPTY;
	if (at.every(isString)) {
		const fits = ids.every(
			(chunk, i) =>
				chunk.length > 0 &&
				chunk.length % HASH_CHARS === 0 &&
				at[i].length === (chunk.length / HASH_CHARS) * TIME_CHARS,
		);
		if (!fits) return EMPTY;
		return { ids, at, writer: isString(value.writer) ? value.writer : undefined };
	}
	// Written by earlier versions: one id per element, times in seconds.
	if (!at.every(isTime)) return EMPTY;
	const store: SeenStore = { ids: [], at: [] };
	for (let i = 0; i < ids.length; i += CHUNK) {
		store.ids.push(
			ids
				.slice(i, i + CHUNK)
				.map(hashOf)
				.join(''),
		);
		store.at.push(
			at
				.slice(i, i + CHUNK)
				.map(encodeTime)
				.join(''),
		);
	}
	return store;
}

/** Below this many lookups in one window, each searches the chunks; from it on, a count of each hash answers first. */
const SCANS_BEFORE_INDEX = 2;

/** The stored window of a delivery, changed in place; `toStore` gives what is saved. */
export class StoredWindow {
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
				for (let index = 0; index < this.countOf(chunk); index++)
					this.count(this.hashAt(chunk, index), 1);
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
			for (let index = 0; index < this.countOf(chunk); index++)
				times.set(this.hashAt(chunk, index), this.timeAt(chunk, index));
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
				else if (
					index === 0 &&
					chunk > 0 &&
					this.timeAt(chunk - 1, this.countOf(chunk - 1) - 1) > atSec
				)
					index = this.countOf(--chunk) - 1;
				else break;
			}
			const time = encodeTime(atSec);
			if (
				chunk < 0 ||
				(chunk === this.ids.length - 1 && index === this.countOf(chunk) && index >= CHUNK)
			) {
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
