import type { IDataObject } from 'n8n-workflow';

/** What tells the entries of a list apart: the key of an entry, and a list with each key once. */

export type EntryKey = string | number;

/** The key of an entry: its ID (attendees: the user ID), else its e-mail, else the entry itself. */
export function keyOf(entry: IDataObject): EntryKey {
	for (const field of ['id', 'userId', 'email']) {
		const value = entry[field];
		if (typeof value === 'number' || (typeof value === 'string' && value !== '')) return value;
	}
	return JSON.stringify(entry);
}

/** The entries of a read (or of several reads of one list, joined), each key once, in the order first listed. */
export function distinct<T>(entries: T[]): T[] {
	const keys = new Set<string>();
	return entries.filter((entry) => {
		const id = String(keyOf(entry as IDataObject));
		if (keys.has(id)) return false;
		keys.add(id);
		return true;
	});
}
