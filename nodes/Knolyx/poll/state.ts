import type { IDataObject } from 'n8n-workflow';

import type { EntryKey } from '../helpers/entries';
import { keyOf } from '../helpers/entries';

export { distinct, keyOf, type EntryKey } from '../helpers/entries';

/**
 * What the Poll Trigger remembers between polls, and how a complete read of a
 * list is compared with it. Pure functions: no HTTP, no n8n context.
 *
 * A watched list (the attendees of one event, the events of a community, the
 * course catalogue) is remembered as the keys of its entries. A poll reads the
 * whole list; an entry whose key is not remembered is new. An entry that was
 * remembered and is absent from a complete read is marked missing; absent from
 * a second complete read in a row, it is forgotten, so if it comes back later
 * (an attendee who cancelled and registered again) it is new again. One absence
 * alone is not enough: a list edited while its pages are read can shift an entry
 * from one page to the one already read, and that entry would otherwise come
 * back as "new" on the next poll.
 *
 * The bound counts the entries present in the lists read by one poll. Entries
 * missing once are kept on top of it until the next complete read (which sees
 * them again or forgets them), so a list that shrinks back under the bound is
 * watched again at once, whatever was removed from it meanwhile.
 */

/** Entries one node watches over all the lists one poll reads (those missing once are not counted). */
export const MAX_REMEMBERED = 25_000;

export interface ListMemory {
	/** Keys of the entries present in the last complete read, plus those missing once. */
	seen: EntryKey[];
	/** Keys of `seen` that were absent from the last complete read. */
	missing?: EntryKey[];
}

export interface PollState {
	/** Layout version of this object. */
	v: 1;
	/** What the node watches (event, scope, IDs): another value means the state belongs to other settings. */
	watch: string;
	/** One memory per watched list, e.g. 'events', 'attendees:401', 'courses'. */
	lists: Record<string, ListMemory>;
	/** When the last poll that completed its reads finished (ISO). */
	polledAt: string;
}

export interface ListDiff {
	/** Entries of the read whose key was not remembered, in the order read, each once. */
	fresh: IDataObject[];
	next: ListMemory;
}

/**
 * Compares a complete read with what was remembered. Without a memory the
 * read is the baseline (nothing is fresh) unless `freshWhenUnknown` says the
 * whole list is new (the attendees of an event published after the baseline).
 */
export function diffList(
	memory: ListMemory | undefined,
	read: IDataObject[],
	freshWhenUnknown = false,
): ListDiff {
	const present = new Map<string, EntryKey>();
	const fresh: IDataObject[] = [];
	const remembered = new Set((memory?.seen ?? []).map(String));
	for (const entry of read) {
		const key = keyOf(entry);
		const id = String(key);
		if (present.has(id)) continue;
		present.set(id, key);
		if (memory ? !remembered.has(id) : freshWhenUnknown) fresh.push(entry);
	}
	const missingBefore = new Set((memory?.missing ?? []).map(String));
	const missing: EntryKey[] = [];
	for (const key of memory?.seen ?? []) {
		const id = String(key);
		if (present.has(id) || missingBefore.has(id)) continue; // present, or absent twice: forgotten
		missing.push(key);
	}
	const next: ListMemory = { seen: [...present.values(), ...missing] };
	if (missing.length > 0) next.missing = missing;
	return { fresh, next };
}

/** How many entries of a memory were present in the read that made it. */
export function presentCount(memory: ListMemory): number {
	return memory.seen.length - (memory.missing?.length ?? 0);
}

/** The state saved in static data, if it is one this version wrote for these settings. */
export function readState(raw: unknown, watch: string): PollState | undefined {
	if (!raw || typeof raw !== 'object') return undefined;
	const state = raw as Partial<PollState>;
	if (state.v !== 1 || state.watch !== watch || !state.lists || typeof state.lists !== 'object')
		return undefined;
	return state as PollState;
}
