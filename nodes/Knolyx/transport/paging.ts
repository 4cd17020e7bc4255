import type { IDataObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

import type { Endpoint } from './catalogue';
import { pathOf } from './catalogue';
import type { KnolyxClient, PagedCallOptions } from './client';
import type { ListPage } from './decode';
import { pageItems } from './decode';
import { keyOf } from '../helpers/entries';

// The page shapes are read where every answer is decoded; the API files read them from here.
export { pageItems };

/** Paged lists: every page of a list endpoint, or up to a limit. */

/** The largest page the node asks for (the sandbox's largest; a platform may serve more or fewer). */
const MAX_PAGE_SIZE = 100;
/** Return All gives up after this many pages even when every page brings new entries. */
const MAX_PAGES = 10_000;

/** Reads of a whole list made before the node gives up on a list that changes on every read. */
const MAX_PASSES = 4;

/** One read of a whole list (or up to the limit): its entries, and whether it saw the list move. */
interface Pass<T> {
	entries: T[];
	/**
	 * A page mixed entries read before with new ones, or a page of entries read before was not the
	 * page before it again: the list changed (or shifted) while its pages were read.
	 */
	moved: boolean;
	/** The list came whole on page 0 and again, the same entries, on page 1: two reads agreed. */
	agreed: boolean;
}

/**
 * Reads a paged list from an endpoint of the catalogue (`pagination.page` zero-based,
 * `pagination.size`), each entry once (by its key: `keyOf`), all of it or up to `limit` entries.
 *
 * The list ends only where a read confirms it (docs/api.md, "Lists"):
 * - an empty page;
 * - a page object's `last: true`, or as many entries as its `totalElements` (or `total`);
 * - a page that brings no entry not read before (the same entries again, in any order: a page
 *   past the end repeating the last one, pages that wrap, a list served whole again).
 * A short page is no end: the platform may shorten a page in the middle of a list, so a short
 * page costs one more read (the empty page after it), never the rest of the list. A page longer
 * than asked is read on too: the platform chose its own size, and an array says nothing of what
 * follows it. A list served whole (it ignores the page and the size) costs one request more,
 * whose page repeats it.
 * When the second page repeats a first page of exactly the size asked, one page of one entry
 * tells a list served whole (it answers more than one) from one that honours the size but
 * ignores the page number, which would never end: that one fails. So does a page object whose
 * `last` or total contradicts what came (an empty or repeated page while it says there is
 * more, `last: true` short of its total).
 *
 * A list that moved while it was read (a page mixing entries read before with new ones, or a
 * repeated page other than the one before it: an entry moved or was added or removed between
 * two pages, or a list served whole changed between two reads) is read again, whole, until two
 * reads list the same entries (in any order), at most MAX_PASSES reads; else it fails, naming the
 * list. The entries output are those of the last read, each once.
 */
export async function readPages<T = IDataObject>(
	client: KnolyxClient,
	endpoint: Endpoint,
	options: PagedCallOptions,
): Promise<T[]> {
	const path = pathOf(endpoint, options.params);
	const fail = (what: string) => endlessList(client, path, what, options.itemIndex);
	let before: Set<string> | undefined;
	for (let pass = 1; ; pass++) {
		const read = await readPass<T>(client, endpoint, options, fail);
		if (!read.moved && (before === undefined || read.agreed)) return read.entries;
		const keys = keysOf(read.entries);
		if (before !== undefined && sameKeys(before, keys)) return read.entries;
		if (pass >= MAX_PASSES)
			throw changingList(client, path, MAX_PASSES, before, keys, options.itemIndex);
		before = keys;
	}
}

/** One read of the list, page after page, to the end a read confirms (or the limit). */
async function readPass<T>(
	client: KnolyxClient,
	endpoint: Endpoint,
	options: PagedCallOptions,
	fail: (what: string) => NodeApiError,
): Promise<Pass<T>> {
	const wanted = options.returnAll ? Infinity : Math.max(0, options.limit ?? 50);
	const size = Math.min(
		MAX_PAGE_SIZE,
		Number.isFinite(wanted) ? Math.max(1, wanted) : MAX_PAGE_SIZE,
	);
	const pageOf = async (page: number, pageSize: number) => {
		const { body } = await client.call<unknown>(endpoint, {
			params: options.params,
			qs: { ...options.qs, 'pagination.page': page, 'pagination.size': pageSize },
			subject: options.subject,
			itemIndex: options.itemIndex,
		});
		// The client has checked the answer's shape: every paged endpoint's catalogue shape is 'page'.
		return pageItems<T>(body) as ListPage<T>;
	};
	const results: T[] = [];
	const keys = new Set<string>();
	let moved = false;
	let agreed = false;
	/** The keys of the page before, to tell a page past the end repeating it from a list that moved. */
	let previous = new Set<string>();
	for (let page = 0; results.length < wanted; page++) {
		if (page >= MAX_PAGES) throw fail(`read ${MAX_PAGES} pages without reaching the end`);
		const read = await pageOf(page, size);
		const { items } = read;
		const onPage = new Set<string>();
		const fresh = items.filter((item) => {
			const key = entryKey(item);
			onPage.add(key);
			if (keys.has(key)) return false;
			keys.add(key);
			return true;
		});
		if (fresh.length === 0) {
			// The end of the list: no page, or the same entries again.
			const what =
				items.length === 0 ? `page ${page} is empty` : `page ${page} repeats entries already read`;
			if (
				items.length === size &&
				page === 1 &&
				// Asked for one entry, more come: the list ignores the size as well as the page
				// number, so the page read is the whole list.
				(await pageOf(0, 1)).items.length <= 1
			)
				throw fail(`page 1 repeats page 0`);
			const contradiction = saysMore(read, results.length);
			if (contradiction !== undefined) throw fail(`${what}, but ${contradiction}`);
			if (items.length > 0) {
				const same = sameKeys(onPage, previous);
				if (!same) moved = true;
				else if (page === 1) agreed = true;
			}
			break;
		}
		// Entries read before beside new ones: the list shifted under the reader.
		if (fresh.length < items.length) moved = true;
		results.push(...fresh);
		previous = onPage;
		if (read.last === true) {
			if (read.total !== undefined && results.length < read.total)
				throw fail(
					`page ${page} says it is the last, with totalElements ${read.total}, after ${results.length} entries`,
				);
			break;
		}
		if (read.total !== undefined && results.length >= read.total) break;
	}
	return { entries: results.slice(0, wanted), moved, agreed };
}

const entryKey = (entry: unknown) => String(keyOf(entry as IDataObject));

function keysOf(entries: unknown[]): Set<string> {
	return new Set(entries.map(entryKey));
}

function sameKeys(a: Set<string>, b: Set<string>): boolean {
	if (a.size !== b.size) return false;
	for (const key of a) if (!b.has(key)) return false;
	return true;
}

/** A list that changed on every one of `passes` reads: the last two, and how they differ. */
function changingList(
	client: KnolyxClient,
	path: string,
	passes: number,
	before: Set<string> | undefined,
	after: Set<string>,
	itemIndex?: number,
): NodeApiError {
	const gone = [...(before ?? [])].filter((key) => !after.has(key));
	const came = [...after].filter((key) => !before?.has(key));
	const some = (keys: string[]) =>
		keys.length === 0 ? 'none' : `${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
	const what = `read ${passes} times, it changed each time (the last read lists ${after.size} entries; gone since the read before: ${some(gone)}; new: ${some(came)})`;
	return new NodeApiError(
		client.node,
		{ message: what },
		{
			message: `Knolyx: the list ${path} changed while it was read: ${what} [200]`,
			description:
				'Entries were added, removed or moved while the pages were read, on every read, so no read gives the whole list exactly. Run it again when the list is quiet, or report it to Knolyx.',
			itemIndex,
		},
	);
}

/** What a page object says that contradicts the list ending here, after `read` entries. */
function saysMore(page: ListPage<unknown>, read: number): string | undefined {
	if (page.total !== undefined && read < page.total)
		return `it says totalElements ${page.total}, and ${read} entries came`;
	if (page.last === false) return 'it says last: false';
	return undefined;
}

function endlessList(
	client: KnolyxClient,
	path: string,
	what: string,
	itemIndex?: number,
): NodeApiError {
	return new NodeApiError(
		client.node,
		{ message: what },
		{
			message: `Knolyx: the list ${path} does not end: ${what} [200]`,
			description:
				'The platform seems to ignore the page number, or its page object says more than it serves, so the whole list cannot be read. Use Limit instead of Return All, or report it to Knolyx.',
			itemIndex,
		},
	);
}
