/**
 * The Knolyx Trigger's stored seen-id window as the tests read it. The stored form is
 * written out here on purpose (not imported): it is what saved workflows hold, so it
 * must not change unnoticed.
 *
 * Stored form (`seen.<kind>` of the node's static data), oldest first, in chunks:
 * `ids`, strings of 11 base64url characters per id (the first 66 bits of its SHA-256);
 * `at`, the same chunks' times, 6 base64url characters per id (seconds since the epoch,
 * most significant first); `writer`. Before: `{ ids: string[], at: number[] }`.
 */
import { createHash } from 'node:crypto';
import type { IDataObject } from 'n8n-workflow';

const DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The stored form of one id. */
export const idHash = (id: string): string =>
	createHash('sha256').update(id, 'utf8').digest('base64url').slice(0, 11);

export interface WindowEntries {
	/** The stored hashes, oldest first (compare with `ids.map(idHash)`). */
	hashes: string[];
	/** Their times, seconds since the epoch. */
	times: number[];
}

/** The entries of the stored window of `kind` (empty when there is none). */
export function storedWindow(
	nodeStaticData: IDataObject | undefined,
	kind = 'production',
): WindowEntries {
	const seen = nodeStaticData?.seen as
		| Record<string, { ids?: string[]; at?: string[] }>
		| undefined;
	const store = seen?.[kind];
	const entries: WindowEntries = { hashes: [], times: [] };
	(store?.ids ?? []).forEach((hashes, chunk) => {
		const times = store?.at?.[chunk] ?? '';
		for (let i = 0; i * 11 < hashes.length; i++) {
			entries.hashes.push(hashes.slice(i * 11, i * 11 + 11));
			entries.times.push(
				[...times.slice(i * 6, i * 6 + 6)].reduce(
					(value, digit) => value * 64 + DIGITS.indexOf(digit),
					0,
				),
			);
		}
	});
	return entries;
}

/** The stored window as another process would leave it: these ids at these times (seconds) appended, its writer. */
export function appendForeign(
	nodeStaticData: IDataObject,
	entries: Array<[string, number]>,
	kind = 'production',
): void {
	const seen = (nodeStaticData.seen ?? {}) as Record<
		string,
		{ ids?: string[]; at?: string[]; writer?: string }
	>;
	const store = seen[kind] ?? {};
	const time = (seconds: number) =>
		Array.from({ length: 6 }, (_, i) => DIGITS[Math.floor(seconds / 64 ** (5 - i)) % 64]).join('');
	seen[kind] = {
		ids: [...(store.ids ?? []), entries.map(([id]) => idHash(id)).join('')],
		at: [...(store.at ?? []), entries.map(([, seconds]) => time(seconds)).join('')],
		writer: 'another-process:1',
	};
	nodeStaticData.seen = seen as IDataObject;
}
